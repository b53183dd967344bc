import { useParams } from 'react-router-dom';
import { rmsProvidersApi } from '@core/api/rmsProviders';
import { useAsync } from '../../hooks/useAsync';
import { useApi } from '../../state/services';

export function useProvider() {
  const { id = '' } = useParams();
  const api = useApi(rmsProvidersApi);
  return useAsync(() => api.get(id), [api, id]);
}
