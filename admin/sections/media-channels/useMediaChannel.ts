import { useParams } from 'react-router-dom';
import { mediaChannelsApi } from '@core/api/mediaChannels';
import { useAsync } from '../../hooks/useAsync';
import { useApi } from '../../state/services';

/** The media channel named by the route's :id. */
export function useMediaChannel() {
  const { id = '' } = useParams();
  const api = useApi(mediaChannelsApi);
  return useAsync(() => api.get(id), [api, id]);
}
