/**
 * After qualification and the record system (issue 7), on the real server and database: trial
 * sites by real ZIP centroids, the contact form's checks, the contact stored encrypted before
 * anything else, its referral and counts, and the webhook provider against a real local HTTP
 * server that succeeds, fails with 500 and times out — an audit for every attempt, a resend,
 * nothing lost while the record system is down — and the signed callback.
 */
import http from 'node:http';
import { channelFigures } from '../../server/domain/channelFigures';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { count, eq, sql } from 'drizzle-orm';
import { createHarness, json, type Harness } from './harness';
import { createParticipantFixture, runQualified, TOKEN_HEADER, type ParticipantFixture } from '../support/participantFixture';
import {
  contacts,
  engagementSiteLocations,
  engagements,
  oFormSubmissions,
  referrals,
  rmsAudits,
  rmsProviders,
} from '../../server/db/schema';
import { settlePushes } from '../../server/rms/push';
import { signBody, verifySignature } from '../../server/rms/signature';
import { NONE_RECORDED_MESSAGE } from '../../server/rms/provider';
import { message } from '../../core/validation/messages';

type Mode = 'ok' | 'fail' | 'hang' | 'hold';
interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

const SECRET = 'a-shared-webhook-secret';
let h: Harness;
let f: ParticipantFixture;
let superToken: string;
let server: http.Server;
let endpoint: string;
let mode: Mode = 'ok';
let received: Received[] = [];
let providerId: number;
/** In 'hold' mode the endpoint answers 200 only once the test calls this. */
let release: () => void = () => undefined;
let held: Promise<void> = Promise.resolve();

const withToken = (token: string) => ({ [TOKEN_HEADER]: token });
const count$ = async (table: typeof contacts | typeof referrals | typeof rmsAudits) => (await h.db.select({ n: count() }).from(table))[0]!.n;
const VALUES = { first_name: 'Zelda', email: 'zelda.fitz@example.com', phone: '212-555-0142' };

async function setProvider(values: Partial<typeof rmsProviders.$inferInsert>) {
  await h.db.update(rmsProviders).set(values).where(eq(rmsProviders.id, providerId));
}

