import { Link } from 'react-router-dom';
import { siteLocationsApi } from '@core/api/siteLocations';
import { SITE_LOCATION_DEFAULT_SORT, SITE_LOCATION_SORTS, type SiteLocation } from '@core/model/siteLocation';
import type { Column } from '../../components/list/DataTable';
import { ListView } from '../../components/list/ListView';
import { RowActions } from '../../components/list/RowActions';
import { activationActions, deleteAction } from '../../components/list/bulk';
import { activeFilter } from '../../components/list/filters';
import { useCountryOptions } from '../../hooks/useCountryOptions';
import { useResourceList } from '../../components/list/useResourceList';
import { StatusBadge } from '../../components/StatusBadge';
import { useDeleteWithConfirm } from '../../components/useDeleteWithConfirm';
import { displayValue } from '../../components/ViewFields';
import { pathTo } from '../../routing/routes';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { SITE_LOCATION_LABELS as L } from './siteLocationValues';

export default function SiteLocationsIndex() {
  const api = useApi(siteLocationsApi);
  const countries = useCountryOptions();
  const list = useResourceList({
    load: api.list,
    loadCsv: api.listCsv,
    defaultSort: SITE_LOCATION_DEFAULT_SORT,
    sortable: SITE_LOCATION_SORTS,
    filterNames: ['isActive', 'countryId', 'state'],
  });
  const remove = useDeleteWithConfirm(api.remove, 'Site location');

  useTopBar({ buttons: [{ label: 'Add', to: pathTo('SiteLocationsAdd') }], search: { ...list.search, placeholder: 'Name, site id, city, state, zip, PI' } });

  const columns: Column<SiteLocation>[] = [
    { id: 'name', header: L.name, sortField: 'name', cell: (s) => <Link to={pathTo('SiteLocationsView', { id: s.id })}>{s.name}</Link> },
    { id: 'siteId', header: L.siteId, sortField: 'siteId', cell: (s) => displayValue(s.siteId) },
    { id: 'city', header: L.city, sortField: 'city', cell: (s) => displayValue(s.city) },
    { id: 'state', header: L.state, sortField: 'state', cell: (s) => displayValue(s.state) },
    { id: 'zipCode', header: L.zipCode, sortField: 'zipCode', cell: (s) => displayValue(s.zipCode) },
    { id: 'piName', header: L.piName, sortField: 'piName', cell: (s) => displayValue(s.piName) },
    { id: 'active', header: L.isActive, sortField: 'isActive', cell: (s) => <StatusBadge active={s.isActive} /> },
    {
      id: 'actions',
      header: 'Actions',
      className: 'col-actions',
      hideable: false,
      cell: (s) => (
        <RowActions
          view={pathTo('SiteLocationsView', { id: s.id })}
          edit={pathTo('SiteLocationsEdit', { id: s.id })}
          onDelete={async () => {
            if (await remove(s.id)) list.reload();
          }}
        />
      ),
    },
  ];

  return (
    <ListView
      list={list}
      columns={columns}
      caption="Site Locations"
      emptyMessage="No site locations yet."
      filters={[
        activeFilter(),
        { kind: 'select', name: 'countryId', label: L.countryId, ...countries },
        { kind: 'text', name: 'state', label: L.state },
      ]}
      columnsKey="site-locations"
      bulk={{
        noun: ['site location', 'site locations'],
        label: (s) => s.name,
        actions: [...activationActions<SiteLocation>(api.update), deleteAction<SiteLocation>(api.remove)],
      }}
    />
  );
}
