/**
 * After qualification, on the real server and database: trial sites by real ZIP centroids, the
 * contact form's checks, the contact stored encrypted with its referral and its outbox row, and
 * its delivery to a real local HTTP receiver signed as Standard Webhooks says (checked with an
 * independent implementation), retried on RMS_RETRY_SCHEDULE at instants the test states
 * through the server's clock: a receiver that fails twice then accepts, a 422 that stops at
 * once, a 429's Retry-After, timeouts and refused connections; resends (one, bulk, and a
 * delivered one only on purpose); the audits list's filters; and the signed callback.
 */
import http from 'node:http';
import { channelFigures } from '../../../server/participant/channelFigures';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { count, eq, sql } from 'drizzle-orm';
import { createHarness, json, type Harness } from '../harness';
import { createParticipantFixture, leaveContact, type ParticipantFixture, runQualified, sendReferralsTo, withToken } from '../../support/participantFixture';
import {
  contacts,
  engagementSiteLocations,
  engagements,
  referrals,
  rmsAudits,
  referralEvents,
  rmsCallbackMessages,
  rmsProviders,
} from '../../../server/db/schema';
import { deliverDue, deliveryOptionsOf, nextWaitMs, settleDeliveries } from '../../../server/rms/worker';
import { NONE_RECORDED_MESSAGE } from '../../../server/rms/provider';
import { rmsDeliveries } from '../../../server/db/schema';
import { claimDue, recordAttempt } from '../../../server/rms/outbox';
import { newWebhookSecret, signStandardWebhook, verifyStandardWebhook } from '../../support/standardWebhooks';
import { startRecordSystem, type ReceivedRequest, type RecordSystemReceiver, type Reply } from '../../support/recordSystemReceiver';
import { message } from '@core/validation/messages';
import { rowsWhere } from '../rowsWhere';
import { submissionRow } from '../participantServer';

type Mode = 'ok' | 'fail' | 'hang' | 'hold' | 'never' | 'busy';

const SECRET = newWebhookSecret();
/** The server's clock: each test states the instants it means. */
const T0 = new Date('2031-05-06T09:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
let h: Harness;
let f: ParticipantFixture;
let superToken: string;
let receiver: RecordSystemReceiver;
let endpoint: string;
let mode: Mode = 'ok';
/** What the record system received since the test began (its receiver's own list). */
let received: ReceivedRequest[] = [];
let providerId: number;
/** In 'hold' mode the endpoint answers 200 only once the test calls this. */
let release: () => void = () => undefined;
let held: Promise<void> = Promise.resolve();

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
  if (options.settle !== false) await settleDeliveries();
  const [contact] = await h.db
    .select()
    .from(contacts)
    .where(eq(contacts.submissionId, Number(submissionId)));
  expect(contact).toBeDefined();
  return { contact: contact!, submissionId, token, body };
}

const auditsOf = (contactId: number) => h.db.select().from(rmsAudits).where(eq(rmsAudits.contactId, contactId)).orderBy(rmsAudits.id);

beforeAll(async () => {
  receiver = await startRecordSystem(() => {
    switch (mode) {
      case 'ok':
        return { status: 200, contentType: 'application/json', body: JSON.stringify({ accepted: true, id: `rms-${received.length}` }) };
      case 'fail':
        return { status: 500, body: 'database unavailable' };
      case 'never':
        return { status: 422, contentType: 'application/json', body: '{"error":"site unknown"}' };
      case 'busy':
        return { status: 429, headers: { 'Retry-After': '600' }, body: 'slow down' };
      case 'hold':
        return held.then(() => ({ status: 200, body: 'taken' }));
      case 'hang':
        // Never answers; the provider's timeout has to end the attempt.
        return new Promise<Reply>(() => undefined);
    }
  });
  received = receiver.received;
  endpoint = `${receiver.origin}/contacts`;

  h = await createHarness({ RMS_RETRY_SCHEDULE: '60,300' });
  h.clock.set(T0);
  superToken = await h.token();
  f = await createParticipantFixture(h.db);
  providerId = await sendReferralsTo(h.db, f, { name: 'Test webhook', endpointUrl: endpoint, signingSecret: h.phi.seal(SECRET) });
});

