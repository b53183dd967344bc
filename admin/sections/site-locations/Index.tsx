import { siteLocationsApi } from '@core/api/siteLocations';
import type { SiteLocation } from '@core/model/siteLocation';
import type { Column } from '../../components/list/DataTable';
import { actionsColumn, activeColumn, fieldColumn, linkColumn } from '../../components/list/columns';
import { ListView } from '../../components/list/ListView';
import { activateAndDeleteBulk } from '../../components/list/bulk';
import { activeFilter, selectFilter } from '../../components/list/filters';
import { useCountryOptions } from '../../hooks/useCountryOptions';
import { useIndexList } from '../../components/list/useIndexList';
import { pathTo } from '../../routing/routes';
import { useApi } from '../../state/services';
import { SITE_LOCATION_LABELS as L } from './siteLocationValues';
import { SITE_LOCATION_LIST } from './listCalls';

export default function SiteLocationsIndex() {
  const api = useApi(siteLocationsApi);
  const countries = useCountryOptions();
  const { list, remove } = useIndexList(api, {
    ...SITE_LOCATION_LIST,
    what: 'Site location',
    add: pathTo('SiteLocationsAdd'),
    searchPlaceholder: 'Name, site id, city, state, zip, PI',
  });

  const columns: Column<SiteLocation>[] = [
    linkColumn('name', L.name, (s) => pathTo('SiteLocationsView', { id: s.id })),
    fieldColumn('siteId', L.siteId),
    fieldColumn('city', L.city),
    fieldColumn('state', L.state),
    fieldColumn('zipCode', L.zipCode),
    fieldColumn('piName', L.piName),
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
      filters={[activeFilter(), selectFilter('countryId', L.countryId, countries), { kind: 'text', name: 'state', label: L.state }]}
      columnsKey="site-locations"
      bulk={activateAndDeleteBulk<SiteLocation>(api, ['site location', 'site locations'], (s) => s.name)}
    />
  );
}
