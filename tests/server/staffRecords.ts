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

/**
 * What a test of sponsor scope writes in: an engagement of a sponsor with a User of that sponsor
 * only, signed in as `username`, and an engagement of another sponsor that User may not reach.
 * The records are named after `name` (`${name} Sponsor`, `${name} study`, `Other ${name} study`)
 * and identified after `code`.
 */
export async function scopedEngagements(h: Harness, token: string, { name, code, username }: { name: string; code: string; username: string }) {
  const sponsorId = await postSponsor(h, token, `${name} Sponsor`, code);
  const otherSponsorId = await postSponsor(h, token, `Other ${name} Sponsor`, `O${code}`);
  return {
    sponsorId,
    engagementId: await postEngagement(h, token, sponsorId, `${name} study`, `${code}1`),
    otherEngagementId: await postEngagement(h, token, otherSponsorId, `Other ${name} study`, `O${code}1`),
    userToken: await sponsorUserToken(h, username, sponsorId),
  };
}
