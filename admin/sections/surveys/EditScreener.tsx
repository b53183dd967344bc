/**
 * VersionedSurveyEditScreener: the screeners that run this survey. Links are by the survey's
 * identity, so they hold for every version (participants get the approved one).
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { surveysApi, type SurveyDetail } from '@core/api/surveys';
import { screenersApi } from '@core/api/screeners';
import { FormErrors } from '../../components/form/FormErrors';
import { Select } from '../../components/form/Select';
import { RecordLoader } from '../../components/RecordLoader';
import { StatusBadge } from '../../components/StatusBadge';
import { useAsync } from '../../hooks/useAsync';
import { useOptions } from '../../hooks/useOptions';
import { pathTo } from '../../routing/routes';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { useAction } from '../../hooks/useAction';
import { SAVE_FAILED } from './values';
import { useSurveyDetail } from './useSurveyDetail';

function ScreenerLinks({ detail }: { detail: SurveyDetail }) {
  const { form } = detail;
  const api = useApi(surveysApi);
  const screeners = useApi(screenersApi);
  const links = useAsync(() => api.screenerLinks(form.identity), [api, form.identity]);
  const choices = useOptions(
    () => screeners.list({ limit: 1000, sort: 'title' }).then((r) => r.items.map((s) => ({ value: s.id, label: s.title }))),
    [screeners],
    'Could not load screeners',
  );
  const [choice, setChoice] = useState('');
  const action = useAction();
  useTopBar({ objectTitle: form.title, buttons: [{ label: 'Done', to: pathTo('VersionedSurveyView', { id: form.id }), variant: 'primary' }] });

  const title = (screenerId: number) => choices.options.find((o) => o.value === String(screenerId))?.label ?? `Screener ${screenerId}`;
  const linked = new Set((links.data ?? []).map((l) => String(l.screenerId)));

  return (
    <section className="panel" aria-label="Screeners" aria-busy={action.busy || links.loading || undefined}>
      <h2 className="section-title">Screeners running this survey</h2>
      <FormErrors message={action.error ?? choices.error} />
      {links.data?.length === 0 && <p className="muted">No screener runs this survey yet.</p>}
      <ul className="link-list">
        {(links.data ?? []).map((link) => (
          <li key={link.id}>
            <Link to={pathTo('ScreenerView', { screenerId: link.screenerId })}>{title(link.screenerId)}</Link> <StatusBadge active={link.isActive} />{' '}
            <button
              type="button"
              className="btn btn-small btn-danger-outline"
              aria-label={`Remove ${title(link.screenerId)}`}
              onClick={() =>
                action.run(async () => {
                  await screeners.removeSurvey(link.id);
                  links.reload();
                }, SAVE_FAILED)
              }
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <div className="form-grid">
        <Select
          label="Screener"
          name="screener"
          emptyLabel="Choose a screener"
          options={choices.options.filter((o) => !linked.has(o.value))}
          loading={choices.loading}
          value={choice}
          onChange={setChoice}
        />
      </div>
      <button
        type="button"
        className="btn btn-secondary"
        disabled={!choice || action.busy}
        onClick={() =>
          action.run(async () => {
            await screeners.addSurvey(choice, form.identity);
            setChoice('');
            links.reload();
          }, SAVE_FAILED)
        }
      >
        Link Screener
      </button>
    </section>
  );
}

export default function VersionedSurveyEditScreener() {
  return (
    <RecordLoader state={useSurveyDetail()} resource="survey">
      {(detail) => <ScreenerLinks key={detail.form.id} detail={detail} />}
    </RecordLoader>
  );
}
