import { rmsProvidersApi } from '@core/api/rmsProviders';
import { useRouteRecord } from '../../hooks/useRouteRecord';

/** The record system named by the route's :id. */
export const useProvider = () => useRouteRecord(rmsProvidersApi, (api, id) => api.get(id));
