import { siteLocationsApi } from '@core/api/siteLocations';
import { useRouteRecord } from '../../hooks/useRouteRecord';

/** The site location named by the route's :id. */
export const useSiteLocation = () => useRouteRecord(siteLocationsApi, (api, id) => api.get(id));