afterAll(async () => {
  await settleDeliveries();
  await receiver.close();
  await h.close();
});

beforeEach(async () => {
  mode = 'ok';
  received.splice(0);
  h.clock.set(T0);
  await setProvider({ endpointUrl: endpoint, timeoutMs: 10_000, isActive: true });
});

/** Makes the attempts due at `instant`, as the delivery worker would then. */
const deliveryOptions = () => deliveryOptionsOf({ db: h.db, config: h.config, jwtSecret: h.jwtSecret, log: silentLog, phi: h.phi, clock: h.clock });
const deliverAt = async (instant: Date, only?: { contactId: number }) => {
  h.clock.set(instant);
  return deliverDue(deliveryOptions(), instant, only);
};
const silentLog = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const deliveryOf = async (contactId: number) => (await h.db.select().from(rmsDeliveries).where(eq(rmsDeliveries.contactId, contactId)))[0]!;

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
    // Refused before anything runs, yet readable there: the widget names the cause in the console.
    expect(other.headers.get('Access-Control-Allow-Origin')).toBe('https://elsewhere.example');
    expect((await json(other)).errors[0].code).toBe('origin-not-allowed');
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
    expect(body.data[1].attributes).toMatchObject({ fieldType: 'email', required: true, label: 'Email', translations: { es: 'Correo electrónico' } });
  });
});

