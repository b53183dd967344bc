import { screenersApi } from '@core/api/screeners';
import { useRouteRecord } from '../../hooks/useRouteRecord';

/** The screener named by the route's :screenerId. */
export const useScreener = () => useRouteRecord(screenersApi, (api, id) => api.get(id), 'screenerId');
