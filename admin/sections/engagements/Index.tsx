import { Link } from 'react-router-dom';
import { engagementsApi } from '../../../core/api/engagements';
import { ENGAGEMENT_DEFAULT_SORT, ENGAGEMENT_SORTS, type Engagement } from '../../../core/model/engagement';
import type { Column } from '../../components/list/DataTable';
import { ListView } from '../../components/list/ListView';
import { RowActions } from '../../components/list/RowActions';
import { useResourceList } from '../../components/list/useResourceList';
import { StatusBadge } from '../../components/StatusBadge';
import { useDeleteWithConfirm } from '../../components/useDeleteWithConfirm';
import { displayValue } from '../../components/ViewFields';
import { pathTo } from '../../router';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { ENGAGEMENT_LABELS as L, formatDay } from './engagementValues';

export function engagementColumns(remove: (id: string) => Promise<boolean>, reload: () => void, withSponsor = true): Column<Engagement>[] {
  return [
    {
      id: 'name',
      header: L.name,
      sortField: 'name',
      cell: (e) => <Link to={pathTo('EngagementsView', { engagementId: e.id })}>{e.name}</Link>,
    },
    { id: 'identification', header: L.identification, sortField: 'identification', cell: (e) => e.fullIdentification },
    ...(withSponsor
      ? [{ id: 'sponsor', header: L.sponsorName, sortField: 'sponsorName', cell: (e: Engagement) => e.sponsorName } satisfies Column<Engagement>]
      : []),
    { id: 'phase', header: L.phase, sortField: 'phase', cell: (e) => displayValue(e.phase) },
    { id: 'startDate', header: L.startDate, sortField: 'startDate', cell: (e) => displayValue(formatDay(e.startDate)) },
    { id: 'endDate', header: L.endDate, sortField: 'endDate', cell: (e) => displayValue(formatDay(e.endDate)) },
    { id: 'active', header: L.isActive, sortField: 'isActive', cell: (e) => <StatusBadge active={e.isActive} /> },
    {
      id: 'actions',
      header: 'Actions',
      className: 'col-actions',
      cell: (e) => (
        <RowActions
          view={pathTo('EngagementsView', { engagementId: e.id })}
          edit={pathTo('EngagementsEdit', { engagementId: e.id })}
          onDelete={async () => {
            if (await remove(e.id)) reload();
          }}
        />
      ),
    },
  ];
}

export default function EngagementsIndex() {
  const api = useApi(engagementsApi);
  const list = useResourceList({ load: api.list, defaultSort: ENGAGEMENT_DEFAULT_SORT, sortable: ENGAGEMENT_SORTS });
  const remove = useDeleteWithConfirm(api.remove, 'Engagement');
  useTopBar({ buttons: [{ label: 'Add', to: pathTo('EngagementsAdd') }], search: list.search });
  return <ListView list={list} columns={engagementColumns(remove, list.reload)} caption="Engagements" emptyMessage="No engagements yet." />;
}
