import { useParams } from 'react-router-dom';
import { usersApi } from '@core/api/users';
import { useAsync } from '../../hooks/useAsync';
import { useApi } from '../../state/services';

/** The user named by the route's :id. */
export function useUser() {
  const { id = '' } = useParams();
  const api = useApi(usersApi);
  return useAsync(() => api.get(id), [api, id]);
}
