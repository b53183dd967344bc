/**
 * Duplicate referrals on the real server and database, with a real local receiver as the
 * record system: the same person (e-mail in another case, or the same phone number) referred
 * to the same engagement within its window is kept as a duplicate of the first, never pushed,
 * and counted apart; the participant sees the usual completed outcome. Outside the window, for
 * another engagement, or with the window at 0 it is a referral again. The instants are the
 * server clock's, stated by the test.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createHarness, json, type Harness } from '../harness';
import { createParticipantFixture, leaveContact, type ParticipantFixture, runQualified, sendReferralsTo, TOKEN_HEADER } from '../../support/participantFixture';
import { referrals, rmsAudits, rmsDeliveries } from '../../../server/db/schema';
import { startRecordSystem, type RecordSystemReceiver } from '../../support/recordSystemReceiver';
import { settleDeliveries } from '../../../server/rms/worker';
import { contactMatcher, normalizeEmail, normalizePhone } from '../../../server/security/contactMatch';
import { newWebhookSecret } from '../../support/standardWebhooks';
import { RESEND_MESSAGES } from '@core/model/rmsAudit';
import { contactOf } from '../participantServer';

const DAY = 24 * 3600 * 1000;
const T0 = new Date('2031-03-02T08:00:00.000Z');
const at = (days: number) => new Date(T0.getTime() + days * DAY);

let h: Harness;
let f: ParticipantFixture;
let receiver: RecordSystemReceiver;
/** The bodies the record system received since the last `clearReceived()`. */
const received = () => receiver.received.map((r) => r.body);
const clearReceived = () => receiver.received.splice(0);

beforeAll(async () => {
  receiver = await startRecordSystem();
  h = await createHarness();
  f = await createParticipantFixture(h.db, { duplicateWindowDays: 90 });
  await sendReferralsTo(h.db, f, {
    name: 'Duplicate test receiver',
    endpointUrl: `${receiver.origin}/referrals`,
    signingSecret: h.phi.seal(newWebhookSecret()),
  });
});

afterAll(async () => {
  await settleDeliveries();
  await receiver.close();
  await h.close();
});

beforeEach(() => {
  clearReceived();
});

