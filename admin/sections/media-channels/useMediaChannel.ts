import { mediaChannelsApi } from '@core/api/mediaChannels';
import { useRouteRecord } from '../../hooks/useRouteRecord';

/** The media channel named by the route's :id. */
export const useMediaChannel = () => useRouteRecord(mediaChannelsApi, (api, id) => api.get(id));
