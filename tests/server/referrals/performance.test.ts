/**
 * Site performance on a real server and database: per site, referrals, median hours to first
 * contact, the share reached within the service level at an injected instant, screen-fail and
 * randomization rates over a date range; within the caller's scope; bad filters refused.
 */
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { referralReasons, sponsors, userSiteLocations } from '../../../server/db/schema';
import { doc, json, useAdminHarness, type Harness } from '../harness';
import { clockFrom, HOUR } from '../clockFrom';
import { engagementAtSites, referralsMade } from '../referralRecords';
import { expectParametersRefused } from '../listQueries';

let h: Harness;
let admin: string;
useAdminHarness((server) => ({ h, admin } = server));

const MADE = '2031-04-01T09:00:00.000Z';
const { adminAt } = clockFrom(() => h, MADE);

/** A sponsor's engagement with two sites; `perSite` referrals made at MADE at each. */
async function world(perSite: [number, number]) {
  const made = await engagementAtSites(h, 'Perf', 'PERF', ['Perf Alpha', 'Perf Beta']);
  const ids: number[][] = [];
  for (const side of [0, 1]) {
    const link = { engagementId: made.engagementId, linkId: made.linkIds[side]! };
    ids.push(await referralsMade(h, link, perSite[side]!, MADE, { first_name: 'Ada', last_name: 'Lee' }));
  }
  return { sponsorId: made.sponsorId, engagementId: made.engagementId, siteIds: made.siteIds, ids };
}

const move = async (id: number, attributes: Record<string, unknown>) => {
  const res = await h.request('PATCH', `/api/referrals/${id}`, { token: admin, body: doc('referrals', attributes, String(id)) });
  expect(res.status, await res.clone().text()).toBe(200);
};
const reasonOf = async (status: string) => (await h.db.select().from(referralReasons).where(eq(referralReasons.status, status)).limit(1))[0]!.id;
const performance = async (query: string, token = admin) => {
  const res = await h.request('GET', `/api/site-performance?${query}`, { token });
  expect(res.status, await res.clone().text()).toBe(200);
  return json(res);
};

describe('GET /api/site-performance', () => {
  it('measures each site over a date range at the instant it is asked, within the caller’s scope', async () => {
    const w = await world([3, 1]);
    const [r1, r2] = w.ids[0]!;
    admin = await adminAt(2 * HOUR);
    await move(r1!, { status: 'contacted' });
    await move(r1!, { status: 'in-screening' });
    await move(r1!, { status: 'screen-failed', reasonId: await reasonOf('screen-failed') });
    admin = await adminAt(60 * HOUR);
    const call = await h.request('POST', `/api/referrals/${r2}/contact-attempts`, {
      token: admin,
      body: doc('contact-attempts', { channel: 'phone', result: 'reached' }),
    });
    expect(call.status).toBe(201);
    await move(r2!, { status: 'in-screening' });
    await move(r2!, { status: 'eligible' });
    await move(r2!, { status: 'enrolled' });

    // At 30 hours nobody's window had closed; at 100 hours all four have.
    admin = await adminAt(100 * HOUR);
    const body = await performance(`engagementId=${w.engagementId}&from=2031-04-01&to=2031-04-01`);
    expect(body.meta.total).toBe(2);
    expect(body.data.map((r: { id: string; attributes: Record<string, unknown> }) => ({ id: r.id, ...r.attributes }))).toEqual([
      {
        id: String(w.siteIds[0]),
        siteName: 'Perf Alpha',
        referrals: 3,
        reached: 2,
        medianHoursToFirstContact: 31,
        dueForFirstContact: 3,
        withinServiceLevel: 1,
        withinServiceLevelRate: 1 / 3,
        screened: 2,
        screenFailed: 1,
        screenFailRate: 0.5,
        randomized: 1,
        randomizationRate: 1 / 3,
      },
      {
        id: String(w.siteIds[1]),
        siteName: 'Perf Beta',
        referrals: 1,
        reached: 0,
        medianHoursToFirstContact: null,
        dueForFirstContact: 1,
        withinServiceLevel: 0,
        withinServiceLevelRate: 0,
        screened: 0,
        screenFailed: 0,
        screenFailRate: null,
        randomized: 0,
        randomizationRate: 0,
      },
    ]);
    // Sorted by a measure; a range without referrals is empty.
    const sorted = await performance(`engagementId=${w.engagementId}&sort=-referrals`);
    expect(sorted.data.map((r: { attributes: { siteName: string } }) => r.attributes.siteName)).toEqual(['Perf Alpha', 'Perf Beta']);
    expect((await performance(`engagementId=${w.engagementId}&from=2031-04-02`)).data).toEqual([]);
    // Before any window closed, none is due: the share is unknown, not 0.
    admin = await adminAt(30 * HOUR);
    const early = await performance(`siteLocationId=${w.siteIds[1]}`);
    expect(early.data[0].attributes).toMatchObject({ dueForFirstContact: 0, withinServiceLevelRate: null });

    // A coordinator of site Beta sees Beta only; a User of another sponsor sees nothing.
    admin = await adminAt(100 * HOUR);
    const coordinatorId = await h.createUser({ username: 'perf-coordinator', password: 'perf-coordinator', roles: ['Site Coordinator'] });
    await h.db.insert(userSiteLocations).values({ userId: coordinatorId, siteLocationId: w.siteIds[1]! });
    const coordinator = await h.token('perf-coordinator', 'perf-coordinator');
    expect((await performance('', coordinator)).data.map((r: { id: string }) => r.id)).toEqual([String(w.siteIds[1])]);
    expect((await performance(`siteLocationId=${w.siteIds[0]}`, coordinator)).data).toEqual([]);
    const [other] = await h.db.insert(sponsors).values({ name: 'Perf other', identification: 'PERF-O' }).returning({ id: sponsors.id });
    await h.createUser({ username: 'perf-other', password: 'perf-other', roles: ['User'], sponsorIds: [other!.id] });
    expect((await performance('', await h.token('perf-other', 'perf-other'))).data).toEqual([]);
  });

  it('refuses bad filters and sorts with a 400 naming them', async () => {
    await expectParametersRefused(h, '/api/site-performance', admin, [
      ['from=yesterday', 'from'],
      ['to=2031-13-40', 'to'],
      ['engagementId=x', 'engagementId'],
      ['siteLocationId=-1', 'siteLocationId'],
      ['sort=participants', 'sort'],
      ['zip=10001', 'zip'],
    ]);
  });
});
