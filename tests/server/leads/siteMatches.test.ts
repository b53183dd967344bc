/**
 * A site that opens finds its leads, on the real server and database: a noTrialSites lead is
 * matched to a site linked 10 miles from its ZIP, not to one 80 miles away with a 50-mile
 * radius; a site re-activated, or one a site list's upload adds, is matched then; the matches are listed and exported through
 * GET /api/leads?engagementSiteLocationId=.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createHarness, json, type Harness } from '../harness';
import { createParticipantFixture, leaveLead, runQualified, type ParticipantFixture } from '../../support/participantFixture';
import { engagementSiteLocations, engagements, leads, leadSiteMatches, siteLocations } from '../../../server/db/schema';
import { milesNorthOf } from '../milesNorth';

let h: Harness;
let f: ParticipantFixture;
let admin: string;
let leadId: number;
const ZIP = '99501';

beforeAll(async () => {
  h = await createHarness();
  h.clock.set('2031-09-01T12:00:00Z');
  f = await createParticipantFixture(h.db);
  admin = await h.token();
  await h.db.update(engagements).set({ radius: 50 }).where(eq(engagements.id, f.engagementIds[0]));
  const run = await runQualified(h, f, { zip: ZIP });
  const res = await leaveLead(h, run, { values: { first_name: 'Ada', email: 'ada.north@example.org', phone: '907-555-0100' }, acceptTerms: true, zip: ZIP });
  expect(res.status, await res.clone().text()).toBe(201);
  leadId = (
    await h.db
      .select({ id: leads.id })
      .from(leads)
      .where(eq(leads.submissionId, Number(run.submissionId)))
  )[0]!.id;
});
afterAll(async () => {
  await h.close();
});

async function siteNorthOfLead(miles: number, isActive = true): Promise<number> {
  const [site] = await h.db
    .insert(siteLocations)
    .values({
      name: `North ${miles} mi`,
      city: 'Anchorage',
      state: 'AK',
      zipCode: ZIP,
      ...milesNorthOf(ZIP, miles),
      isActive,
    })
    .returning();
  return site!.id;
}

const link = async (siteLocationId: number): Promise<string> => {
  const res = await h.request('POST', '/api/engagements-site-locations', {
    token: admin,
    body: { data: { type: 'engagements-site-locations', attributes: { engagementId: f.engagementIds[0], siteLocationId } } },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await json(res)).data.id;
};

const matchedTo = async (linkId: string) =>
  (
    await h.db
      .select()
      .from(leadSiteMatches)
      .where(eq(leadSiteMatches.engagementSiteLocationId, Number(linkId)))
  ).map((m) => [m.leadId, m.distanceMiles]);

describe('a site that opens', () => {
  it('within the radius (10 miles of the ZIP, radius 50) is matched to the lead, listed and exported', async () => {
    const near = await link(await siteNorthOfLead(10));
    const matches = await matchedTo(near);
    expect(matches.map(([id]) => id)).toEqual([leadId]);
    expect(matches[0]![1]).toBeCloseTo(10, 0);
    const listed = await json(await h.request('GET', `/api/leads?engagementSiteLocationId=${near}`, { token: admin }));
    expect(listed.meta.total).toBe(1);
    expect(listed.data[0].id).toBe(String(leadId));
    const csv = await (
      await h.request('GET', `/api/leads?engagementSiteLocationId=${near}&fields[leads]=kind,zipCode`, { token: admin, headers: { Accept: 'text/csv' } })
    ).text();
    expect(csv.split(/\r?\n/).filter(Boolean)).toEqual(['id,kind,zipCode', `${leadId},noTrialSites,${ZIP}`]);
  });

  it('beyond the radius (80 miles, radius 50) is not', async () => {
    const far = await link(await siteNorthOfLead(80));
    expect(await matchedTo(far)).toEqual([]);
    expect((await json(await h.request('GET', `/api/leads?engagementSiteLocationId=${far}`, { token: admin }))).meta.total).toBe(0);
  });

  it('switched off when linked is matched once re-activated', async () => {
    const siteId = await siteNorthOfLead(20, false);
    const linkId = await link(siteId);
    expect(await matchedTo(linkId)).toEqual([]);
    const res = await h.request('PATCH', `/api/site-locations/${siteId}`, {
      token: admin,
      body: { data: { type: 'site-locations', id: String(siteId), attributes: { isActive: true } } },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await matchedTo(linkId)).map(([id]) => id)).toEqual([leadId]);
  });
});

describe('a site that opens by upload', () => {
  /** Uploads the engagement's site list: one site `miles` north of the lead's ZIP, by its coordinates. */
  const upload = async (siteId: string, miles: number) => {
    const at = milesNorthOf(ZIP, miles);
    const csv = `site_id,name,city,state,latitude,longitude\n${siteId},Uploaded ${miles} mi,Anchorage,AK,${at.latitude},${at.longitude}\n`;
    const form = new FormData();
    form.set('file', new Blob([csv], { type: 'text/csv' }), 'sites.csv');
    const res = await h.app.request(`/api/engagements-site-locations/upload/${f.engagementIds[0]}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${admin}` },
      body: form,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const [site] = await h.db.select({ id: siteLocations.id }).from(siteLocations).where(eq(siteLocations.siteId, siteId));
    const [linked] = await h.db
      .select({ id: engagementSiteLocations.id })
      .from(engagementSiteLocations)
      .where(eq(engagementSiteLocations.siteLocationId, site!.id));
    return String(linked!.id);
  };

  it('is matched to the lead within the radius (10 miles), not beyond it (80 miles)', async () => {
    const near = await matchedTo(await upload('UP-NEAR-10', 10));
    expect(near.map(([id]) => id)).toEqual([leadId]);
    expect(near[0]![1]).toBeCloseTo(10, 0);
    expect(await matchedTo(await upload('UP-FAR-80', 80))).toEqual([]);
  });
});

