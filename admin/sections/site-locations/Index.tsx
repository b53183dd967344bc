import { Link } from 'react-router-dom';
import { siteLocationsApi } from '@core/api/siteLocations';
import { SITE_LOCATION_DEFAULT_SORT, SITE_LOCATION_SORTS, type SiteLocation } from '@core/model/siteLocation';
import type { Column } from '../../components/list/DataTable';
import { actionsColumn, activeColumn } from '../../components/list/columns';
import { ListView } from '../../components/list/ListView';
import { activateAndDeleteBulk } from '../../components/list/bulk';
import { activeFilter } from '../../components/list/filters';
import { useCountryOptions } from '../../hooks/useCountryOptions';
import { useApiResourceList } from '../../components/list/useResourceList';
import { useDeleteWithConfirm } from '../../components/useDeleteWithConfirm';
import { displayValue } from '../../components/ViewFields';
import { pathTo } from '../../routing/routes';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { SITE_LOCATION_LABELS as L } from './siteLocationValues';

export default function SiteLocationsIndex() {
  const api = useApi(siteLocationsApi);
  const countries = useCountryOptions();
  const list = useApiResourceList(api, {
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
    activeColumn(L.isActive),
    actionsColumn({
      view: (s) => pathTo('SiteLocationsView', { id: s.id }),
      edit: (s) => pathTo('SiteLocationsEdit', { id: s.id }),
      remove: { confirmAndDelete: remove, reload: list.reload },
    }),
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
      bulk={activateAndDeleteBulk<SiteLocation>(api, ['site location', 'site locations'], (s) => s.name)}
    />
  );
}
