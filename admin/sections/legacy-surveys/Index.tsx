import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { engagementsApi } from '@core/api/engagements';
import { legacySurveysApi } from '@core/api/legacySurveys';
import type { Survey } from '@core/model/legacySurvey';
import { Select } from '../../components/form/Select';
import type { Column } from '../../components/list/DataTable';
import { actionsColumn, activeColumn, linkColumn, modifiedColumn } from '../../components/list/columns';
import { ListView } from '../../components/list/ListView';
import { activateAndDeleteBulk } from '../../components/list/bulk';
import { activeFilter, sponsorFilter } from '../../components/list/filters';
import { useSponsorOptions } from '../../hooks/useSponsorOptions';
import { displayValue } from '../../components/ViewFields';
import { useOptions } from '../../hooks/useOptions';
import { useIndexList } from '../../components/list/useIndexList';
import { pathTo } from '../../routing/routes';
import { useApi } from '../../state/services';
import { SURVEY_LABELS as L } from './values';
import { SURVEY_ENGAGEMENT_PARAMS, SURVEY_LIST } from './listCalls';
import './legacy-surveys.css';

export default function SurveysIndex() {
  const api = useApi(legacySurveysApi);
  const engagementApi = useApi(engagementsApi);
  const navigate = useNavigate();
  const sponsors = useSponsorOptions();
  const { list, remove } = useIndexList(api, {
    ...SURVEY_LIST,
    what: 'Survey',
  });
  const engagements = useOptions(
    () => engagementApi.list(SURVEY_ENGAGEMENT_PARAMS).then((r) => r.items.map((e) => ({ value: e.id, label: `${e.name} (${e.fullIdentification})` }))),
    [engagementApi],
    'Could not load engagements',
  );
  const [engagementId, setEngagementId] = useState('');

  const columns: Column<Survey>[] = [
    linkColumn('title', L.title, (s) => pathTo('SurveysView', { id: s.id })),
    { id: 'engagement', header: L.engagementName, sortField: 'engagementName', cell: (s) => displayValue(s.engagementName) },
    { id: 'sponsor', header: L.sponsorName, sortField: 'sponsorName', cell: (s) => displayValue(s.sponsorName) },
    activeColumn(L.isActive),
    modifiedColumn(L.modified),
    actionsColumn({
      view: (s) => pathTo('SurveysView', { id: s.id }),
      edit: (s) => pathTo('SurveysEdit', { id: s.id }),
      remove: { confirmAndDelete: remove, reload: list.reload },
    }),
  ];

  return (
    <>
      <form
        className="panel survey-add-bar"
        onSubmit={(event) => {
          event.preventDefault();
          if (engagementId) navigate(pathTo('SurveysAdd', { engagementId }));
        }}
      >
        <Select
          label="Add a survey for engagement"
          name="engagementId"
          options={engagements.options}
          emptyLabel="Choose an engagement"
          loading={engagements.loading}
          error={engagements.error ?? undefined}
          value={engagementId}
          onChange={setEngagementId}
        />
        <button type="submit" className="btn btn-primary" disabled={!engagementId}>
          Add Survey
        </button>
      </form>
      <ListView
        list={list}
        columns={columns}
        caption="Surveys"
        emptyMessage="No surveys yet."
        filters={[sponsorFilter(sponsors), activeFilter()]}
        columnsKey="surveys"
        bulk={activateAndDeleteBulk<Survey>(api, ['survey', 'surveys'], (s) => s.title)}
      />
    </>
  );
}
