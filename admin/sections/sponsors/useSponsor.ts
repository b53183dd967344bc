import { useParams } from 'react-router-dom';
import { sponsorsApi } from '@core/api/sponsors';
import { useAsync } from '../../hooks/useAsync';
import { useApi } from '../../state/services';

/** The sponsor named by the route's :id. */
export function useSponsor() {
  const { id = '' } = useParams();
  const api = useApi(sponsorsApi);
  return useAsync(() => api.get(id), [api, id]);
}
