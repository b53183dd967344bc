/**
 * Sites from ClinicalTrials.gov on the engagement view (Admin, Super User): an NCT number or an
 * uploaded study record (.json), previewed as new, changed and closed sites, then imported in one
 * step. Nothing is written until Import.
 */
import { useState } from 'react';
import { clinicalTrialsGovApi } from '@core/api/clinicalTrialsGov';
import type { CtgovPlan, CtgovSite, CtgovSource } from '@core/model/clinicalTrialsGov';
import { useNotify } from '../../state/notices';
import { useApi } from '../../state/services';
import { useBusyCall } from '../../hooks/useBusyCall';
import { ErrorText } from '../../components/form/FormErrors';
import './engagements.css';

export const CTGOV_FAILED = 'Could not read the study from ClinicalTrials.gov.';
const NOT_JSON = 'The file is not a JSON study record.';

const place = (s: CtgovSite) => [s.city, s.state, s.zipCode, s.country].filter(Boolean).join(', ');

function SiteList({ title, sites }: { title: string; sites: CtgovSite[] }) {
  return (
    <div>
      <h3>
        {title} ({sites.length})
      </h3>
      {sites.length > 0 && (
        <ul className="pick-list">
          {sites.map((s) => (
            <li key={s.siteId}>
              <span>
                {s.name} <span className="muted">— {place(s)}</span>{' '}
                <span className="muted">
                  ({s.status ?? 'no status'}
                  {s.isActive ? '' : ', inactive'})
                </span>
                {s.changes && s.changes.length > 0 && <span className="muted"> changes: {s.changes.join(', ')}</span>}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function ClinicalTrialsGovPanel({ engagementId, onImported }: { engagementId: string; onImported: () => void }) {
  const api = useApi(clinicalTrialsGovApi);
  const notify = useNotify();
  const [nctId, setNctId] = useState('');
  const [study, setStudy] = useState<{ name: string; record: unknown } | null>(null);
  const [plan, setPlan] = useState<{ source: CtgovSource; plan: CtgovPlan } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { busy, run: call } = useBusyCall(setError);

  const source = (): CtgovSource | null => (study ? { study: study.record } : nctId.trim() ? { nctId: nctId.trim() } : null);

  const run = async (action: 'preview' | 'import') => {
    const from = action === 'import' && plan ? plan.source : source();
    if (!from) {
      setError('Enter an NCT number or choose a study record file.');
      return;
    }
    setError(null);
    await call(async () => {
      const answer = await (action === 'preview' ? api.preview(engagementId, from) : api.import(engagementId, from));
      if (action === 'preview') setPlan({ source: from, plan: answer });
      else {
        setPlan(null);
        notify('success', `${answer.nctId}: ${answer.new.length} new, ${answer.changed.length} changed, ${answer.closed.length} closed sites imported.`);
        onImported();
      }
    }, CTGOV_FAILED);
  };

  const readFile = async (file: File | undefined) => {
    setPlan(null);
    setError(null);
    if (!file) return setStudy(null);
    try {
      setStudy({ name: file.name, record: JSON.parse(await file.text()) as unknown });
    } catch {
      setStudy(null);
      setError(NOT_JSON);
    }
  };

  const changes = plan ? plan.plan.new.length + plan.plan.changed.length + plan.plan.closed.length : 0;
  return (
    <section className="panel" id="clinicaltrials-gov" aria-labelledby="ctgov-title">
      <h2 id="ctgov-title">Sites from ClinicalTrials.gov</h2>
      <div className="link-editor">
        <input
          className="input"
          aria-label="NCT number"
          placeholder="NCT number, e.g. NCT06388018"
          value={nctId}
          disabled={study !== null}
          onChange={(event) => {
            setNctId(event.target.value);
            setPlan(null);
          }}
        />
        <label className="btn btn-small btn-secondary file-button">
          {study ? study.name : 'Or choose a study record (.json)'}
          <input
            type="file"
            className="sr-only"
            accept=".json,application/json"
            aria-label="Study record file"
            onChange={(event) => void readFile(event.target.files?.[0])}
          />
        </label>
        <button type="button" className="btn btn-small btn-secondary" disabled={busy} onClick={() => void run('preview')}>
          Preview
        </button>
        <button type="button" className="btn btn-small btn-primary" disabled={busy || !plan || changes === 0} onClick={() => void run('import')}>
          Import
        </button>
      </div>
      <ErrorText message={error} />
      {plan && (
        <div aria-live="polite">
          <p>
            {plan.plan.nctId}
            {plan.plan.title ? ` — ${plan.plan.title}` : ''}: {plan.plan.unchanged} unchanged.
          </p>
          <SiteList title="New" sites={plan.plan.new} />
          <SiteList title="Changed" sites={plan.plan.changed} />
          <SiteList title="Closed" sites={plan.plan.closed} />
        </div>
      )}
    </section>
  );
}
