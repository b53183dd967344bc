/**
 * Site caps on the real server and database, at the server's clock: an engagement site at its
 * weekly cap gives way to the next nearest site with room and is offered again when the week
 * turns (Monday 00:00 UTC); a total cap and a manual pause hold until staff change them; with
 * every site within reach full the participant reaches noTrialSites. The site link's view shows
 * fill against cap.
 */
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { doc, json, type Harness } from '../harness';
import { useParticipantServer } from '../participantServer';
import { leaveContact, runQualified, TOKEN_HEADER, type ParticipantFixture } from '../../support/participantFixture';
import { engagementSiteLocations, engagements, siteLocations } from '../../../server/db/schema';
import { hasRoom, weekStart } from '../../../server/sites';

let h: Harness;
let f: ParticipantFixture;
let hoboken: number;
const VALUES = { first_name: 'Cato', email: 'cato.caps@example.org', phone: '917-555-0177' };

useParticipantServer(
  async (server) => {
    ({ h, f } = server);
    await h.db.update(engagements).set({ isActive: false }).where(eq(engagements.id, f.engagementIds[1]));
    const [site] = await h.db
      .insert(siteLocations)
      .values({ name: 'Hoboken site', city: 'Hoboken', state: 'NJ', zipCode: '07030', latitude: 40.744, longitude: -74.0324 })
      .returning();
    const [link] = await h.db.insert(engagementSiteLocations).values({ engagementId: f.engagementIds[0], siteLocationId: site!.id }).returning();
    hoboken = link!.id;
  },
  // Wednesday.
  { at: '2031-03-05T10:00:00.000Z' },
);

const manhattan = () => f.engagementSiteLocationId;
const patchLink = async (id: number, attributes: Record<string, unknown>) =>
  h.request('PATCH', `/api/engagements-site-locations/${id}`, { token: await h.token(), body: doc('engagements-site-locations', attributes, String(id)) });
const linkView = async (id: number) =>
  (await json(await h.request('GET', `/api/engagements-site-locations/${id}`, { token: await h.token() }))).data.attributes;

/** A qualified run near Manhattan and the sites it is offered (link ids, nearest first). */
async function offered() {
  const run = await runQualified(h, f);
  const res = await h.request('GET', `/api/o-forms/o-form-submission-sites/${run.submissionId}?zip=10001`, { headers: { [TOKEN_HEADER]: run.token } });
  expect(res.status).toBe(200);
  const body = await json(res);
  return { run, ids: body.data.map((d: { id: string }) => Number(d.id)), outcome: body.meta.outcome as string };
}

async function referTo(linkId: number, run: { submissionId: string; token: string }) {
  return leaveContact(h, { engagementSiteLocationId: linkId }, run, VALUES);
}

describe('the cap rule', () => {
  it('counts the week from Monday 00:00 UTC', () => {
    expect(weekStart(new Date('2031-03-05T10:00:00Z')).toISOString()).toBe('2031-03-03T00:00:00.000Z');
    expect(weekStart(new Date('2031-03-09T23:59:59Z')).toISOString()).toBe('2031-03-03T00:00:00.000Z');
    expect(weekStart(new Date('2031-03-10T00:00:00Z')).toISOString()).toBe('2031-03-10T00:00:00.000Z');
    expect(hasRoom({ weeklyCap: 2, totalCap: null, isPaused: false }, { week: 1, total: 9 })).toBe(true);
    expect(hasRoom({ weeklyCap: 2, totalCap: 10, isPaused: false }, { week: 1, total: 10 })).toBe(false);
    expect(hasRoom({ weeklyCap: null, totalCap: null, isPaused: true }, { week: 0, total: 0 })).toBe(false);
  });
});

describe('a weekly cap', () => {
  it('skips a full site for the next nearest with room, and offers it again next week', async () => {
    const first = await offered();
    expect(first.ids).toEqual([manhattan(), hoboken]);
    expect((await patchLink(manhattan(), { weeklyCap: 1 })).status).toBe(200);
    expect((await referTo(manhattan(), first.run)).status).toBe(201);

    h.clock.set('2031-03-08T18:00:00.000Z');
    const full = await offered();
    expect(full.ids).toEqual([hoboken]);
    expect(full.outcome).toBe('qualified');
    expect(await linkView(manhattan())).toMatchObject({
      weeklyCap: 1,
      totalCap: null,
      isPaused: false,
      referralsThisWeek: 1,
      referralsTotal: 1,
      fullReason: 'weekly cap reached',
    });
    // A full site is no longer a choice, even when sent.
    const refused = await referTo(manhattan(), full.run);
    expect(refused.status).toBe(422);
    expect((await json(refused)).errors[0].source.pointer).toBe('/data/attributes/engagementSiteLocationId');

    h.clock.set('2031-03-10T00:00:00.000Z');
    expect((await offered()).ids).toEqual([manhattan(), hoboken]);
    expect(await linkView(manhattan())).toMatchObject({ referralsThisWeek: 0, referralsTotal: 1, fullReason: null });
  });
});

describe('every site full', () => {
  it('reaches noTrialSites, with its lead form', async () => {
    expect((await patchLink(manhattan(), { totalCap: 1 })).status).toBe(200);
    expect((await patchLink(hoboken, { isPaused: true })).status).toBe(200);
    expect(await linkView(manhattan())).toMatchObject({ totalCap: 1, referralsTotal: 1, fullReason: 'total cap reached' });
    expect(await linkView(hoboken)).toMatchObject({ isPaused: true, fullReason: 'paused' });
    const none = await offered();
    expect(none.ids).toEqual([]);
    expect(none.outcome).toBe('noTrialSites');
    const lead = await h.request('GET', `/api/o-forms/o-form-submission-lead-fields/${none.run.submissionId}?zip=10001`, {
      headers: { [TOKEN_HEADER]: none.run.token },
    });
    expect(lead.status).toBe(200);
    expect((await json(lead)).meta.outcome).toBe('noTrialSites');

    expect((await patchLink(hoboken, { isPaused: false })).status).toBe(200);
    expect((await offered()).ids).toEqual([hoboken]);
  });

  it('refuses a cap that is not a whole number from 0, writing nothing', async () => {
    const res = await patchLink(hoboken, { weeklyCap: -1 });
    expect(res.status).toBe(422);
    expect((await json(res)).errors[0].source.pointer).toBe('/data/attributes/weeklyCap');
    const [row] = await h.db.select().from(engagementSiteLocations).where(eq(engagementSiteLocations.id, hoboken));
    expect(row?.weeklyCap).toBeNull();
  });
});
