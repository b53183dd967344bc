/**
 * Postal codes outside the US, on the real server and database: the run's channel's region (its
 * locale's) decides whose postal codes the survey's ZIP questions, the ZIP contact fields and a
 * lead's place take, by core's one rule per country; a Canadian postal code is placed by the site
 * search's own lookup, so a lead left with one keeps its distance, sealed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createHarness, json, type Harness } from '../harness';
import {
  answerPage,
  createParticipantFixture,
  leaveContact,
  leaveLead,
  type ParticipantFixture,
  startSubmission,
  TOKEN_HEADER,
} from '../../support/participantFixture';
import { leadOf } from '../participantServer';
import { contactFields, contactFieldScreeners, countries, engagementSiteLocations, mediaChannels, siteLocations } from '../../../server/db/schema';
import { message } from '@core/validation/messages';

let h: Harness;
let ca: ParticipantFixture;
let us: ParticipantFixture;

const VALUES = { first_name: 'Tess', email: 'tess.toronto@example.org', phone: '416-555-0142' };

beforeAll(async () => {
  h = await createHarness();
  h.clock.set('2031-03-10T09:30:00.000Z');
  ca = await createParticipantFixture(h.db);
  us = await createParticipantFixture(h.db);
  await h.db.update(mediaChannels).set({ locale: 'en-CA' }).where(eq(mediaChannels.id, ca.mediaChannelId));
  const [canada] = await h.db.select().from(countries).where(eq(countries.isoCode, 'CA'));
  // A Toronto site known by its town alone, besides the fixture's Manhattan one.
  const [toronto] = await h.db.insert(siteLocations).values({ name: 'Toronto site', city: 'Toronto', state: 'Ontario', countryId: canada!.id }).returning();
  await h.db.insert(engagementSiteLocations).values({ engagementId: ca.engagementIds[0], siteLocationId: toronto!.id, radius: 300 });
  // The screeners ask a ZIP contact field too.
  const [zipField] = await h.db.select().from(contactFields).where(eq(contactFields.name, 'zip_code'));
  await h.db.insert(contactFieldScreeners).values([ca, us].map((f) => ({ screenerId: f.screenerId, contactFieldId: zipField!.id, weight: 9 })));
});

afterAll(async () => {
  await h.close();
});

type Run = { submissionId: string; token: string };

/** A run up to the ZIP page; answers the page-3 entry to send its answers to. */
async function toZipPage(f: ParticipantFixture, qualifies = true) {
  const { submissionId, token, firstEntryId } = await startSubmission(h, f);
  const p1 = await answerPage(h, token, firstEntryId, { q_choice: qualifies ? 'yes' : 'no' });
  const p2 = await answerPage(h, token, p1.meta.nextContainerEntryId!, { q_dob: '1980-06-15', q_text: 'hello' });
  return { run: { submissionId, token } as Run, entryId: p2.meta.nextContainerEntryId! };
}

async function finished(f: ParticipantFixture, zip: string, qualifies = true): Promise<Run> {
  const { run, entryId } = await toZipPage(f, qualifies);
  const saved = await answerPage(h, run.token, entryId, { q_zip: zip, q_conditions: ['a'] });
  expect(saved.status).toBe(200);
  return run;
}