/** A qualified run that leaves its contact for the fixture's site; answers the contact's id once its push has finished. */
async function completeRun(options: { values?: Record<string, unknown>; site?: number | null; engagementId?: number; settle?: boolean } = {}) {
  const { submissionId, token } = await runQualified(h, f);
  const site = options.site === undefined ? f.engagementSiteLocationId : options.site;
  const res = await h.request('POST', `/api/o-forms/o-form-submission-contact/${submissionId}`, {
    headers: withToken(token),
    body: {
      data: {
        attributes: {
          ...(site === null ? {} : { engagementSiteLocationId: String(site) }),
          ...(options.engagementId ? { engagementId: options.engagementId } : {}),
          values: options.values ?? VALUES,
          acceptTerms: true,
        },
      },
    },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const body = await json(res);
  expect(body.meta.outcome).toBe('completed');
  if (options.settle !== false) await settlePushes();
  const [contact] = await h.db.select().from(contacts).where(eq(contacts.submissionId, Number(submissionId)));
  expect(contact).toBeDefined();
  return { contact: contact!, submissionId, token, body };
}

const auditsOf = (contactId: number) => h.db.select().from(rmsAudits).where(eq(rmsAudits.contactId, contactId)).orderBy(rmsAudits.id);

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (mode === 'ok') res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ accepted: true, id: `rms-${received.length}` }));
      else if (mode === 'fail') res.writeHead(500, { 'Content-Type': 'text/plain' }).end('database unavailable');
      else if (mode === 'hold') void held.then(() => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('taken'));
      // 'hang': never answers; the provider's timeout has to end the attempt.
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/contacts`;

  h = await createHarness({ RMS_RETRY_BACKOFF_MS: '5' });
  superToken = await h.token();
  f = await createParticipantFixture(h.db);
  const [provider] = await h.db
    .insert(rmsProviders)
    .values({ name: 'Test webhook', kind: 'webhook', endpointUrl: endpoint, signingSecret: SECRET, timeoutMs: 300, maxAttempts: 3 })
    .returning();
  providerId = provider!.id;
  await h.db.update(engagements).set({ rmsProviderId: providerId }).where(eq(engagements.id, f.engagementIds[0]));
});

afterAll(async () => {
  await settlePushes();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await h.close();
});

beforeEach(async () => {
  mode = 'ok';
  received = [];
  await setProvider({ endpointUrl: endpoint, timeoutMs: 300, maxAttempts: 3 });
});

describe('trial sites by ZIP code', () => {
  const sites = async (submissionId: string, token: string, zip: string) =>
    h.request('GET', `/api/o-forms/o-form-submission-sites/${submissionId}?zip=${zip}`, { headers: withToken(token) });

  it('offers the site within 25 miles (Hoboken to Manhattan) and none beyond (Princeton)', async () => {
    const { submissionId, token } = await runQualified(h, f);
    const near = await sites(submissionId, token, '07030');
    expect(near.status).toBe(200);
    const nearBody = await json(near);
    expect(nearBody.meta.outcome).toBe('qualified');
    expect(nearBody.data).toHaveLength(1);
    expect(nearBody.data[0]).toMatchObject({
      type: 'trial-sites',
      id: String(f.engagementSiteLocationId),
      attributes: { city: 'New York', state: 'NY', zipCode: '10001', engagementId: String(f.engagementIds[0]) },
    });
    expect(nearBody.data[0].attributes.distanceMiles).toBeGreaterThan(0.5);
    expect(nearBody.data[0].attributes.distanceMiles).toBeLessThan(5);

    const far = await json(await sites(submissionId, token, '08540'));
    expect(far.data).toEqual([]);
    expect(far.meta.outcome).toBe('noTrialSites');
    expect(far.meta.messages.contactForm).toContain('no study site near you');
  });

  it("uses the site link's radius before the engagement's", async () => {
    const { submissionId, token } = await runQualified(h, f);
    await h.db.update(engagements).set({ radius: 60 }).where(eq(engagements.id, f.engagementIds[0]));
    expect((await json(await sites(submissionId, token, '08540'))).data).toHaveLength(1);
    await h.db.update(engagementSiteLocations).set({ radius: 10 }).where(eq(engagementSiteLocations.id, f.engagementSiteLocationId));
    expect((await json(await sites(submissionId, token, '08540'))).data).toHaveLength(0);
    await h.db.update(engagementSiteLocations).set({ radius: null }).where(eq(engagementSiteLocations.id, f.engagementSiteLocationId));
    await h.db.update(engagements).set({ radius: 25 }).where(eq(engagements.id, f.engagementIds[0]));
  });

  it('answers an unknown ZIP with a 422 naming zip, in the participant language, and needs the token', async () => {
    const { submissionId, token } = await runQualified(h, f, { language: 'es' });
    const res = await sites(submissionId, token, '99999');
    expect(res.status).toBe(422);
    const { errors } = await json(res);
    expect(errors[0].source).toEqual({ parameter: 'zip' });
    expect(errors[0].detail).toBe(message('zip_unknown', {}, 'es'));
    expect((await h.request('GET', `/api/o-forms/o-form-submission-sites/${submissionId}?zip=10001`)).status).toBe(401);
  });

  it("answers CORS for the channel's own domain only", async () => {
    const { submissionId, token } = await runQualified(h, f);
    const path = `/api/o-forms/o-form-submission-sites/${submissionId}?zip=07030&mediaChannelId=${f.mediaChannelId}`;
    const partner = await h.request('GET', path, { headers: { ...withToken(token), Origin: `https://${f.domain}` } });
    expect(partner.status).toBe(200);
    expect(partner.headers.get('Access-Control-Allow-Origin')).toBe(`https://${f.domain}`);
    const other = await h.request('GET', path, { headers: { ...withToken(token), Origin: 'https://elsewhere.example' } });
    expect(other.status).toBe(403);
    expect(other.headers.get('Access-Control-Allow-Origin')).toBeNull();
    const preflight = await h.request('OPTIONS', `/api/o-forms/o-form-submission-contact/${submissionId}?mediaChannelId=${f.mediaChannelId}`, {
      headers: { Origin: `https://${f.domain}`, 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('Access-Control-Allow-Headers')).toContain('Survey-Submission-Token');
  });

  it("lists the screener's contact fields in weight order", async () => {
    const { submissionId, token } = await runQualified(h, f);
    const res = await h.request('GET', `/api/o-forms/o-form-submission-contact-fields/${submissionId}`, { headers: withToken(token) });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.data.map((d: { attributes: { name: string } }) => d.attributes.name)).toEqual(['first_name', 'email', 'phone']);
    expect(body.data[1].attributes).toMatchObject({ type: 'email', required: true, label: 'Email', translations: { es: 'Correo electrónico' } });
  });
});

