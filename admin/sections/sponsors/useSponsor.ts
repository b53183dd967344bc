import { sponsorsApi } from '@core/api/sponsors';
import { useRouteRecord } from '../../hooks/useRouteRecord';

/** The sponsor named by the route's :id. */
export const useSponsor = () => useRouteRecord(sponsorsApi, (api, id) => api.get(id));
