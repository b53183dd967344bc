import { CHANNEL_SPEND_TYPE, type ChannelSpend, type ChannelSpendInput } from '../model/channelSpend';
import type { ApiClient } from './client';

/** What media channels cost (GET/POST/DELETE /api/channel-spends), for the funnel's cost per outcome. */
export const channelSpendsApi = (client: ApiClient) => ({
  ofChannel: (mediaChannelId: string) => client.list<ChannelSpend>('channel-spends', { mediaChannelId, limit: 100 }),
  create: (attributes: ChannelSpendInput) => client.create<ChannelSpend>('channel-spends', CHANNEL_SPEND_TYPE, attributes),
  remove: (id: string) => client.remove(`channel-spends/${encodeURIComponent(id)}`),
});