describe('the contact', () => {
  it('refuses invalid values and a missing consent with 422, naming each, and stores nothing', async () => {
    const { submissionId, token } = await runQualified(h, f);
    const before = { contacts: await count$(contacts), referrals: await count$(referrals), audits: await count$(rmsAudits) };
    const res = await h.request('POST', `/api/o-forms/o-form-submission-contact/${submissionId}`, {
      headers: withToken(token),
      body: { data: { attributes: { engagementSiteLocationId: String(f.engagementSiteLocationId), values: { first_name: '  ', email: 'not-an-email', phone: '12345' }, acceptTerms: false } } },
    });
    expect(res.status).toBe(422);
    const problems = Object.fromEntries((await json(res)).errors.map((e: { source: { pointer: string }; detail: string }) => [e.source.pointer, e.detail]));
    expect(problems).toEqual({
      '/data/attributes/values/first_name': message('required'),
      '/data/attributes/values/email': message('email'),
      '/data/attributes/values/phone': message('us_phone'),
      '/data/attributes/acceptTerms': 'You must accept the terms and conditions in order to proceed.',
    });
    const wrongSite = await h.request('POST', `/api/o-forms/o-form-submission-contact/${submissionId}`, {
      headers: withToken(token),
      body: { data: { attributes: { engagementSiteLocationId: '999999', values: VALUES, acceptTerms: true } } },
    });
    expect(wrongSite.status).toBe(422);
    expect((await json(wrongSite)).errors[0].source.pointer).toBe('/data/attributes/engagementSiteLocationId');
    expect({ contacts: await count$(contacts), referrals: await count$(referrals), audits: await count$(rmsAudits) }).toEqual(before);
    const [submission] = await h.db.select().from(oFormSubmissions).where(eq(oFormSubmissions.id, Number(submissionId)));
    expect(submission!.status).toBe('in_progress');
  });

  it('stores the contact encrypted with its referral, completes the run, counts it, and pushes it signed', async () => {
    const channelBefore = (await channelFigures(h.db, [f.mediaChannelId])).get(f.mediaChannelId)!;
    const { contact, submissionId, body } = await completeRun();
    expect(body.meta.messages.contactForm).toContain('Thank you');

    // The raw row holds no plaintext value; the key opens it.
    const raw = JSON.stringify(await h.db.execute(sql`select * from contacts where id = ${contact.id}`));
    expect(raw).toContain(contact.valuesCiphertext);
    for (const value of Object.values(VALUES)) expect(raw).not.toContain(value);
    expect(raw).not.toContain('zelda');
    expect(JSON.parse(h.phi.open(contact.valuesCiphertext))).toEqual(VALUES);
    expect(contact).toMatchObject({ engagementId: f.engagementIds[0], engagementSiteLocationId: f.engagementSiteLocationId, screenerId: f.screenerId, mediaChannelId: f.mediaChannelId, acceptTerms: true, language: 'en' });
    expect(contact.consentedAt).toBeInstanceOf(Date);
    expect(contact.pushedAt).toBeInstanceOf(Date);

    const [referral] = await h.db.select().from(referrals).where(eq(referrals.contactId, contact.id));
    expect(referral).toMatchObject({ engagementId: f.engagementIds[0], engagementSiteLocationId: f.engagementSiteLocationId, isScreened: false, isRandomized: false });
    const [submission] = await h.db.select().from(oFormSubmissions).where(eq(oFormSubmissions.id, Number(submissionId)));
    expect(submission).toMatchObject({ status: 'completed', outcome: 'completed' });
    const channel = (await channelFigures(h.db, [f.mediaChannelId])).get(f.mediaChannelId)!;
    expect(channel.submissionsCompleted).toBe(channelBefore.submissionsCompleted + 1);

    // One attempt, signed, carrying the decrypted values.
    expect(received).toHaveLength(1);
    const delivery = received[0]!;
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(verifySignature(delivery.headers['x-signature'] as string, delivery.body, SECRET)).toBe(true);
    expect(JSON.parse(delivery.body)).toMatchObject({
      contactId: contact.id,
      engagement: { id: f.engagementIds[0] },
      site: { engagementSiteLocationId: f.engagementSiteLocationId, zipCode: '10001' },
      acceptTerms: true,
      values: VALUES,
    });
    const audits = await auditsOf(contact.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ succeeded: true, attempt: 1, rmsProviderName: 'Test webhook', rmsProviderId: providerId, responseMessage: 'HTTP 200 OK' });
    expect(audits[0]!.responseBody).toContain('"accepted":true');
  });

  it('takes one contact per run: a second one is a 409', async () => {
    const { submissionId, token } = await completeRun();
    const again = await h.request('POST', `/api/o-forms/o-form-submission-contact/${submissionId}`, {
      headers: withToken(token),
      body: { data: { attributes: { engagementSiteLocationId: String(f.engagementSiteLocationId), values: VALUES, acceptTerms: true } } },
    });
    expect(again.status).toBe(409);
    expect(await h.db.select().from(contacts).where(eq(contacts.submissionId, Number(submissionId)))).toHaveLength(1);
  });

  it('records only, in one succeeded audit, for an engagement without a record system (no site chosen)', async () => {
    const { contact } = await completeRun({ site: null, engagementId: f.engagementIds[1] });
    expect(contact).toMatchObject({ engagementId: f.engagementIds[1], engagementSiteLocationId: null });
    expect(received).toHaveLength(0);
    const audits = await auditsOf(contact.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ succeeded: true, rmsProviderName: 'none', rmsProviderId: null, responseMessage: NONE_RECORDED_MESSAGE });
  });
});

