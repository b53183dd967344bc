/** Adds surveys of the screener's sponsor to a screener, picked by title, or removes them (SPEC: associate-surveys). */
import { useState } from 'react';
import { surveysApi } from '@core/api/surveys';
import { screenersApi } from '@core/api/screeners';
import type { ScreenerSurvey } from '@core/model/screenerSurvey';
import type { Screener } from '@core/model/screener';
import { SurveyAdder } from '../../components/SurveyPicker';
import { RecordLoader } from '../../components/RecordLoader';
import { SurveyLinks } from '../../components/SurveyLinks';
import { useAsync } from '../../hooks/useAsync';
import { pathTo } from '../../routing/routes';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { useBusyCall } from '../../hooks/useBusyCall';
import { screenerTrail } from '../sponsors/sponsorTrail';
import { useScreener } from './useScreener';
import { ErrorText } from '../../components/form/FormErrors';

function Associate({ screener }: { screener: Screener }) {
  const api = useApi(screenersApi);
  const surveyCalls = useApi(surveysApi);
  const surveys = useAsync(() => api.surveys(screener.id), [api, screener.id]);
  const [identity, setIdentity] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { busy, run } = useBusyCall(setError);

  useTopBar({
    objectTitle: screener.title,
    breadcrumbs: screenerTrail(screener, 'Associate Surveys'),
    buttons: [{ label: 'Done', to: pathTo('ScreenerView', { screenerId: screener.id }), variant: 'primary' }],
  });

  const act = (action: () => Promise<unknown>) => {
    setError(null);
    return run(async () => {
      await action();
      surveys.reload();
    }, 'Could not save data');
  };

  const add = async () => {
    if (await act(() => api.addSurvey(screener.id, identity))) setIdentity('');
  };

  const items: ScreenerSurvey[] = surveys.data?.items ?? [];
  const linked = new Set(items.map((s) => s.oFormIdentity));
  // The screener's sponsor's surveys it does not have yet.
  const search = async (searchQuery: string) =>
    (await surveyCalls.pickable({ searchQuery, sponsorId: String(screener.sponsorId) })).filter((s) => !linked.has(s.oFormIdentity));
  return (
    <section className="panel">
      <ErrorText message={error} />
      <SurveyAdder
        label="Survey"
        name="survey"
        value={identity}
        onChange={setIdentity}
        search={search}
        hint={`Surveys of ${screener.sponsorName}, by title.`}
        busy={busy}
        onAdd={() => void add()}
      />
      {items.length === 0 ? (
        <p className="muted">No surveys yet.</p>
      ) : (
        <SurveyLinks
          label="Screener surveys"
          links={items}
          button={() => ({ verb: 'Remove', className: 'btn-danger-outline', disabled: busy })}
          onClick={(s) => void act(() => api.removeSurvey(s.id))}
        />
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
