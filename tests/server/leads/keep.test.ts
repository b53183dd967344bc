/**
 * Leads at notQualified, noTrialSites and notActive, on the real server and database: the form
 * with each outcome's own message pair, the lead kept with its consent proof and distance
 * context, sealed at rest, checked like a contact, duplicate-flagged by the keyed hashes, and
 * never a referral (no contact, no referral, no delivery).
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createHarness, json, type Harness } from '../harness';
import {
  answerPage,
  createParticipantFixture,
  leaveLead,
  type ParticipantFixture,
  runNotQualified,
  runQualified,
  startSubmission,
  TOKEN_HEADER,
} from '../../support/participantFixture';
import { addNoTrialSitesMessage, leadLeft, leadOf } from '../participantServer';
import { contactFields, contactFieldScreeners, contacts, embedProblems, oForms, referrals, rmsDeliveries } from '../../../server/db/schema';
import { rowsOf } from '../../../server/db/rows';
import { rowsWhere } from '../rowsWhere';

let h: Harness;
let f: ParticipantFixture;

const NOW = '2031-03-10T09:30:00.000Z';
const VALUES = { first_name: 'Ximenora', email: 'ximenora.lead@example.org', phone: '917-555-0148' };

beforeAll(async () => {
  h = await createHarness();
  h.clock.set(NOW);
  f = await createParticipantFixture(h.db);
  await addNoTrialSitesMessage(h, f.screenerId);
});

afterAll(async () => {
  await h.close();
});

type Run = { submissionId: string; token: string };

const leadFields = (run: Run, zip?: string) =>
  h.request('GET', `/api/o-forms/o-form-submission-lead-fields/${run.submissionId}${zip ? `?zip=${zip}` : ''}`, { headers: { [TOKEN_HEADER]: run.token } });

/** Every row of every table in the public schema, as text. */
async function everyTable(): Promise<string> {
  const tables = rowsOf(await h.db.execute(sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`));
  const parts: string[] = [];
  for (const { table_name } of tables) {
    const rows = rowsOf(await h.db.execute(sql`select t::text as row from ${sql.identifier(String(table_name))} t`));
    parts.push(...rows.map((r) => String(r.row)));
  }
  return parts.join('\n');
}

describe('a lead at notQualified', () => {
  it("shows the outcome's own message pair and the screener's contact fields, in the participant's language", async () => {
    const run = await runNotQualified(h, f, { language: 'es' });
    const res = await leadFields(run);
    expect(res.status, await res.clone().text()).toBe(200);
    const body = await json(res);
    expect(body.meta.outcome).toBe('notQualified');
    expect(body.meta.messages.contactForm).toBe('<p>No es adecuado <em>esta vez</em>.</p>');
    // No Spanish consent on the screener: the survey's, then the built-in Spanish default, before any English.
    expect(body.meta.messages.consent).not.toBe('May we contact you about other studies?');
    expect(body.data.map((d: { attributes: { name: string } }) => d.attributes.name)).toEqual(f.contactFieldNames);
  });

  it('keeps the lead with its consent proof, sealed, and no referral', async () => {
    const run = await runNotQualified(h, f);
    const shown = (await json(await leadFields(run))).meta.messages;
    expect(shown.consent).toBe('May we contact you about other studies?');
    const referralsBefore = (await h.db.select().from(referrals)).length;
    const res = await leaveLead(h, run, { values: VALUES, acceptTerms: true, zip: '10001' });
    expect(res.status, await res.clone().text()).toBe(201);
    // The thanks the widget shows next, in the run's language.
    expect((await json(res)).meta).toMatchObject({
      outcome: 'notQualified',
      leadKept: true,
      messages: { contactForm: '<p>Thank you. Your details are kept and we may contact you.</p>', consent: '' },
    });

    const lead = await leadOf(h, run);
    const [form] = await h.db.select().from(oForms).where(eq(oForms.id, f.oFormId));
    expect(lead).toMatchObject({
      kind: 'notQualified',
      engagementIds: f.engagementIds,
      screenerId: f.screenerId,
      mediaChannelId: f.mediaChannelId,
      language: 'en',
      consentText: shown.consent,
      consentTextSha256: createHash('sha256').update(shown.consent, 'utf8').digest('hex'),
      consentedAt: new Date(NOW),
      surveyId: f.oFormId,
      surveyVersion: form!.version,
      nearestSiteMiles: 0.2,
      duplicateOf: null,
    });
    expect(JSON.parse(h.phi.open(lead!.valuesCiphertext))).toEqual(VALUES);
    expect(h.phi.open(lead!.zipCiphertext!)).toBe('10001');

    expect(await rowsWhere(h.db, contacts.submissionId, Number(run.submissionId))).toEqual([]);
    expect((await h.db.select().from(referrals)).length).toBe(referralsBefore);
    expect(await h.db.select().from(rmsDeliveries)).toEqual([]);

    const again = await leaveLead(h, run, { values: VALUES, acceptTerms: true });
    expect(again.status).toBe(409);
  });

  it('checks the form like a contact: each problem at its pointer, nothing kept', async () => {
    const run = await runNotQualified(h, f);
    const res = await leaveLead(h, run, { values: { first_name: 'A', email: 'not-an-email', phone: '917-555-0148' }, acceptTerms: false });
    expect(res.status).toBe(422);
    const pointers = (await json(res)).errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort();
    expect(pointers).toEqual(['/data/attributes/acceptTerms', '/data/attributes/values/email']);
    const badZip = await leaveLead(h, run, { values: VALUES, acceptTerms: true, zip: '00000' });
    expect(badZip.status).toBe(422);
    expect((await json(badZip)).errors[0].source.pointer).toBe('/data/attributes/zip');
    const notADocument = await h.request('POST', `/api/o-forms/o-form-submission-lead/${run.submissionId}`, {
      headers: { [TOKEN_HEADER]: run.token },
      body: { data: [] },
    });
    expect(notADocument.status).toBe(422);
    expect(await leadOf(h, run)).toBeUndefined();
  });

  it("needs the run's token", async () => {
    const run = await runNotQualified(h, f);
    const res = await h.request('POST', `/api/o-forms/o-form-submission-lead/${run.submissionId}`, {
      body: { data: { attributes: { values: VALUES, acceptTerms: true } } },
    });
    expect(res.status).toBe(401);
    expect(await leadOf(h, run)).toBeUndefined();
  });
});

describe('a lead at noTrialSites', () => {
  it("is kept for the engagements qualified for, with the ZIP sealed and the nearest site's distance", async () => {
    const run = await runQualified(h, f, { zip: '99501' });
    const sites = await json(
      await h.request('GET', `/api/o-forms/o-form-submission-sites/${run.submissionId}?zip=99501`, { headers: { [TOKEN_HEADER]: run.token } }),
    );
    expect(sites.meta.outcome).toBe('noTrialSites');
    const form = await json(await leadFields(run, '99501'));
    expect(form.meta).toEqual({
      outcome: 'noTrialSites',
      messages: { contactForm: '<p>No site near you yet.</p>', consent: 'Contact me when a site opens near me.' },
    });

    const res = await leaveLead(h, run, { values: { ...VALUES, email: 'anchorage@example.org' }, acceptTerms: true, zip: '99501' });
    expect(res.status, await res.clone().text()).toBe(201);
    const lead = await leadOf(h, run);
    expect(lead).toMatchObject({ kind: 'noTrialSites', engagementIds: f.engagementIds, consentText: 'Contact me when a site opens near me.' });
    // Anchorage to Manhattan, great-circle.
    expect(lead!.nearestSiteMiles).toBeGreaterThan(3300);
    expect(lead!.nearestSiteMiles).toBeLessThan(3450);
    expect(h.phi.open(lead!.zipCiphertext!)).toBe('99501');
  });

  it('is kept outside the US from the country and the town the sites were searched for', async () => {
    const run = await runQualified(h, f);
    const sites = await json(
      await h.request('GET', `/api/o-forms/o-form-submission-sites/${run.submissionId}?zip=Madrid&country=ES`, { headers: { [TOKEN_HEADER]: run.token } }),
    );
    expect(sites.meta.outcome).toBe('noTrialSites');
    const form = await leadFields(run, 'Madrid&country=ES');
    expect(form.status, await form.clone().text()).toBe(200);
    expect((await json(form)).meta.outcome).toBe('noTrialSites');
    // Not a country code: refused at its pointer, nothing kept.
    const wrong = await leaveLead(h, run, { values: { ...VALUES, email: 'madrid@example.org' }, acceptTerms: true, zip: 'Madrid', country: 'Spain' });
    expect(wrong.status).toBe(422);
    expect((await json(wrong)).errors[0].source.pointer).toBe('/data/attributes/country');
    expect(await leadOf(h, run)).toBeUndefined();
    const res = await leaveLead(h, run, { values: { ...VALUES, email: 'madrid@example.org' }, acceptTerms: true, zip: 'Madrid', country: 'es' });
    expect(res.status, await res.clone().text()).toBe(201);
    const lead = await leadOf(h, run);
    expect(lead).toMatchObject({ kind: 'noTrialSites', country: 'ES' });
    expect(h.phi.open(lead!.zipCiphertext!)).toBe('Madrid');
    // Madrid to Manhattan, great-circle: about 3,600 miles.
    expect(lead!.nearestSiteMiles).toBeGreaterThan(3500);
    expect(lead!.nearestSiteMiles).toBeLessThan(3700);
    const listed = await json(await h.request('GET', `/api/leads?sort=-created&limit=10`, { token: await h.token() }));
    expect(listed.data.find((r: { id: string }) => r.id === String(lead!.id)).attributes).toMatchObject({ zipCode: 'Madrid', country: 'ES' });
  });

  it('is refused where a site is within reach (that contact is a referral), and without a ZIP', async () => {
    const run = await runQualified(h, f);
    expect((await leadFields(run, '10001')).status).toBe(409);
    const near = await leaveLead(h, run, { values: VALUES, acceptTerms: true, zip: '10001' });
    expect(near.status).toBe(409);
    const none = await leaveLead(h, run, { values: VALUES, acceptTerms: true });
    expect(none.status).toBe(422);
    expect((await json(none)).errors[0].source.pointer).toBe('/data/attributes/zip');
    expect(await leadOf(h, run)).toBeUndefined();
  });
});

describe('a lead at notActive', () => {
  it('is kept when the survey stopped running under the run', async () => {
    const g = await createParticipantFixture(h.db);
    const { submissionId, token, firstEntryId } = await startSubmission(h, g);
    await answerPage(h, token, firstEntryId, { q_choice: 'yes' });
    await h.db.update(oForms).set({ isActive: false }).where(eq(oForms.id, g.oFormId));
    const run = { submissionId, token };
    const form = await json(await leadFields(run));
    expect(form.meta.outcome).toBe('notActive');
    const res = await leaveLead(h, run, { values: VALUES, acceptTerms: true });
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await leadOf(h, run)).toMatchObject({
      kind: 'notActive',
      engagementIds: g.engagementIds,
      consentText: form.meta.messages.consent,
      zipCiphertext: null,
      nearestSiteMiles: null,
    });
  });
});

describe('a lead at notActive before the run began', () => {
  /** The widget's start through `g`'s channel, from its partner's page: the answer and the run its lead is left through. */
  const widgetStart = async (g: ParticipantFixture) => {
    const res = await h.request('GET', `/api/o-forms/participant-start?mediaChannelId=${g.mediaChannelId}`, { headers: { Origin: `https://${g.domain}` } });
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe(`https://${g.domain}`);
    const meta = (await json(res)).meta;
    return { meta, run: { submissionId: meta.submissionId as string, token: res.headers.get(TOKEN_HEADER)! } };
  };
  /** The funnel's stages and leads for `g`'s channel, over every day. */
  const funnelOf = async (g: ParticipantFixture) => {
    const res = await h.request('GET', `/api/recruitment-funnel?mediaChannelId=${g.mediaChannelId}`, { token: await h.token() });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await json(res)).data.map((r: { attributes: Record<string, unknown> }) => r.attributes);
  };

  it("is kept through the start's own submission when the channel is switched off: the screener's engagements, its embed problem still recorded, never started", async () => {
    const g = await createParticipantFixture(h.db, { channelActive: false });
    const { meta, run } = await widgetStart(g);
    expect(meta).toMatchObject({ runnable: false, outcome: 'notActive', problem: { code: 'channel-inactive' } });
    expect(run.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const problems = await h.db.select().from(embedProblems).where(eq(embedProblems.mediaChannelId, g.mediaChannelId));
    expect(problems.map((p) => p.cause)).toContain('channel-inactive');
    const form = await json(await leadFields(run));
    expect(form.meta.outcome).toBe('notActive');
    expect(form.data.map((d: { attributes: { name: string } }) => d.attributes.name)).toEqual(g.contactFieldNames);
    const res = await leaveLead(h, run, { values: VALUES, acceptTerms: true });
    expect(res.status, await res.clone().text()).toBe(201);
    const lead = await leadOf(h, run);
    expect(lead).toMatchObject({
      kind: 'notActive',
      engagementIds: g.engagementIds,
      screenerId: g.screenerId,
      mediaChannelId: g.mediaChannelId,
      consentText: form.meta.messages.consent,
      consentTextSha256: createHash('sha256').update(form.meta.messages.consent, 'utf8').digest('hex'),
      duplicateOf: null,
    });
    expect(JSON.parse(h.phi.open(lead!.valuesCiphertext))).toMatchObject(VALUES);
    // One lead per run; another start's lead of the same person is a duplicate of this one.
    expect((await leaveLead(h, run, { values: VALUES, acceptTerms: true })).status).toBe(409);
    const again = (await widgetStart(g)).run;
    expect((await leaveLead(h, again, { values: VALUES, acceptTerms: true })).status).toBe(201);
    expect((await leadOf(h, again))!.duplicateOf).toBe(lead!.id);
    // Not a start: the funnel counts no run, no lead of a run that never started, and no view.
    const rows = await funnelOf(g);
    expect(rows).toHaveLength(1);
    for (const row of rows) expect(row).toMatchObject({ viewed: 0, started: 0, completed: 0, leadsKept: 0, leadsNotActive: 0 });
  });

  it('is kept through the refused submission when the survey is switched off; "No thanks" (nothing sent) keeps nothing', async () => {
    const g = await createParticipantFixture(h.db, { formActive: false });
    const res = await h.request('POST', `/api/o-forms/o-form-submissions?mediaChannelId=${g.mediaChannelId}`, {
      headers: { Origin: `https://${g.domain}` },
      body: { data: { type: 'o-form-submissions', attributes: { oFormId: g.oFormId, mediaChannelId: g.mediaChannelId } } },
    });
    const refused = await json(res);
    expect(refused).toMatchObject({ data: null, meta: { outcome: 'notActive' } });
    const run = { submissionId: refused.meta.submissionId as string, token: res.headers.get(TOKEN_HEADER)! };
    expect((await json(await leadFields(run))).meta.outcome).toBe('notActive');
    // Its qualification reads notActive, as a run stopped midway reads it.
    const judged = await h.request('GET', `/api/o-forms/o-form-submission-qualification/${run.submissionId}`, { headers: { [TOKEN_HEADER]: run.token } });
    expect((await json(judged)).meta).toMatchObject({ isQualified: false, outcome: 'notActive' });
    expect(await leadOf(h, run)).toBeUndefined();
    const declined = (await widgetStart(g)).run;
    expect(await leadOf(h, declined)).toBeUndefined();
    const kept = await leadLeft(h, run, { values: { ...VALUES, email: 'survey.off@example.org', phone: '917-555-0171' }, acceptTerms: true });
    expect(kept).toMatchObject({ kind: 'notActive', engagementIds: g.engagementIds });
    const rows = await funnelOf(g);
    expect(rows).toHaveLength(1);
    for (const row of rows) expect(row).toMatchObject({ started: 0, leadsKept: 0, leadsNotActive: 0 });
  });

  it("is refused from the partner's page without the run's channel (CORS), and without the token", async () => {
    const g = await createParticipantFixture(h.db, { channelActive: false });
    const { run } = await widgetStart(g);
    const body = { data: { type: 'leads', attributes: { values: VALUES, acceptTerms: true } } };
    const unnamed = await h.request('POST', `/api/o-forms/o-form-submission-lead/${run.submissionId}`, {
      headers: { Origin: `https://${g.domain}`, [TOKEN_HEADER]: run.token },
      body,
    });
    expect(unnamed.status).toBe(403);
    const untokened = await h.request('POST', `/api/o-forms/o-form-submission-lead/${run.submissionId}`, { body });
    expect(untokened.status).toBe(401);
    expect(await leadOf(h, run)).toBeUndefined();
  });
});

