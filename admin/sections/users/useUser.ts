import { usersApi } from '@core/api/users';
import { useRouteRecord } from '../../hooks/useRouteRecord';

/** The user named by the route's :id. */
export const useUser = () => useRouteRecord(usersApi, (api, id) => api.get(id));
