import { useParams } from 'react-router-dom';
import { screenersApi } from '@core/api/screeners';
import { useAsync } from '../../hooks/useAsync';
import { useApi } from '../../state/services';

/** The screener named by the route's :screenerId. */
export function useScreener() {
  const { screenerId = '' } = useParams();
  const api = useApi(screenersApi);
  return useAsync(() => api.get(screenerId), [api, screenerId]);
}
