import { useParams } from 'react-router-dom';
import { languagesApi } from '@core/api/languages';
import { useAsync } from '../../hooks/useAsync';
import { useApi } from '../../state/services';

export function useLanguage() {
  const { id = '' } = useParams();
  const api = useApi(languagesApi);
  return useAsync(() => api.get(id), [api, id]);
}
