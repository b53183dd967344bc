import { useParams } from 'react-router-dom';
import { engagementsApi } from '@core/api/engagements';
import { useAsync } from '../../hooks/useAsync';
import { useApi } from '../../state/services';

/** The engagement named by the route's :engagementId. */
export function useEngagement() {
  const { engagementId = '' } = useParams();
  const api = useApi(engagementsApi);
  return useAsync(() => api.get(engagementId), [api, engagementId]);
}