describe('a Canadian channel (en-CA)', () => {
  it("starts with the channel's region", async () => {
    const start = await json(await h.request('GET', `/api/o-forms/participant-start?mediaChannelId=${ca.mediaChannelId}`));
    expect(start.meta).toMatchObject({ runnable: true, region: 'CA' });
    const usStart = await json(await h.request('GET', `/api/o-forms/participant-start?mediaChannelId=${us.mediaChannelId}`));
    // The US is no region at all: the widget's default.
    expect(usStart.meta).toMatchObject({ runnable: true });
    expect(usStart.meta).not.toHaveProperty('region');
  });

  it("the survey's ZIP question refuses 12345 with a clear message, writing nothing, and takes M5V 3L9", async () => {
    const { run, entryId } = await toZipPage(ca);
    const refused = await answerPage(h, run.token, entryId, { q_zip: '12345', q_conditions: ['a'] });
    expect(refused.status).toBe(422);
    expect(refused.meta.errors).toEqual({ q_zip: 'Must be a valid postal code.' });
    const storedRes = await h.request('GET', `/api/o-forms/o-form-container-entries/${entryId}`, { headers: { [TOKEN_HEADER]: run.token } });
    expect(storedRes.status).toBe(200);
    expect((await json(storedRes)).meta.answers).toEqual({});
    const taken = await answerPage(h, run.token, entryId, { q_zip: 'M5V 3L9', q_conditions: ['a'] });
    expect(taken).toMatchObject({ status: 200, meta: { nextContainerIdentity: null } });
    // The site search in Canada with it: Toronto, in kilometres.
    const sites = await json(
      await h.request('POST', `/api/o-forms/o-form-submission-sites/${run.submissionId}`, {
        headers: { [TOKEN_HEADER]: run.token },
        body: { data: { attributes: { zip: 'M5V 3L9', country: 'CA' } } },
      }),
    );
    expect(sites.data[0].attributes).toMatchObject({ name: 'Toronto site', distanceUnit: 'km' });
  });

  it('in Spanish too', async () => {
    const { token: t, firstEntryId } = await startSubmission(h, ca, { language: 'es' });
    const p1 = await answerPage(h, t, firstEntryId, { q_choice: 'yes' });
    const p2 = await answerPage(h, t, p1.meta.nextContainerEntryId!, { q_dob: '1980-06-15', q_text: 'hola' });
    const refused = await answerPage(h, t, p2.meta.nextContainerEntryId!, { q_zip: '12345', q_conditions: ['a'] });
    expect(refused.meta.errors).toEqual({ q_zip: 'Debe ser un código postal válido.' });
  });

  it('the ZIP contact field takes a Canadian postal code and refuses a US ZIP code', async () => {
    const run = await finished(ca, 'M5V 3L9');
    const refused = await leaveContact(h, ca, run, { ...VALUES, zip_code: '10001' });
    expect(refused.status).toBe(422);
    expect((await json(refused)).errors).toEqual([
      expect.objectContaining({ detail: message('postal'), source: { pointer: '/data/attributes/values/zip_code' } }),
    ]);
    const taken = await leaveContact(h, ca, run, { ...VALUES, zip_code: 'M5V 3L9' });
    expect(taken.status, await taken.clone().text()).toBe(201);
  });

  it("a lead's postal code (notQualified) keeps its distance to the nearest site, sealed", async () => {
    const run = await finished(ca, 'M5V 3L9', false);
    const refused = await leaveLead(h, run, { values: VALUES, acceptTerms: true, zip: '12345', country: 'CA' });
    expect(refused.status).toBe(422);
    expect((await json(refused)).errors[0]).toMatchObject({ detail: message('postal'), source: { pointer: '/data/attributes/zip' } });
    expect(await leadOf(h, run)).toBeUndefined();
    const res = await leaveLead(h, run, { values: { ...VALUES, zip_code: 'M5V 3L9' }, acceptTerms: true, zip: 'M5V 3L9', country: 'CA' });
    expect(res.status, await res.clone().text()).toBe(201);
    const lead = await leadOf(h, run);
    expect(lead).toMatchObject({ kind: 'notQualified', country: 'CA' });
    // Downtown Toronto's postal area to the town's centre: a few miles.
    expect(lead!.nearestSiteMiles).toBeGreaterThanOrEqual(0);
    expect(lead!.nearestSiteMiles).toBeLessThan(15);
    expect(h.phi.open(lead!.zipCiphertext!)).toBe('M5V 3L9');
    expect(JSON.stringify(lead)).not.toMatch(/M5V/i);
  });

  it("a lead's ZIP contact field alone (no place sent) is read in the channel's region", async () => {
    const run = await finished(ca, 'M5V 3L9', false);
    const res = await leaveLead(h, run, { values: { ...VALUES, email: 'field.only@example.org', zip_code: 'M5V 3L9' }, acceptTerms: true });
    expect(res.status, await res.clone().text()).toBe(201);
    const lead = await leadOf(h, run);
    expect(lead).toMatchObject({ kind: 'notQualified', country: 'CA' });
    expect(lead!.nearestSiteMiles).toBeLessThan(15);
    expect(h.phi.open(lead!.zipCiphertext!)).toBe('M5V 3L9');
  });
});

describe('a US channel: unchanged', () => {
  it('refuses 1234 and M5V 3L9, takes 10001 and a ZIP+4', async () => {
    for (const zip of ['1234', 'M5V 3L9']) {
      const { run, entryId } = await toZipPage(us);
      const refused = await answerPage(h, run.token, entryId, { q_zip: zip, q_conditions: ['a'] });
      expect(refused.status).toBe(422);
      expect(refused.meta.errors).toEqual({ q_zip: message('postal') });
    }
    await finished(us, '10001');
    await finished(us, '10001-2345');
  });

  it('a ZIP contact field still refuses a Canadian postal code', async () => {
    const run = await finished(us, '10001');
    const refused = await leaveContact(h, us, run, { ...VALUES, zip_code: 'M5V 3L9' });
    expect(refused.status).toBe(422);
    const taken = await leaveContact(h, us, run, { ...VALUES, zip_code: '10001' });
    expect(taken.status, await taken.clone().text()).toBe(201);
  });
});

describe("the channel's region, kept with the run", () => {
  it('a ZIP page sends its save alone: the region came with the page before', async () => {
    const { run, entryId } = await toZipPage(us);
    h.takeStatements();
    const saved = await answerPage(h, run.token, entryId, { q_zip: '10001', q_conditions: ['a'] });
    expect(saved.status).toBe(200);
    // The steps before may log a transaction's commit late (PostgreSQL): count this call's own.
    const statements = h.takeStatements();
    expect(statements.filter((s) => s.startsWith('select "locale" from "media_channels"'))).toEqual([]);
    expect(statements.filter((s) => s.includes('jsonb_to_recordset') && s.includes('limit_keys'))).toHaveLength(1);
  });

  it("a channel's new locale reaches a run in progress at its next page", async () => {
    const moving = await createParticipantFixture(h.db);
    const { token, firstEntryId } = await startSubmission(h, moving);
    const p1 = await answerPage(h, token, firstEntryId, { q_choice: 'yes' });
    await h.db.update(mediaChannels).set({ locale: 'en-CA' }).where(eq(mediaChannels.id, moving.mediaChannelId));
    // The second page's save reads the channel as it is now, for the page after it.
    const p2 = await answerPage(h, token, p1.meta.nextContainerEntryId!, { q_dob: '1980-06-15', q_text: 'hello' });
    const refused = await answerPage(h, token, p2.meta.nextContainerEntryId!, { q_zip: '10001', q_conditions: ['a'] });
    expect(refused).toMatchObject({ status: 422, meta: { errors: { q_zip: message('postal') } } });
    const taken = await answerPage(h, token, p2.meta.nextContainerEntryId!, { q_zip: 'M5V 3L9', q_conditions: ['a'] });
    expect(taken.status).toBe(200);
  });
});
