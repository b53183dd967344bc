import { engagementsApi } from '@core/api/engagements';
import { lookupsApi } from '@core/api/lookups';
import { ENGAGEMENT_PHASES, type Engagement } from '@core/model/engagement';
import { LOOKUP_TYPES } from '@core/model/lookup';
import type { Column } from '../../components/list/DataTable';
import { actionsColumn, activeColumn, fieldColumn, linkColumn } from '../../components/list/columns';
import { ListView } from '../../components/list/ListView';
import { activateAndDeleteBulk, type BulkOptions } from '../../components/list/bulk';
import { activeFilter, sponsorFilter, type ListFilterField, selectFilter } from '../../components/list/filters';
import { useOptions } from '../../hooks/useOptions';
import { useSponsorOptions } from '../../hooks/useSponsorOptions';
import { displayValue } from '../../components/ViewFields';
import { useIndexList } from '../../components/list/useIndexList';
import { pathTo } from '../../routing/routes';
import { useApi } from '../../state/services';
import { ENGAGEMENT_LABELS as L, formatDay } from './engagementValues';
import { ENGAGEMENT_LIST } from './listCalls';

export function engagementColumns(remove: (id: string) => Promise<boolean>, reload: () => void, withSponsor = true): Column<Engagement>[] {
  return [
    linkColumn('name', L.name, (e) => pathTo('EngagementsView', { engagementId: e.id })),
    { id: 'identification', header: L.identification, sortField: 'identification', exportFields: ['fullIdentification'], cell: (e) => e.fullIdentification },
    ...(withSponsor
      ? [{ id: 'sponsor', header: L.sponsorName, sortField: 'sponsorName', cell: (e: Engagement) => e.sponsorName } satisfies Column<Engagement>]
      : []),
    fieldColumn('phase', L.phase),
    { id: 'startDate', header: L.startDate, sortField: 'startDate', cell: (e) => displayValue(formatDay(e.startDate)) },
    { id: 'endDate', header: L.endDate, sortField: 'endDate', cell: (e) => displayValue(formatDay(e.endDate)) },
    activeColumn(L.isActive),
    actionsColumn({
      view: (e) => pathTo('EngagementsView', { engagementId: e.id }),
      edit: (e) => pathTo('EngagementsEdit', { engagementId: e.id }),
      remove: { confirmAndDelete: remove, reload },
    }),
  ];
}

/** Activate, Deactivate and Delete for selected engagements. */
export const engagementBulk = (api: ReturnType<typeof engagementsApi>): BulkOptions<Engagement> =>
  activateAndDeleteBulk<Engagement>(api, ['engagement', 'engagements'], (e) => e.name);

export default function EngagementsIndex() {
  const api = useApi(engagementsApi);
  const lookups = useApi(lookupsApi);
  const sponsors = useSponsorOptions();
  const areas = useOptions(
    async () => (await lookups.all(LOOKUP_TYPES.therapeuticAreas)).map((a) => ({ value: String(a.id), label: a.name })),
    [lookups],
    'Could not load the therapeutic areas.',
  );
  const { list, remove } = useIndexList(api, {
    ...ENGAGEMENT_LIST,
    what: 'Engagement',
    add: pathTo('EngagementsAdd'),
  });
  const filters: ListFilterField[] = [
    sponsorFilter(sponsors),
    activeFilter(),
    { kind: 'select', name: 'phase', label: L.phase, options: ENGAGEMENT_PHASES.map((p) => ({ value: p, label: p })) },
    selectFilter('therapeuticAreaId', 'Therapeutic Area', areas),
    { kind: 'date', name: 'startDateFrom', label: 'Starts on or after' },
    { kind: 'date', name: 'endDateTo', label: 'Ends on or before' },
  ];
  return (
    <ListView
      list={list}
      columns={engagementColumns(remove, list.reload)}
      caption="Engagements"
      emptyMessage="No engagements yet."
      filters={filters}
      columnsKey="engagements"
      bulk={engagementBulk(api)}
    />
  );
}
