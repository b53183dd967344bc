/** The Site Locations list's query and its country options, in one place: the screen reads them, and the route asks for them ahead (routing/ahead.ts). */
import { countriesApi } from '@core/api/countries';
import { siteLocationsApi } from '@core/api/siteLocations';
import { SITE_LOCATION_DEFAULT_SORT, SITE_LOCATION_SORTS } from '@core/model/siteLocation';
import { firstPageParams, type ListQueryOptions } from '../../components/list/useResourceList';
import { quietly, type Ahead } from '../../routing/ahead';

export const SITE_LOCATION_LIST: ListQueryOptions = {
  defaultSort: SITE_LOCATION_DEFAULT_SORT,
  sortable: SITE_LOCATION_SORTS,
  filterNames: ['isActive', 'countryId', 'state'],
};

export const siteLocationsAhead: Ahead = ({ client, search }) =>
  quietly(siteLocationsApi(client).list(firstPageParams(search, SITE_LOCATION_LIST)), countriesApi(client).all());
