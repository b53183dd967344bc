import { useParams } from 'react-router-dom';
import { siteLocationsApi } from '@core/api/siteLocations';
import { useAsync } from '../../hooks/useAsync';
import { useApi } from '../../state/services';

/** The site location named by the route's :id. */
export function useSiteLocation() {
  const { id = '' } = useParams();
  const api = useApi(siteLocationsApi);
  return useAsync(() => api.get(id), [api, id]);
}
