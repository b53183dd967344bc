/** RmsProvidersIndex (Super User): the record systems referrals go to, under System Configuration. */
import { rmsProvidersApi } from '@core/api/rmsProviders';
import { RMS_PROVIDER_KIND_LABELS, type RmsProvider } from '@core/model/rmsProvider';
import type { Column } from '../../components/list/DataTable';
import { actionsColumn, activeColumn, linkColumn } from '../../components/list/columns';
import { ListView } from '../../components/list/ListView';
import { useResourceList } from '../../components/list/useResourceList';
import { useDeleteWithConfirm } from '../../components/useDeleteWithConfirm';
import { pathTo } from '../../routing/routes';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { PROVIDER_LABELS as L } from './providerValues';
import { RMS_PROVIDER_LIST } from './listCalls';

export default function RmsProvidersIndex() {
  const api = useApi(rmsProvidersApi);
  const list = useResourceList({ load: api.list, ...RMS_PROVIDER_LIST });
  const remove = useDeleteWithConfirm(api.remove, 'Record system');

  useTopBar({ buttons: [{ label: 'Add', to: pathTo('RmsProvidersAdd') }], search: list.search });

  const columns: Column<RmsProvider>[] = [
    linkColumn('name', L.name, (p) => pathTo('RmsProvidersEdit', { id: p.id })),
    { id: 'kind', header: L.kind, sortField: 'kind', cell: (p) => RMS_PROVIDER_KIND_LABELS[p.kind] },
    { id: 'endpoint', header: L.endpoint, cell: (p) => p.endpoint ?? '' },
    { id: 'secret', header: 'Secret', cell: (p) => (p.kind === 'none' ? '' : p.hasSecret ? 'Set' : 'Not set') },
    { id: 'engagements', header: 'Engagements', cell: (p) => p.engagementCount ?? 0 },
    activeColumn(L.isActive),
    actionsColumn({ edit: (p) => pathTo('RmsProvidersEdit', { id: p.id }), remove: { confirmAndDelete: remove, reload: list.reload } }),
  ];

  return <ListView list={list} columns={columns} caption="Record Systems" emptyMessage="No record systems yet." />;
}
