/**
 * A media channel to test a page the product serves for it: a sponsor (Acme), its screener
 * (Heart) and a channel of `attributes` on that screener, each made through the API as `token`.
 */
import { doc, json, type Harness } from '../harness';

export async function channelOnScreener(h: Harness, token: string, attributes: Record<string, unknown>): Promise<{ screenerId: number; channelId: number }> {
  const post = async (path: string, type: string, body: Record<string, unknown>) =>
    Number((await json(await h.request('POST', path, { token, body: doc(type, body) }))).data.id);
  const sponsorId = await post('/api/sponsors', 'sponsors', { name: 'Acme', identification: 'ACME' });
  const screenerId = await post('/api/screeners', 'screeners', { title: 'Heart', sponsorId });
  const channelId = await post('/api/media-channels', 'media-channels', { ...attributes, screenerId });
  return { screenerId, channelId };
}
