/** The sponsors, engagements and sponsor Users a server test makes for itself. */
import { doc, json, type Harness } from './harness';

/** A sponsor made through the API as `token`; answers its id. */
export async function postSponsor(h: Harness, token: string, name: string, identification: string): Promise<string> {
  const res = await h.request('POST', '/api/sponsors', { token, body: doc('sponsors', { name, identification }) });
  return (await json(res)).data.id as string;
}

/** An engagement of the sponsor `sponsorId` made through the API as `token`; answers its id. */
export async function postEngagement(h: Harness, token: string, sponsorId: string, name: string, identification: string): Promise<string> {
  const res = await h.request('POST', '/api/engagements', { token, body: doc('engagements', { sponsorId: Number(sponsorId), name, identification }) });
  return (await json(res)).data.id as string;
}

/** A User of the sponsor `sponsorId` only, named `username`, signed in: answers the token. */
export async function sponsorUserToken(h: Harness, username: string, sponsorId: string): Promise<string> {
  await h.createUser({ username, roles: ['User'], sponsorIds: [Number(sponsorId)] });
  return h.token(username, 'a-good-password');
}
