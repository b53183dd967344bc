/** Tying Site Coordinators to site locations: Admin and Super User only, the role required, and untying. */
import { describe, expect, it } from 'vitest';
import { siteLocations } from '../../../server/db/schema';
import { doc, json, useAdminHarness, type Harness } from '../harness';

let h: Harness;
let admin: string;
useAdminHarness((server) => ({ h, admin } = server));

describe('site coordinators', () => {
  it('ties a Site Coordinator to a site, lists and unties them; refuses a user without the role, an unknown site and a User', async () => {
    const [site] = await h.db.insert(siteLocations).values({ name: 'Coordinated site' }).returning({ id: siteLocations.id });
    const coordinator = await h.createUser({ username: 'tied-coordinator', roles: ['Site Coordinator'] });
    const plain = await h.createUser({ username: 'not-a-coordinator', roles: ['User'] });
    const tie = (attributes: Record<string, unknown>, token = admin) =>
      h.request('POST', '/api/site-coordinators', { token, body: doc('site-coordinators', attributes) });
    const pointer = async (res: Response) => (await json(res)).errors[0].source.pointer;

    const user = await h.token('not-a-coordinator', 'a-good-password');
    expect((await tie({ userId: coordinator, siteLocationId: site!.id }, user)).status).toBe(403);
    const refusedUser = await tie({ userId: plain, siteLocationId: site!.id });
    expect(refusedUser.status).toBe(422);
    expect(await pointer(refusedUser)).toBe('/data/attributes/userId');
    const refusedSite = await tie({ userId: coordinator, siteLocationId: 999999 });
    expect(refusedSite.status).toBe(422);
    expect(await pointer(refusedSite)).toBe('/data/attributes/siteLocationId');
    expect((await tie({ userId: coordinator, siteLocationId: 'x' })).status).toBe(422);

    const tied = await tie({ userId: coordinator, siteLocationId: site!.id });
    expect(tied.status).toBe(201);
    // Answered as the list shows a coordinator: named, with their address and state.
    expect((await json(tied)).data.attributes).toMatchObject({ userId: coordinator, username: 'tied-coordinator', isActive: true, siteLocationId: site!.id });
    expect((await tie({ userId: coordinator, siteLocationId: site!.id })).status).toBe(201);
    const listed = await json(await h.request('GET', `/api/site-coordinators?siteLocationId=${site!.id}`, { token: admin }));
    expect(listed.data.map((r: { id: string; attributes: { username: string } }) => [r.id, r.attributes.username])).toEqual([
      [`${site!.id}-${coordinator}`, 'tied-coordinator'],
    ]);
    expect((await h.request('GET', '/api/site-coordinators', { token: admin })).status).toBe(400);

    expect((await h.request('DELETE', `/api/site-coordinators/${site!.id}-${coordinator}`, { token: admin })).status).toBe(204);
    expect((await h.request('DELETE', `/api/site-coordinators/${site!.id}-${coordinator}`, { token: admin })).status).toBe(404);
    expect((await json(await h.request('GET', `/api/site-coordinators?siteLocationId=${site!.id}`, { token: admin }))).data).toEqual([]);
  });
});