describe('the webhook provider', () => {
  it('retries a 500 up to max_attempts with an audit each, keeps the contact, and a resend succeeds', async () => {
    mode = 'fail';
    const { contact } = await completeRun();
    const failed = await auditsOf(contact.id);
    expect(failed.map((a) => [a.attempt, a.succeeded, a.responseMessage])).toEqual([
      [1, false, 'HTTP 500 Internal Server Error'],
      [2, false, 'HTTP 500 Internal Server Error'],
      [3, false, 'HTTP 500 Internal Server Error'],
    ]);
    expect(failed[0]!.responseBody).toBe('database unavailable');
    expect(received.map((r) => r.headers['x-rms-attempt'])).toEqual(['1', '2', '3']);
    // Never lost: the contact and its referral stay, not marked as pushed.
    const [stored] = await h.db.select().from(contacts).where(eq(contacts.id, contact.id));
    expect(stored!.pushedAt).toBeNull();
    expect(await h.db.select().from(referrals).where(eq(referrals.contactId, contact.id))).toHaveLength(1);

    mode = 'ok';
    const resend = await h.request('POST', `/api/resend-rms-audit/${contact.id}`, { token: superToken });
    expect(resend.status).toBe(201);
    const doc = await json(resend);
    expect(doc.data).toMatchObject({ type: 'rms-audits', attributes: { contactId: contact.id, succeeded: true, attempt: 1, responseMessage: 'HTTP 200 OK' } });
    expect(doc.included).toEqual([{ type: 'rms-providers', id: String(providerId), attributes: { name: 'Test webhook', kind: 'webhook' } }]);
    expect(await auditsOf(contact.id)).toHaveLength(4);
    expect((await h.db.select().from(contacts).where(eq(contacts.id, contact.id)))[0]!.pushedAt).toBeInstanceOf(Date);
    expect((await h.request('POST', '/api/resend-rms-audit/999999', { token: superToken })).status).toBe(404);
  });

  it('cuts off an endpoint that does not answer after timeout_ms, with an audit per attempt', async () => {
    mode = 'hang';
    await setProvider({ timeoutMs: 200, maxAttempts: 2 });
    const started = Date.now();
    const { contact } = await completeRun();
    const audits = await auditsOf(contact.id);
    expect(audits.map((a) => [a.attempt, a.succeeded, a.responseMessage])).toEqual([
      [1, false, 'Timed out after 200 ms.'],
      [2, false, 'Timed out after 200 ms.'],
    ]);
    expect(received).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('answers the participant without waiting for the record system', async () => {
    mode = 'hold';
    held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await setProvider({ timeoutMs: 30_000 });
    const { contact } = await completeRun({ settle: false });
    // The participant has their answer while the record system has not answered yet.
    expect(await auditsOf(contact.id)).toHaveLength(0);
    release();
    await settlePushes();
    const audits = await auditsOf(contact.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ succeeded: true, responseBody: 'taken' });
  });

  it('loses nothing when the record system cannot be reached', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await setProvider({ endpointUrl: `http://127.0.0.1:${port}/gone`, maxAttempts: 2 });
    const { contact } = await completeRun();
    const audits = await auditsOf(contact.id);
    expect(audits).toHaveLength(2);
    expect(audits.every((a) => !a.succeeded && a.responseMessage.startsWith('Could not reach the record system'))).toBe(true);
    expect(JSON.parse(h.phi.open(contact.valuesCiphertext))).toEqual(VALUES);
  });

  it('lists audits for Super Users, newest first, with their providers and without secrets', async () => {
    const res = await h.request('GET', '/api/rms-audits?include=rmsProviders', { token: superToken });
    expect(res.status).toBe(200);
    const doc = await json(res);
    expect(doc.meta).toMatchObject({ page: 1, limit: 20 });
    expect(doc.meta.total).toBeGreaterThan(5);
    expect(doc.data).toHaveLength(20 > doc.meta.total ? doc.meta.total : 20);
    const created = doc.data.map((d: { attributes: { created: string } }) => d.attributes.created);
    expect(created).toEqual([...created].sort().reverse());
    expect(doc.included).toContainEqual({ type: 'rms-providers', id: String(providerId), attributes: { name: 'Test webhook', kind: 'webhook' } });
    expect(JSON.stringify(doc)).not.toContain(SECRET);
    const byContact = await json(await h.request('GET', `/api/rms-audits?contactId=${doc.data[0].attributes.contactId}&sort=created&limit=10`, { token: superToken }));
    expect(byContact.data.every((d: { attributes: { contactId: number } }) => d.attributes.contactId === doc.data[0].attributes.contactId)).toBe(true);
    expect((await h.request('GET', '/api/rms-audits?sort=responseBody', { token: superToken })).status).toBe(400);
    const admin = await h.createUser({ username: 'rms-admin', password: 'rms-admin-pass', roles: ['Admin'] });
    expect(admin).toBeGreaterThan(0);
    expect((await h.request('GET', '/api/rms-audits', { token: await h.token('rms-admin', 'rms-admin-pass') })).status).toBe(403);
  });
});

