/** Adds survey identities to a screener or removes them (SPEC: associate-surveys). */
import { useState } from 'react';
import { ApiError } from '../../../core/api/client';
import { screenersApi } from '../../../core/api/screeners';
import { surveyIdentity, type ScreenerSurvey } from '../../../core/model/screenerSurvey';
import type { Screener } from '../../../core/model/screener';
import * as v from 'valibot';
import { TextField } from '../../components/form/TextField';
import { RecordLoader } from '../../components/RecordLoader';
import { StatusBadge } from '../../components/StatusBadge';
import { useAsync } from '../../hooks/useAsync';
import { pathTo } from '../../routing/routes';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { useScreener } from './useScreener';

function Associate({ screener }: { screener: Screener }) {
  const api = useApi(screenersApi);
  const surveys = useAsync(() => api.surveys(screener.id), [api, screener.id]);
  const [identity, setIdentity] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useTopBar({
    objectTitle: screener.title,
    breadcrumbs: [
      { label: 'Sponsors', to: pathTo('SponsorsIndex') },
      { label: screener.sponsorName, to: pathTo('SponsorsView', { id: screener.sponsorId }) },
      { label: screener.title, to: pathTo('ScreenerView', { screenerId: screener.id }) },
      { label: 'Associate Surveys' },
    ],
    buttons: [{ label: 'Done', to: pathTo('ScreenerView', { screenerId: screener.id }), variant: 'primary' }],
  });

  const act = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
      surveys.reload();
      return true;
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'Could not save data');
      return false;
    } finally {
      setBusy(false);
    }
  };

  const add = async () => {
    const parsed = v.safeParse(surveyIdentity(), identity);
    if (!parsed.success) {
      setError(parsed.issues[0]?.message ?? 'Could not save data');
      return;
    }
    if (await act(() => api.addSurvey(screener.id, parsed.output))) setIdentity('');
  };

  const items: ScreenerSurvey[] = surveys.data?.items ?? [];
  return (
    <section className="panel">
      {error && <p className="form-errors" role="alert">{error}</p>}
      <div className="add-lookup">
        <TextField label="Survey identity" name="survey-identity" maxLength={64} value={identity} onChange={setIdentity} hint="The stable identity of a versioned survey." />
        <button type="button" className="btn btn-small btn-secondary" disabled={busy || !identity.trim()} onClick={() => void add()}>
          Add Survey
        </button>
      </div>
      {items.length === 0 ? (
        <p className="muted">No surveys yet.</p>
      ) : (
        <ul className="plain-list" aria-label="Screener surveys">
          {items.map((s) => (
            <li key={s.id}>
              {s.oFormIdentity} <StatusBadge active={s.isActive} />{' '}
              <button type="button" className="btn btn-small btn-danger-outline" disabled={busy} onClick={() => void act(() => api.removeSurvey(s.id))}>
                Remove {s.oFormIdentity}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export default function ScreenerAssociateSurveys() {
  return (
    <RecordLoader state={useScreener()} resource="screener">
      {(screener) => <Associate screener={screener} />}
    </RecordLoader>
  );
}