describe('leads within reach', () => {
  it("are listed for an engagement (withinReach) and a site location (siteLocationId); a Site Coordinator sees only their sites' leads", async () => {
    const siteId = await siteNorthOfLead(5);
    await link(siteId);
    const total = async (query: string, token = admin) => {
      const res = await h.request('GET', `/api/leads?${query}`, { token });
      expect(res.status, await res.clone().text()).toBe(200);
      return (await json(res)).meta.total as number;
    };
    expect(await total(`engagementId=${f.engagementIds[0]}&withinReach=true`)).toBe(1);
    expect(await total(`engagementId=${f.engagementIds[0]}&withinReach=false`)).toBe(0);
    expect(await total(`siteLocationId=${siteId}`)).toBe(1);
    expect((await h.request('GET', '/api/leads?withinReach=maybe', { token: admin })).status).toBe(400);

    // A Site Coordinator of that site sees the lead; one of a site it is not matched to, nothing.
    const [elsewhere] = await h.db.insert(siteLocations).values({ name: 'Far away site' }).returning({ id: siteLocations.id });
    const tie = async (username: string, siteLocationId: number) => {
      const userId = await h.createUser({ username, roles: ['Site Coordinator'] });
      const res = await h.request('POST', '/api/site-coordinators', {
        token: admin,
        body: { data: { type: 'site-coordinators', attributes: { userId, siteLocationId } } },
      });
      expect(res.status, await res.clone().text()).toBe(201);
      return h.token(username, 'a-good-password');
    };
    const near = await tie('lead-coordinator-near', siteId);
    const far = await tie('lead-coordinator-far', elsewhere!.id);
    expect(await total('', near)).toBe(1);
    expect(await total('', far)).toBe(0);
    expect((await h.request('GET', `/api/leads/${leadId}`, { token: far })).status).toBe(404);
  });
});