describe('the record system callback', () => {
  const callback = (body: string, signature?: string) =>
    h.request('POST', '/api/rms-callback', { body, headers: { 'Content-Type': 'application/json', ...(signature ? { 'X-Signature': signature } : {}) } });
  const counts = async () => (await json(await h.request('GET', `/api/referrals/counts/${f.engagementIds[0]}`, { token: superToken }))).data.attributes;
  const figures = async () => (await json(await h.request('GET', `/api/sponsors/${f.sponsorId}`, { token: superToken }))).data.attributes;

  it('refuses a missing or wrong signature with 401 and changes nothing', async () => {
    const { contact } = await completeRun();
    const body = JSON.stringify({ contactId: contact.id, screened: true });
    const before = await counts();
    expect((await callback(body)).status).toBe(401);
    expect((await callback(body, signBody(body, 'another secret'))).status).toBe(401);
    expect((await callback(body, signBody(`${body} `, SECRET))).status).toBe(401);
    expect((await callback(JSON.stringify({ contactId: 999999, screened: true }), signBody(body, SECRET))).status).toBe(401);
    expect(await counts()).toEqual(before);
    expect((await callback('{"contactId":"x"}', 'sha256=00')).status).toBe(422);
    expect((await callback('not json', 'sha256=00')).status).toBe(400);
  });

  it('marks the referral screened, then randomized, and the counts and sponsor figures follow', async () => {
    const { contact } = await completeRun();
    const before = await counts();
    const sponsorBefore = await figures();
    expect(before.total).toBeGreaterThan(0);

    const screened = JSON.stringify({ contactId: contact.id, screened: true });
    const res = await callback(screened, signBody(screened, SECRET));
    expect(res.status).toBe(200);
    expect((await json(res)).data.attributes).toMatchObject({ contactId: contact.id, isScreened: true, isRandomized: false });
    expect(await counts()).toMatchObject({ total: before.total, screened: before.screened + 1, randomized: before.randomized });

    const randomized = JSON.stringify({ contactId: contact.id, randomized: true });
    expect((await callback(randomized, signBody(randomized, SECRET))).status).toBe(200);
    expect(await counts()).toMatchObject({ total: before.total, screened: before.screened + 1, randomized: before.randomized + 1 });
    expect(await figures()).toMatchObject({
      totalReferrals: sponsorBefore.totalReferrals,
      totalScreenedReferrals: sponsorBefore.totalScreenedReferrals + 1,
      totalRandomizedReferrals: sponsorBefore.totalRandomizedReferrals + 1,
    });
  });
});
