import { oformsApi } from '@core/api/oforms';
import { useRouteRecord } from '../../hooks/useRouteRecord';

/** The version of the route's :id with its pages and questions. */
export const useOFormDetail = () => useRouteRecord(oformsApi, (api, id) => api.detail(id));
