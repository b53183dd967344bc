import { useParams } from 'react-router-dom';
import { oformsApi } from '@core/api/oforms';
import { useAsync } from '../../hooks/useAsync';
import { useApi } from '../../state/services';

/** The version of the route's :id with its pages and questions. */
export function useOFormDetail() {
  const { id = '' } = useParams();
  const api = useApi(oformsApi);
  return useAsync(() => api.detail(id), [api, id]);
}
