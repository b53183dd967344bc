/**
 * Record systems feed the referral ladder: the signed JSON callback's `status` (and the older
 * flags), every FHIR R4 ResearchSubject status, moves the ladder refuses (409), and callbacks
 * from the provider that delivered a referral after its engagement switched providers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditEvents, engagements, referralEvents, referrals, rmsDeliveries } from '../../../server/db/schema';
import { FHIR_SUBJECT_STATUSES } from '@core/model/rmsAudit';
import { createHarness, json, type Harness } from '../harness';
import { createParticipantFixture, runQualified, sendReferralsTo, type ParticipantFixture } from '../../support/participantFixture';
import { contactLeft } from '../participantServer';
import { newWebhookSecret, signStandardWebhook } from '../../support/standardWebhooks';
import { startRecordSystem, type RecordSystemReceiver } from '../../support/recordSystemReceiver';

const T0 = new Date('2031-09-14T10:00:00.000Z');
const FIRST = newWebhookSecret();
const SECOND = newWebhookSecret();
let h: Harness;
let f: ParticipantFixture;
let receiver: RecordSystemReceiver;
let firstProvider: number;

beforeAll(async () => {
  receiver = await startRecordSystem();
  h = await createHarness();
  h.clock.set(T0);
  f = await createParticipantFixture(h.db);
  firstProvider = await sendReferralsTo(h.db, f, { name: 'First record system', endpointUrl: `${receiver.origin}/contacts`, signingSecret: h.phi.seal(FIRST) });
});
afterAll(async () => {
  await h?.close();
  await receiver?.close();
});

/** A qualified participant's contact, delivered to the engagement's record system. */
async function delivered() {
  const { submissionId, token } = await runQualified(h, f);
  // Each a different person: the same e-mail or phone again would be a duplicate, never sent.
  const n = String(1000 + Number(submissionId)).slice(-4);
  const contact = await contactLeft(h, f, { submissionId, token }, { first_name: 'Noor', email: `noor.${submissionId}@example.com`, phone: `212-555-${n}` });
  const [delivery] = await h.db.select().from(rmsDeliveries).where(eq(rmsDeliveries.contactId, contact.id));
  expect(delivery!.status).toBe('delivered');
  return { contactId: contact.id, referralKey: delivery!.referralKey };
}

const statusOf = async (contactId: number) =>
  (await h.db.select({ status: referrals.status }).from(referrals).where(eq(referrals.contactId, contactId)))[0]!.status;

let message = 0;
const callback = async (secret: string, body: Record<string, unknown>) => {
  const raw = JSON.stringify(body);
  message += 1;
  return h.request('POST', '/api/rms-callback', {
    body: raw,
    headers: { 'Content-Type': 'application/json', ...(await signStandardWebhook(secret, `msg_ladder_${message}`, h.clock().getTime() / 1000, raw)) },
  });
};
const fhir = (provider: number, secret: string, referralKey: string, status: string) =>
  h.request('POST', `/api/rms-callback/fhir/${provider}`, {
    body: JSON.stringify({ resourceType: 'ResearchSubject', identifier: [{ system: 'urn:ietf:rfc:3986', value: `urn:uuid:${referralKey}` }], status }),
    headers: { 'Content-Type': 'application/fhir+json', Authorization: `Bearer ${secret}` },
  });

describe('the JSON callback', () => {
  it('moves the referral to the status it names, as the record system, once; refuses a step down with 409', async () => {
    const { contactId } = await delivered();
    const res = await callback(FIRST, { contactId, status: 'contacted' });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await json(res)).data.attributes).toMatchObject({ contactId, status: 'contacted', isScreened: false });
    expect((await callback(FIRST, { contactId, status: 'contacted' })).status).toBe(200);
    const [referral] = await h.db.select().from(referrals).where(eq(referrals.contactId, contactId));
    const events = await h.db.select().from(referralEvents).where(eq(referralEvents.referralId, referral!.id));
    expect(events.map((e) => [e.fromStatus, e.toStatus, e.actorName, e.actorUserId])).toEqual([['new', 'contacted', 'First record system', null]]);
    const trail = await h.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entity, 'referrals'), eq(auditEvents.entityId, String(referral!.id))));
    expect(trail.map((e) => [e.action, e.actorUserId, e.meta.to, e.meta.rmsProviderName])).toEqual([['status', null, 'contacted', 'First record system']]);

    const down = await callback(FIRST, { contactId, status: 'new' });
    expect(down.status).toBe(409);
    expect((await json(down)).errors[0].source.pointer).toBe('/status');
    expect((await callback(FIRST, { contactId, status: 'lost' })).status).toBe(422);
    expect(await statusOf(contactId)).toBe('contacted');
    // The older flags still move it.
    expect((await callback(FIRST, { contactId, randomized: true })).status).toBe(200);
    expect(await statusOf(contactId)).toBe('enrolled');
  });
});

describe('the FHIR callback', () => {
  it('maps every R4 ResearchSubject status onto the ladder', async () => {
    for (const [status, rung] of Object.entries(FHIR_SUBJECT_STATUSES)) {
      const { contactId, referralKey } = await delivered();
      const res = await fhir(firstProvider, FIRST, referralKey, status);
      expect(res.status, `${status}: ${await res.clone().text()}`).toBe(200);
      expect(await statusOf(contactId), status).toBe(rung ?? 'new');
    }
    const { contactId, referralKey } = await delivered();
    expect((await fhir(firstProvider, FIRST, referralKey, 'ineligible')).status).toBe(200);
    // Screen failed is closed: a later on-study is refused, not counted.
    expect((await fhir(firstProvider, FIRST, referralKey, 'on-study')).status).toBe(409);
    expect(await statusOf(contactId)).toBe('screen-failed');
  });
});

describe('after the engagement switches record systems', () => {
  it('still takes callbacks from the system that delivered the referral, and from the new one; no other', async () => {
    const { contactId, referralKey } = await delivered();
    const second = await sendReferralsTo(h.db, f, { name: 'Second record system', endpointUrl: `${receiver.origin}/other`, signingSecret: h.phi.seal(SECOND) });
    const [engagement] = await h.db.select({ provider: engagements.rmsProviderId }).from(engagements).where(eq(engagements.id, f.engagementIds[0]));
    expect(engagement!.provider).toBe(second);

    expect((await callback(FIRST, { contactId, status: 'contacted' })).status).toBe(200);
    expect((await fhir(firstProvider, FIRST, referralKey, 'screening')).status).toBe(200);
    expect((await callback(SECOND, { contactId, status: 'eligible' })).status).toBe(200);
    expect(await statusOf(contactId)).toBe('eligible');

    const stranger = newWebhookSecret();
    const third = await sendReferralsTo(h.db, f, { name: 'Third record system', endpointUrl: `${receiver.origin}/third`, signingSecret: h.phi.seal(stranger) });
    await h.db.update(engagements).set({ rmsProviderId: second }).where(eq(engagements.id, f.engagementIds[0]));
    expect((await callback(stranger, { contactId, status: 'enrolled' })).status).toBe(401);
    expect((await fhir(third, stranger, referralKey, 'on-study')).status).toBe(401);
    expect(await statusOf(contactId)).toBe('eligible');
  });
});