describe('the contact', () => {
  it('refuses invalid values and a missing consent with 422, naming each, and stores nothing', async () => {
    const { submissionId, token } = await runQualified(h, f);
    const before = { contacts: await count$(contacts), referrals: await count$(referrals), audits: await count$(rmsAudits) };
    const res = await h.request('POST', `/api/o-forms/o-form-submission-contact/${submissionId}`, {
      headers: withToken(token),
      body: {
        data: {
          attributes: {
            engagementSiteLocationId: String(f.engagementSiteLocationId),
            values: { first_name: '  ', email: 'not-an-email', phone: '12345' },
            acceptTerms: false,
          },
        },
      },
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
    const submission = await submissionRow(h, submissionId);
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
    expect(contact).toMatchObject({
      engagementId: f.engagementIds[0],
      engagementSiteLocationId: f.engagementSiteLocationId,
      screenerId: f.screenerId,
      mediaChannelId: f.mediaChannelId,
      acceptTerms: true,
      language: 'en',
    });
    expect(contact.consentedAt).toBeInstanceOf(Date);
    expect(await deliveryOf(contact.id)).toMatchObject({ status: 'delivered', attempts: 1, deliveredAt: T0, nextAttemptAt: null });

    const [referral] = await h.db.select().from(referrals).where(eq(referrals.contactId, contact.id));
    expect(referral).toMatchObject({
      engagementId: f.engagementIds[0],
      engagementSiteLocationId: f.engagementSiteLocationId,
      isScreened: false,
      isRandomized: false,
    });
    const submission = await submissionRow(h, submissionId);
    expect(submission).toMatchObject({ status: 'completed', outcome: 'completed' });
    const channel = (await channelFigures(h.db, [f.mediaChannelId])).get(f.mediaChannelId)!;
    expect(channel.submissionsCompleted).toBe(channelBefore.submissionsCompleted + 1);

    // One attempt, signed as Standard Webhooks says, carrying the decrypted values.
    expect(received).toHaveLength(1);
    const delivery = received[0]!;
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(await verifyStandardWebhook(SECRET, delivery.headers, delivery.body, T0.getTime() / 1000)).toBe(true);
    // Not under another secret, not with the body changed, not replayed ten minutes later.
    expect(await verifyStandardWebhook(newWebhookSecret(), delivery.headers, delivery.body, T0.getTime() / 1000)).toBe(false);
    expect(await verifyStandardWebhook(SECRET, delivery.headers, `${delivery.body} `, T0.getTime() / 1000)).toBe(false);
    expect(await verifyStandardWebhook(SECRET, delivery.headers, delivery.body, T0.getTime() / 1000 + 600)).toBe(false);
    const { referralKey } = await deliveryOf(contact.id);
    expect(delivery.headers['webhook-id']).toBe(`msg_${referralKey}`);
    expect(delivery.headers['webhook-timestamp']).toBe(String(T0.getTime() / 1000));
    expect(JSON.parse(delivery.body)).toMatchObject({
      type: 'referral.created',
      timestamp: contact.created.toISOString(),
      data: {
        referralId: referralKey,
        contactId: contact.id,
        engagement: { id: f.engagementIds[0] },
        sponsor: { id: f.sponsorId, name: expect.stringContaining('Participant sponsor'), identification: expect.any(String), rmsSponsorIdentifier: null },
        site: { engagementSiteLocationId: f.engagementSiteLocationId, siteLocationId: f.siteLocationId, zipCode: '10001', country: null },
        survey: { id: f.oFormId, identity: f.oFormIdentity, version: 1 },
        attribution: { mediaChannelId: f.mediaChannelId },
        consent: { acceptedTerms: true, consentedAt: contact.consentedAt!.toISOString(), language: 'en' },
        values: VALUES,
        test: false,
      },
    });
    // The answers and the survey's questions are FHIR's to carry, not the webhook's.
    expect(Object.keys(JSON.parse(delivery.body).data)).not.toEqual(expect.arrayContaining(['answers']));
    expect(JSON.parse(delivery.body).data).not.toHaveProperty('questions');
    const audits = await auditsOf(contact.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      succeeded: true,
      attempt: 1,
      rmsProviderName: 'Test webhook',
      rmsProviderId: providerId,
      responseMessage: 'HTTP 200 OK',
    });
    expect(audits[0]!.responseBody).toContain('"accepted":true');
  });

  it('takes one contact per run: a second one is refused (404: the ended run opens only its outcome)', async () => {
    const { submissionId, token } = await completeRun();
    const again = await leaveContact(h, f, { submissionId, token }, VALUES);
    expect(again.status).toBe(404);
    expect(await rowsWhere(h.db, contacts.submissionId, Number(submissionId))).toHaveLength(1);
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

describe('delivery and its retry schedule (RMS_RETRY_SCHEDULE=60,300)', () => {
  it('retries a receiver that fails twice, then delivers with nobody pressing Resend', async () => {
    mode = 'fail';
    const { contact } = await completeRun();
    expect(await deliveryOf(contact.id)).toMatchObject({ status: 'retrying', attempts: 1, nextAttemptAt: at(60) });
    // Nothing is due before the schedule says so.
    expect(await deliverAt(at(59), { contactId: contact.id })).toEqual([]);
    expect(received).toHaveLength(1);
    await deliverAt(at(60), { contactId: contact.id });
    expect(await deliveryOf(contact.id)).toMatchObject({ status: 'retrying', attempts: 2, nextAttemptAt: at(360) });
    mode = 'ok';
    expect(await deliverAt(at(359), { contactId: contact.id })).toEqual([]);
    await deliverAt(at(360), { contactId: contact.id });
    expect(await deliveryOf(contact.id)).toMatchObject({ status: 'delivered', attempts: 3, nextAttemptAt: null, deliveredAt: at(360) });
    const audits = await auditsOf(contact.id);
    expect(audits.map((a) => [a.attempt, a.succeeded, a.responseMessage, a.created.toISOString()])).toEqual([
      [1, false, 'HTTP 500 Internal Server Error', T0.toISOString()],
      [2, false, 'HTTP 500 Internal Server Error', at(60).toISOString()],
      [3, true, 'HTTP 200 OK', at(360).toISOString()],
    ]);
    expect(audits[0]!.responseBody).toBe('database unavailable');
    // Every attempt carries the same referral (webhook-id and referralId), signed at its own time.
    expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(new Set(received.map((r) => JSON.parse(r.body).data.referralId)).size).toBe(1);
    expect(received.map((r) => r.headers['webhook-timestamp'])).toEqual([T0, at(60), at(360)].map((d) => String(d.getTime() / 1000)));
    expect(received.map((r) => r.headers['x-rms-attempt'])).toEqual(['1', '2', '3']);
  });

  it('ends undelivered after the last attempt of the schedule, the contact and its referral kept', async () => {
    mode = 'fail';
    const { contact } = await completeRun();
    await deliverAt(at(60), { contactId: contact.id });
    await deliverAt(at(360), { contactId: contact.id });
    expect(await deliveryOf(contact.id)).toMatchObject({ status: 'undelivered', attempts: 3, nextAttemptAt: null, deliveredAt: null });
    expect(await deliverAt(at(100_000), { contactId: contact.id })).toEqual([]);
    expect(received).toHaveLength(3);
    expect(JSON.parse(h.phi.open(contact.valuesCiphertext))).toEqual(VALUES);
    expect(await h.db.select().from(referrals).where(eq(referrals.contactId, contact.id))).toHaveLength(1);
  });

  it('stops at once on a 422 (the receiver says never), without waiting for the schedule', async () => {
    mode = 'never';
    const { contact } = await completeRun();
    expect(await deliveryOf(contact.id)).toMatchObject({ status: 'undelivered', attempts: 1, nextAttemptAt: null });
    expect((await auditsOf(contact.id))[0]).toMatchObject({
      succeeded: false,
      responseMessage: 'HTTP 422 Unprocessable Entity',
      responseBody: '{"error":"site unknown"}',
    });
    expect(await deliverAt(at(86_400), { contactId: contact.id })).toEqual([]);
    expect(received).toHaveLength(1);
  });

  it("waits as long as a 429's Retry-After asks when that is longer than the schedule", async () => {
    mode = 'busy';
    const { contact } = await completeRun();
    expect(await deliveryOf(contact.id)).toMatchObject({ status: 'retrying', nextAttemptAt: at(600) });
    mode = 'ok';
    expect(await deliverAt(at(599), { contactId: contact.id })).toEqual([]);
    await deliverAt(at(600), { contactId: contact.id });
    expect(await deliveryOf(contact.id)).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it('cuts off an endpoint that does not answer after timeoutMs and retries it', async () => {
    mode = 'hang';
    await setProvider({ timeoutMs: 200 });
    const { contact } = await completeRun();
    expect((await auditsOf(contact.id)).map((a) => [a.attempt, a.succeeded, a.responseMessage])).toEqual([[1, false, 'Timed out after 200 ms.']]);
    expect(await deliveryOf(contact.id)).toMatchObject({ status: 'retrying', nextAttemptAt: at(60) });
  });

  it('retries when the record system cannot be reached, and loses nothing', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await setProvider({ endpointUrl: `http://127.0.0.1:${port}/gone` });
    const { contact } = await completeRun();
    const [audit] = await auditsOf(contact.id);
    expect(audit!.responseMessage).toMatch(/^Could not reach the record system/);
    expect(await deliveryOf(contact.id)).toMatchObject({ status: 'retrying', nextAttemptAt: at(60) });
  });

  it('answers the participant without waiting for the record system', async () => {
    mode = 'hold';
    held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await setProvider({ timeoutMs: 30_000 });
    const { contact } = await completeRun({ settle: false });
    // The participant has their answer while the record system has not answered yet; the
    // attempt is claimed (just after the answer), so no other process (or worker pass) makes it twice.
    await vi.waitFor(async () => expect((await deliveryOf(contact.id)).leaseId).not.toBeNull(), { timeout: 5000 });
    expect(await auditsOf(contact.id)).toHaveLength(0);
    expect(await deliverAt(T0, { contactId: contact.id })).toEqual([]);
    release();
    await settleDeliveries();
    expect(await auditsOf(contact.id)).toMatchObject([{ succeeded: true, responseBody: 'taken' }]);
    expect(received).toHaveLength(1);
  });

  it('holds deliveries to an inactive provider until it is active again', async () => {
    await setProvider({ isActive: false });
    const { contact } = await completeRun();
    expect(received).toHaveLength(0);
    expect(await deliveryOf(contact.id)).toMatchObject({ status: 'pending', attempts: 0 });
    // The worker does not spin on a paused delivery: it sleeps until its next poll.
    expect(await nextWaitMs(deliveryOptions(), 5000)).toBe(5000);
    await setProvider({ isActive: true });
    expect(await nextWaitMs(deliveryOptions(), 5000)).toBe(200);
    await deliverAt(at(5), { contactId: contact.id });
    expect(await deliveryOf(contact.id)).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  it('retries an attempt cut off by a crash once its lease runs out, and records it as interrupted', async () => {
    await setProvider({ isActive: false });
    const { contact } = await completeRun();
    await setProvider({ isActive: true });
    // A process claims the delivery and dies before it sends or records anything.
    const [lost] = await claimDue(h.db, T0, { contactId: contact.id });
    expect(lost).toMatchObject({ contactId: contact.id, attempt: 1, interrupted: false });
    // The lease (the provider's timeout and a minute) keeps every other process away meanwhile.
    expect(await deliverAt(at(69), { contactId: contact.id })).toEqual([]);
    expect(received).toHaveLength(0);
    const audits = await deliverAt(at(70), { contactId: contact.id });
    expect(audits.map((a) => [a.attempt, a.succeeded])).toEqual([[2, true]]);
    expect((await auditsOf(contact.id)).map((a) => [a.attempt, a.succeeded, a.responseMessage.startsWith('Interrupted')])).toEqual([
      [1, false, true],
      [2, true, false],
    ]);
    expect(received).toHaveLength(1);
    expect(await deliveryOf(contact.id)).toMatchObject({ status: 'delivered', attempts: 2, leaseId: null });
  });

  it("records an attempt's outcome on the delivery only while the lease is still that attempt's", async () => {
    await setProvider({ isActive: false });
    const first = (await completeRun()).contact;
    const second = (await completeRun({ values: { ...VALUES, email: 'lease.second@example.com' } })).contact;
    await setProvider({ isActive: true });
    const audit = (succeeded: boolean) => ({
      providerId,
      providerName: 'Test webhook',
      succeeded,
      responseMessage: succeeded ? 'HTTP 200 OK' : 'HTTP 500',
      responseBody: '',
    });
    for (const [contactId, staleSucceeds] of [
      [first.id, false],
      [second.id, true],
    ] as const) {
      // A slow process's lease runs out and another process claims the delivery again.
      const [slow] = await claimDue(h.db, T0, { contactId });
      const [taker] = await claimDue(h.db, at(70), { contactId });
      expect(taker).toMatchObject({ attempt: 2, interrupted: true });
      const held = await deliveryOf(contactId);
      expect(held).toMatchObject({ status: 'pending', leaseId: taker!.leaseId });
      // The slow one's outcome, undelivered or delivered, is kept as its audit only: the delivery stays the taker's.
      await recordAttempt(h.db, slow!, audit(staleSucceeds), { succeeded: staleSucceeds, retryable: false, retryAfterSeconds: null }, [60, 300], at(71));
      expect(await deliveryOf(contactId)).toEqual(held);
      expect((await auditsOf(contactId)).map((a) => [a.attempt, a.succeeded])).toEqual([[1, staleSucceeds]]);
      // The taker's outcome is the delivery's.
      await recordAttempt(h.db, taker!, audit(!staleSucceeds), { succeeded: !staleSucceeds, retryable: true, retryAfterSeconds: null }, [60, 300], at(72));
      expect(await deliveryOf(contactId)).toMatchObject(
        staleSucceeds ? { status: 'retrying', leaseId: null, nextAttemptAt: at(72 + 300) } : { status: 'delivered', leaseId: null, deliveredAt: at(72) },
      );
    }
    expect(received).toHaveLength(0);
  });

  it('records only, delivered at once, for an engagement without a record system', async () => {
    const { contact } = await completeRun({ site: null, engagementId: f.engagementIds[1] });
    expect(await deliveryOf(contact.id)).toMatchObject({ status: 'delivered', deliveredAt: T0 });
    expect(received).toHaveLength(0);
  });
});

describe('resending', () => {
  it('delivers a failed contact now and starts a fresh round; a delivered one only when meant, with the same referralId', async () => {
    mode = 'fail';
    const { contact } = await completeRun();
    mode = 'ok';
    h.clock.set(at(10));
    const resend = await h.request('POST', `/api/resend-rms-audit/${contact.id}`, { token: superToken });
    expect(resend.status).toBe(201);
    const doc = await json(resend);
    expect(doc.data).toMatchObject({ type: 'rms-audits', attributes: { contactId: contact.id, succeeded: true, attempt: 1, responseMessage: 'HTTP 200 OK' } });
    expect(doc.included).toEqual([{ type: 'rms-providers', id: String(providerId), attributes: { name: 'Test webhook', kind: 'webhook' } }]);
    expect(await deliveryOf(contact.id)).toMatchObject({ status: 'delivered', deliveredAt: at(10) });

    // Sending a delivered referral again would reach the receiver twice: refused unless meant.
    const twice = await h.request('POST', `/api/resend-rms-audit/${contact.id}`, { token: superToken });
    expect(twice.status).toBe(409);
    expect((await json(twice)).errors[0].detail).toContain('the record system would receive it twice');
    expect(received).toHaveLength(2);
    const again = await h.request('POST', `/api/resend-rms-audit/${contact.id}?again=true`, { token: superToken });
    expect(again.status).toBe(201);
    expect(received).toHaveLength(3);
    expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(await deliveryOf(contact.id)).toMatchObject({ status: 'delivered', deliveredAt: at(10), attempts: 2 });

    expect((await h.request('POST', '/api/resend-rms-audit/999999', { token: superToken })).status).toBe(404);
    expect((await h.request('POST', `/api/resend-rms-audit/${contact.id}?again=maybe`, { token: superToken })).status).toBe(400);
  });

  it('re-queues every undelivered contact the filters show, and only those', async () => {
    mode = 'never';
    const first = await completeRun();
    const second = await completeRun();
    mode = 'ok';
    const third = await completeRun();
    const res = await h.request('POST', `/api/resend-rms-audit?engagementId=${f.engagementIds[0]}&to=2031-05-06`, { token: superToken });
    expect(res.status).toBe(200);
    const { meta } = await json(res);
    expect(meta.queued).toBeGreaterThanOrEqual(2);
    await settleDeliveries();
    for (const run of [first, second]) expect(await deliveryOf(run.contact.id)).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(await auditsOf(third.contact.id)).toHaveLength(1);
    expect((await json(await h.request('POST', '/api/resend-rms-audit?status=undelivered', { token: superToken }))).meta.queued).toBe(0);
    expect((await h.request('POST', '/api/resend-rms-audit?from=yesterday', { token: superToken })).status).toBe(400);
  });
});

describe('the RMS audits list', () => {
  it('lists attempts for Super Users with each delivery state, filtered by status, provider, engagement and dates', async () => {
    mode = 'fail';
    const { contact } = await completeRun();
    const list = async (query: string) => json(await h.request('GET', `/api/rms-audits?${query}`, { token: superToken }));
    const retrying = await list(`status=retrying&include=rmsProviders&limit=100`);
    const row = retrying.data.find((d: { attributes: { contactId: number } }) => d.attributes.contactId === contact.id);
    expect(row.attributes).toMatchObject({
      deliveryStatus: 'retrying',
      nextAttemptAt: at(60).toISOString(),
      engagementId: f.engagementIds[0],
      succeeded: false,
    });
    expect(retrying.data.every((d: { attributes: { deliveryStatus: string } }) => d.attributes.deliveryStatus === 'retrying')).toBe(true);
    expect(retrying.included).toContainEqual({ type: 'rms-providers', id: String(providerId), attributes: { name: 'Test webhook', kind: 'webhook' } });
    expect(JSON.stringify(retrying)).not.toContain(SECRET.slice(6));

    const delivered = await list('status=delivered&limit=100');
    expect(delivered.data.length).toBeGreaterThan(0);
    expect(
      delivered.data.every(
        (d: { attributes: { deliveryStatus: string; nextAttemptAt: unknown } }) =>
          d.attributes.deliveryStatus === 'delivered' && d.attributes.nextAttemptAt === null,
      ),
    ).toBe(true);
    const byProvider = await list(`rmsProviderId=${providerId}&limit=100`);
    expect(byProvider.data.every((d: { attributes: { rmsProviderId: number } }) => d.attributes.rmsProviderId === providerId)).toBe(true);
    const otherEngagement = await list(`engagementId=${f.engagementIds[1]}&limit=100`);
    expect(otherEngagement.data.every((d: { attributes: { engagementId: number } }) => d.attributes.engagementId === f.engagementIds[1])).toBe(true);
    expect((await list('from=2031-05-07')).meta.total).toBe(0);
    expect((await list('to=2031-05-06&contactId=' + contact.id)).meta.total).toBe(1);
    expect((await list('from=2031-05-06T09:00:00Z&to=2031-05-06T09:00:01Z&contactId=' + contact.id)).meta.total).toBe(1);

    const newest = await list('');
    expect(newest.meta).toMatchObject({ page: 1, limit: 20 });
    for (const bad of ['status=lost', 'sort=responseBody', 'from=tomorrow', 'engagementId=x']) {
      expect((await h.request('GET', `/api/rms-audits?${bad}`, { token: superToken })).status, bad).toBe(400);
    }
    await h.createUser({ username: 'rms-admin', password: 'rms-admin-pass', roles: ['Admin'] });
    expect((await h.request('GET', '/api/rms-audits', { token: await h.token('rms-admin', 'rms-admin-pass') })).status).toBe(403);
  });
});

describe('the record system callback (Standard Webhooks signed)', () => {
  // Each message its own webhook-id, as a record system sends them, unless a test names one.
  let sent = 0;
  const callback = async (body: string, options: { secret?: string; atSeconds?: number; id?: string } = {}) =>
    h.request('POST', '/api/rms-callback', {
      body,
      headers: {
        'Content-Type': 'application/json',
        ...(options.secret
          ? await signStandardWebhook(options.secret, options.id ?? `msg_callback_${++sent}`, options.atSeconds ?? h.clock().getTime() / 1000, body)
          : {}),
      },
    });
  const counts = async () => (await json(await h.request('GET', `/api/referrals/counts/${f.engagementIds[0]}`, { token: superToken }))).data.attributes;
  const figures = async () => (await json(await h.request('GET', `/api/sponsors/${f.sponsorId}`, { token: superToken }))).data.attributes;

  it('refuses a missing, wrong, altered or stale signature with 401 and changes nothing', async () => {
    const { contact } = await completeRun();
    const body = JSON.stringify({ contactId: contact.id, screened: true });
    const before = await counts();
    expect((await callback(body)).status).toBe(401);
    expect((await callback(body, { secret: newWebhookSecret() })).status).toBe(401);
    const signed = await signStandardWebhook(SECRET, 'msg_1', h.clock().getTime() / 1000, body);
    const altered = await h.request('POST', '/api/rms-callback', { body: `${body} `, headers: { 'Content-Type': 'application/json', ...signed } });
    expect(altered.status).toBe(401);
    expect((await callback(body, { secret: SECRET, atSeconds: h.clock().getTime() / 1000 - 301 })).status).toBe(401);
    expect((await callback(JSON.stringify({ contactId: 999999, screened: true }), { secret: SECRET })).status).toBe(401);
    expect(await counts()).toEqual(before);
    expect((await callback('{"contactId":"x"}', { secret: SECRET })).status).toBe(422);
    expect((await callback('not json', { secret: SECRET })).status).toBe(400);
  });

  it('applies each webhook-id once: a replayed earlier message changes nothing after a later move', async () => {
    const { contact } = await completeRun();
    const first = JSON.stringify({ contactId: contact.id, status: 'in-screening' });
    const at = h.clock().getTime() / 1000;
    expect((await callback(first, { secret: SECRET, id: 'msg_first', atSeconds: at })).status).toBe(200);
    const later = JSON.stringify({ contactId: contact.id, status: 'screen-failed' });
    expect((await callback(later, { secret: SECRET, id: 'msg_later' })).status).toBe(200);
    // The first message again, exactly as signed, within the tolerance: answered as the referral
    // stands (not refused as a step down), and nothing is written.
    const eventsBefore = await h.db.select().from(referralEvents);
    const replay = await callback(first, { secret: SECRET, id: 'msg_first', atSeconds: at });
    expect(replay.status).toBe(200);
    expect((await json(replay)).data.attributes).toMatchObject({ contactId: contact.id, status: 'screen-failed' });
    expect(await h.db.select().from(referralEvents)).toHaveLength(eventsBefore.length);
    // The same message id on another contact is another message.
    const other = (await completeRun()).contact;
    const both = JSON.stringify({ contactId: other.id, status: 'enrolled' });
    // Two copies of one new message at the same moment: it is applied once.
    const answers = await Promise.all([callback(both, { secret: SECRET, id: 'msg_first' }), callback(both, { secret: SECRET, id: 'msg_first' })]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const [referral] = await h.db.select().from(referrals).where(eq(referrals.contactId, other.id));
    expect(referral!.status).toBe('enrolled');
    const moves = await h.db.select().from(referralEvents).where(eq(referralEvents.referralId, referral!.id));
    expect(moves.filter((e) => e.toStatus === 'enrolled')).toHaveLength(1);
    const kept = await h.db.select().from(rmsCallbackMessages).where(eq(rmsCallbackMessages.contactId, contact.id));
    expect(kept.map((k) => k.webhookId).sort()).toEqual(['msg_first', 'msg_later']);
  });

  it('marks the referral screened, then randomized, and the counts and sponsor figures follow', async () => {
    const { contact } = await completeRun();
    const before = await counts();
    const sponsorBefore = await figures();
    expect(before.total).toBeGreaterThan(0);

    const screened = JSON.stringify({ contactId: contact.id, screened: true });
    const res = await callback(screened, { secret: SECRET });
    expect(res.status).toBe(200);
    expect((await json(res)).data.attributes).toMatchObject({ contactId: contact.id, isScreened: true, isRandomized: false });
    expect(await counts()).toMatchObject({ total: before.total, screened: before.screened + 1, randomized: before.randomized });

    const randomized = JSON.stringify({ contactId: contact.id, randomized: true });
    expect((await callback(randomized, { secret: SECRET })).status).toBe(200);
    expect(await counts()).toMatchObject({ total: before.total, screened: before.screened + 1, randomized: before.randomized + 1 });
    expect(await figures()).toMatchObject({
      totalReferrals: sponsorBefore.totalReferrals,
      totalScreenedReferrals: sponsorBefore.totalScreenedReferrals + 1,
      totalRandomizedReferrals: sponsorBefore.totalRandomizedReferrals + 1,
    });
  });

  it('counts a referral in the sponsor figures and referral counts once it is delivered', async () => {
    const before = { counts: await counts(), figures: await figures() };
    mode = 'fail';
    const { contact } = await completeRun();
    expect((await counts()).total).toBe(before.counts.total);
    expect((await figures()).totalReferrals).toBe(before.figures.totalReferrals);
    mode = 'ok';
    await deliverAt(at(60), { contactId: contact.id });
    expect(await deliveryOf(contact.id)).toMatchObject({ status: 'delivered' });
    expect((await counts()).total).toBe(before.counts.total + 1);
    expect((await figures()).totalReferrals).toBe(before.figures.totalReferrals + 1);
  });
});
