import { surveysApi } from '@core/api/surveys';
import type { SurveyVersion } from '@core/model/surveyDoc';
import type { Column } from '../../components/list/DataTable';
import { actionsColumn, activeColumn, fieldColumn, linkColumn } from '../../components/list/columns';
import { ListView } from '../../components/list/ListView';
import { activateAndDeleteBulk } from '../../components/list/bulk';
import { activeFilter, sponsorFilter } from '../../components/list/filters';
import { useSponsorOptions } from '../../hooks/useSponsorOptions';
import { useIndexList } from '../../components/list/useIndexList';
import { pathTo } from '../../routing/routes';
import { useApi } from '../../state/services';
import { VERSIONED_SURVEY_LABELS as L, isFrozen } from './values';
import { VersionBadge } from './VersionBar';
import { VERSIONED_SURVEY_LIST } from './listCalls';

export default function VersionedSurveyIndex() {
  const api = useApi(surveysApi);
  const sponsors = useSponsorOptions();
  const { list, remove } = useIndexList(api, {
    ...VERSIONED_SURVEY_LIST,
    what: 'Survey version',
    add: pathTo('VersionedSurveyAdd'),
  });
  const columns: Column<SurveyVersion>[] = [
    linkColumn('title', L.title, (f) => pathTo('VersionedSurveyView', { id: f.id })),
    fieldColumn('version', L.version, 'plain'),
    { id: 'engagement', header: L.engagementName, sortField: 'engagementName', cell: (f) => f.engagementName },
    { id: 'sponsor', header: L.sponsorName, sortField: 'sponsorName', cell: (f) => f.sponsorName },
    { id: 'approved', header: L.isApproved, sortField: 'isApproved', exportFields: ['isApproved', 'approvedAt'], cell: (f) => <VersionBadge form={f} /> },
    activeColumn(L.isActive),
    actionsColumn({
      view: (f) => pathTo('VersionedSurveyView', { id: f.id }),
      edit: (f) => (isFrozen(f) ? undefined : pathTo('VersionedSurveyEdit', { id: f.id })),
      remove: { confirmAndDelete: remove, reload: list.reload, when: (f) => !isFrozen(f) },
    }),
  ];
  return (
    <ListView
      list={list}
      columns={columns}
      caption="Versioned Surveys"
      emptyMessage="No versioned surveys yet."
      filters={[sponsorFilter(sponsors), activeFilter()]}
      columnsKey="surveys-new"
      // An approved version stays: the server refuses its deletion, and says why for that row.
      bulk={activateAndDeleteBulk<SurveyVersion>(api, ['survey version', 'survey versions'], (f) => `${f.title} (v${f.version})`)}
    />
  );
}