/** A qualified run leaving `values` at instant `when` (for the fixture's site, else engagement `engagementId`); answers the stored contact and the answer. */
async function refer(when: Date, values: Record<string, string>, engagementId?: number) {
  h.clock.set(when);
  const { submissionId, token } = await runQualified(h, f);
  const res = await h.request('POST', `/api/o-forms/o-form-submission-contact/${submissionId}`, {
    headers: { [TOKEN_HEADER]: token },
    body: {
      data: {
        attributes: {
          ...(engagementId === undefined ? { engagementSiteLocationId: String(f.engagementSiteLocationId) } : { engagementId }),
          values: { first_name: 'Ann', ...values },
          acceptTerms: true,
        },
      },
    },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const body = await json(res);
  await settleDeliveries();
  return { contact: (await contactOf(h, { submissionId }))!, body };
}

const deliveryOf = async (contactId: number) => (await h.db.select().from(rmsDeliveries).where(eq(rmsDeliveries.contactId, contactId)))[0];
const referralOf = async (contactId: number) => (await h.db.select().from(referrals).where(eq(referrals.contactId, contactId)))[0];
/** A Super User's token at the server clock's current instant. */
const staff = () => h.token();
const counts = async (engagementId: number) =>
  (await json(await h.request('GET', `/api/referrals/counts/${engagementId}`, { token: await staff() }))).data.attributes;
const sponsor = async () => (await json(await h.request('GET', `/api/sponsors/${f.sponsorId}`, { token: await staff() }))).data.attributes;

describe('the keyed hashes', () => {
  it('compare e-mail case- and space-insensitively and phone numbers by their digits (US numbers as 10)', () => {
    expect(normalizeEmail('  Ann.Lee@Example.COM ')).toBe('ann.lee@example.com');
    expect(normalizeEmail('not an address')).toBeNull();
    for (const phone of ['212-555-0100', '(212) 555-0100', '+1 212.555.0100', '12125550100', 2125550100]) expect(normalizePhone(phone)).toBe('2125550100');
    expect(normalizePhone('555-01')).toBeNull();
    const key = Buffer.alloc(32, 7);
    const m = contactMatcher(key);
    expect(m.phone('(212) 555-0100')).toBe(m.phone('+1-212-555-0100'));
    expect(m.email('ANN@example.com')).toBe(m.email('ann@example.com '));
    // Keyed: another key gives another hash, and the hash holds nothing of the value.
    expect(contactMatcher(Buffer.alloc(32, 8)).email('ann@example.com')).not.toBe(m.email('ann@example.com'));
    expect(m.email('ann@example.com')).not.toContain('ann');
  });
});

describe('duplicate referrals', () => {
  let first: Awaited<ReturnType<typeof refer>>;

  it('keeps the same person again (e-mail in another case) as a duplicate of the first, not pushed, outcome unchanged', async () => {
    first = await refer(T0, { email: 'Ann.Lee@Example.com', phone: '212-555-0100' });
    expect(first.contact.duplicateOf).toBeNull();
    expect((await deliveryOf(first.contact.id))?.status).toBe('delivered');
    expect(received()).toHaveLength(1);
    expect(first.contact.emailMatch).toMatch(/^[\w-]{43}$/);
    expect(first.contact.emailMatch).not.toContain('ann');
    expect(first.contact.phoneMatch).not.toContain('555');

    clearReceived();
    const again = await refer(at(10), { email: '  ann.lee@EXAMPLE.COM', phone: '646-555-0199' });
    expect(again.body).toEqual(first.body);
    expect(again.contact.duplicateOf).toBe(first.contact.id);
    expect(await deliveryOf(again.contact.id)).toBeUndefined();
    expect(await referralOf(again.contact.id)).toBeUndefined();
    expect(received()).toEqual([]);
    // The RMS audits list says so, and a resend is refused.
    const list = await json(await h.request('GET', `/api/rms-audits?contactId=${again.contact.id}`, { token: await staff() }));
    expect(list.data).toHaveLength(1);
    expect(list.data[0].attributes).toMatchObject({
      duplicateOf: first.contact.id,
      succeeded: false,
      attempt: 0,
      deliveryStatus: null,
      rmsProviderName: 'Duplicate test receiver',
    });
    expect(list.data[0].attributes.responseMessage).toContain(
      `duplicate of contact ${first.contact.id} (the same e-mail address, referred 2031-03-02, within the engagement's 90-day window)`,
    );
    const resend = await h.request('POST', `/api/resend-rms-audit/${again.contact.id}`, { token: await staff() });
    expect(resend.status).toBe(409);
    expect((await json(resend)).errors[0].detail).toBe(RESEND_MESSAGES.duplicate(again.contact.id, first.contact.id));
    await settleDeliveries();
    expect(received()).toEqual([]);
    expect(await deliveryOf(again.contact.id)).toBeUndefined();
  });

  it('finds the same phone number with another e-mail address', async () => {
    const again = await refer(at(20), { email: 'someone.else@example.org', phone: '212-555-0100' });
    expect(again.contact.duplicateOf).toBe(first.contact.id);
    expect(received()).toEqual([]);
    const [audit] = await h.db.select().from(rmsAudits).where(eq(rmsAudits.contactId, again.contact.id));
    expect(audit!.responseMessage).toContain('the same phone number');
  });

  it('counts duplicates apart: the total excludes them, their number stands beside it', async () => {
    expect(await counts(f.engagementIds[0])).toEqual({ total: 1, duplicates: 2, screened: 0, randomized: 0 });
    expect(await sponsor()).toMatchObject({ totalReferrals: 1, duplicateReferrals: 2 });
    const csv = await h.request('GET', `/api/rms-audits?engagementId=${f.engagementIds[0]}&fields=contactId,attempt,duplicateOf&sort=created`, {
      token: await staff(),
      headers: { Accept: 'text/csv' },
    });
    expect(csv.status).toBe(200);
    const lines = (await csv.text()).trim().split(/\r\n/);
    expect(lines[0]).toBe('id,contactId,attempt,duplicateOf');
    expect(lines.slice(1).map((l) => l.split(',').slice(2).join(','))).toEqual(['1,', `0,${first.contact.id}`, `0,${first.contact.id}`]);
  });

  it("leaves duplicates out of the funnel's contactLeft, as the referral counts do; the channel's completed runs keep them", async () => {
    const funnel = async (query: string) =>
      (await json(await h.request('GET', `/api/recruitment-funnel?${query}`, { token: await staff() }))).data[0].attributes;
    const ofEngagement = await funnel(`engagementId=${f.engagementIds[0]}`);
    const referralCounts = await counts(f.engagementIds[0]);
    expect({ contactLeft: ofEngagement.contactLeft, delivered: ofEngagement.delivered }).toEqual({ contactLeft: 1, delivered: 1 });
    expect(referralCounts.total).toBe(ofEngagement.delivered);
    // Three runs left a contact on the channel: the first and its two duplicates.
    const channel = (await json(await h.request('GET', `/api/media-channels/${f.mediaChannelId}`, { token: await staff() }))).data.attributes;
    const ofChannel = await funnel(`mediaChannelId=${f.mediaChannelId}`);
    expect(channel.submissionsCompleted).toBe(3);
    expect(channel.submissionsCompleted).toBe(ofChannel.contactLeft + referralCounts.duplicates);
  });

  it('is a referral again for another engagement', async () => {
    const other = await refer(at(21), { email: 'ann.lee@example.com', phone: '212-555-0100' }, f.engagementIds[1]);
    expect(other.contact.duplicateOf).toBeNull();
    expect(await referralOf(other.contact.id)).toBeDefined();
    expect(await deliveryOf(other.contact.id)).toBeDefined();
  });

  it('is a referral again once the window after the first has passed', async () => {
    const inside = await refer(new Date(at(90).getTime() - 1000), { email: 'ANN.LEE@example.com', phone: '917-555-0111' });
    expect(inside.contact.duplicateOf).toBe(first.contact.id);
    clearReceived();
    const outside = await refer(new Date(at(90).getTime() + 1000), { email: 'ann.lee@example.com', phone: '917-555-0111' });
    expect(outside.contact.duplicateOf).toBeNull();
    expect((await deliveryOf(outside.contact.id))?.status).toBe('delivered');
    expect(received()).toHaveLength(1);
    expect(await counts(f.engagementIds[0])).toMatchObject({ total: 2, duplicates: 3 });
  });

  it("follows the engagement's own window, set through the API (0: never a duplicate)", async () => {
    const path = `/api/engagements/${f.engagementIds[0]}`;
    const patch = async (value: unknown) =>
      h.request('PATCH', path, {
        token: await staff(),
        body: { data: { type: 'engagements', id: String(f.engagementIds[0]), attributes: { duplicateWindowDays: value } } },
      });
    // A new engagement's window is 90 days unless it says otherwise.
    const made = await h.request('POST', '/api/engagements', {
      token: await staff(),
      body: { data: { type: 'engagements', attributes: { name: 'Window default', identification: `WD-${f.sponsorId}`, sponsorId: f.sponsorId } } },
    });
    expect(made.status, await made.clone().text()).toBe(201);
    expect((await json(made)).data.attributes.duplicateWindowDays).toBe(90);
    const bad = await patch(-1);
    expect(bad.status).toBe(422);
    expect((await json(bad)).errors[0]).toMatchObject({
      source: { pointer: '/data/attributes/duplicateWindowDays' },
      detail: 'Must be a whole number of days from 0 to 3650.',
    });
    const ok = await patch(0);
    expect(ok.status, await ok.clone().text()).toBe(200);
    expect((await json(ok)).data.attributes.duplicateWindowDays).toBe(0);
    const again = await refer(at(92), { email: 'ann.lee@example.com', phone: '917-555-0111' });
    expect(again.contact.duplicateOf).toBeNull();
    expect(await referralOf(again.contact.id)).toBeDefined();
    expect((await patch(90)).status).toBe(200);
  });

  it('tells two runs of the same person at the same moment apart: one referral, one duplicate', async () => {
    h.clock.set(at(200));
    const runs = await Promise.all([runQualified(h, f), runQualified(h, f)]);
    const results = await Promise.all(
      runs.map(({ submissionId, token }) => leaveContact(h, f, { submissionId, token }, { first_name: 'Bo', email: 'bo@example.com', phone: '303-555-0123' })),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201]);
    await settleDeliveries();
    const stored = await Promise.all(runs.map(async (run) => (await contactOf(h, run))!));
    const originals = stored.filter((c) => c.duplicateOf === null);
    expect(originals).toHaveLength(1);
    expect(stored.find((c) => c.duplicateOf !== null)!.duplicateOf).toBe(originals[0]!.id);
  });
});