describe("a lead's ZIP where its outcome searched no sites", () => {
  it("is the screener's ZIP contact field, sealed, with the nearest site's distance (none without the field: notActive above)", async () => {
    const g = await createParticipantFixture(h.db);
    const [zipField] = await h.db.select().from(contactFields).where(eq(contactFields.name, 'zip_code'));
    await h.db.insert(contactFieldScreeners).values({ screenerId: g.screenerId, contactFieldId: zipField!.id, weight: 9 });
    const run = async () => {
      const { submissionId, token, firstEntryId } = await startSubmission(h, g);
      const p1 = await answerPage(h, token, firstEntryId, { q_choice: 'no' });
      const p2 = await answerPage(h, token, p1.meta.nextContainerEntryId!, { q_dob: '1980-06-15' });
      await answerPage(h, token, p2.meta.nextContainerEntryId!, { q_zip: '10001', q_conditions: ['a'] });
      return { submissionId, token };
    };
    // Anchorage, given in the form (no zip attribute): kept sealed, with the miles to the fixture's Manhattan site.
    const far = await run();
    const res = await leaveLead(h, far, { values: { ...VALUES, email: 'zip.field@example.org', phone: '917-555-0161', zip_code: '99501' }, acceptTerms: true });
    expect(res.status, await res.clone().text()).toBe(201);
    const lead = await leadOf(h, far);
    expect(lead!.kind).toBe('notQualified');
    expect(h.phi.open(lead!.zipCiphertext!)).toBe('99501');
    expect(lead!.nearestSiteMiles).toBeGreaterThan(3300);
  });
});

describe('duplicates and sealing', () => {
  it('flags a second lead of the same e-mail for the same engagements as a duplicate of the first', async () => {
    const first = await runNotQualified(h, f);
    const email = 'twice.lead@example.org';
    expect((await leaveLead(h, first, { values: { ...VALUES, email, phone: '917-555-0101' }, acceptTerms: true })).status).toBe(201);
    const second = await runNotQualified(h, f);
    expect((await leaveLead(h, second, { values: { ...VALUES, email: ' Twice.Lead@Example.org ', phone: '917-555-0102' }, acceptTerms: true })).status).toBe(
      201,
    );
    const a = await leadOf(h, first);
    const b = await leadOf(h, second);
    expect(a!.duplicateOf).toBeNull();
    expect(b!.duplicateOf).toBe(a!.id);
  });

  it('leaves no contact value and no ZIP in clear in any table', async () => {
    const dump = await everyTable();
    for (const value of [...Object.values(VALUES), 'anchorage@example.org', 'twice.lead@example.org'])
      expect(dump.toLowerCase()).not.toContain(value.toLowerCase());
    expect(dump).not.toContain('99501');
  });
});
