/**
 * The definitions several figures share, held at their edges on the real server and database:
 * "delivered" (server/rms/delivered.ts) in the sponsors' figures, an engagement's referral counts
 * and the funnel, for every delivery state; "started" (a submission whose participant saved a
 * page's answers) in the funnel and the media channel's figures, for runs that never save one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { FUNNEL_STAGES } from '@core/model/funnel';
import { createHarness, json, type Harness } from './harness';
import { createParticipantFixture, leaveContact, runQualified, TOKEN_HEADER, type ParticipantFixture } from '../support/participantFixture';
import { contacts, referrals, rmsDeliveries } from '../../server/db/schema';
import { settleDeliveries } from '../../server/rms/worker';
import { DELIVERY_STATUS } from '../../server/rms/delivered';

let h: Harness;
let admin: string;

beforeAll(async () => {
  h = await createHarness();
  admin = await h.token();
});

afterAll(async () => {
  await settleDeliveries();
  await h.close();
});

const withToken = (token: string) => ({ [TOKEN_HEADER]: token });

/** The funnel's one row for `query`, by stage. */
async function funnelTotals(query: string): Promise<Record<string, number>> {
  const res = await h.request('GET', `/api/recruitment-funnel?${query}`, { token: admin });
  expect(res.status, await res.clone().text()).toBe(200);
  const rows = (await json(res)).data as { attributes: Record<string, number> }[];
  return Object.fromEntries(FUNNEL_STAGES.map((s) => [s, rows.reduce((n, r) => n + r.attributes[s]!, 0)]));
}

/** A run qualified with a site chosen and its contact left; answers the contact's id once its delivery settled. */
async function contactOf(f: ParticipantFixture, email: string): Promise<number> {
  const { submissionId, token } = await runQualified(h, f);
  expect((await h.request('GET', `/api/o-forms/o-form-submission-qualification/${submissionId}`, { headers: withToken(token) })).status).toBe(200);
  const res = await leaveContact(h, f, { submissionId, token }, { first_name: 'Ada', email, phone: '212-555-0100' });
  expect(res.status, await res.clone().text()).toBe(201);
  await settleDeliveries();
  return (await h.db.select().from(contacts).where(eq(contacts.submissionId, Number(submissionId))))[0]!.id;
}

describe('delivered, one definition', () => {
  it('counts a referral once its record system accepted it, never while pending or retrying nor once undelivered, in every figure', async () => {
    const f = await createParticipantFixture(h.db);
    const byState = {
      [DELIVERY_STATUS.delivered]: await contactOf(f, 'delivered@example.com'),
      [DELIVERY_STATUS.pending]: await contactOf(f, 'pending@example.com'),
      [DELIVERY_STATUS.retrying]: await contactOf(f, 'retrying@example.com'),
      [DELIVERY_STATUS.undelivered]: await contactOf(f, 'undelivered@example.com'),
    };
    // Each contact's delivery in its state, as the outbox leaves it; every referral screened and randomized.
    for (const [status, contactId] of Object.entries(byState)) await h.db.update(rmsDeliveries).set({ status }).where(eq(rmsDeliveries.contactId, contactId));
    await h.db.update(referrals).set({ isScreened: true, isRandomized: true }).where(inArray(referrals.contactId, Object.values(byState)));
    expect(await h.db.select({ n: sql<number>`count(*)::int` }).from(referrals).where(inArray(referrals.contactId, Object.values(byState)))).toEqual([{ n: 4 }]);
    // A referral recorded before contacts existed has nothing to deliver: it counts.
    await h.db.insert(referrals).values({ engagementId: f.engagementIds[0], isScreened: true });

    const sponsor = (await json(await h.request('GET', `/api/sponsors/${f.sponsorId}`, { token: admin }))).data.attributes;
    expect({ referrals: sponsor.totalReferrals, screened: sponsor.totalScreenedReferrals, randomized: sponsor.totalRandomizedReferrals }).toEqual({ referrals: 2, screened: 2, randomized: 1 });
    const counts = (await json(await h.request('GET', `/api/referrals/counts/${f.engagementIds[0]}`, { token: admin }))).data.attributes;
    expect({ total: counts.total, screened: counts.screened, randomized: counts.randomized }).toEqual({ total: 2, screened: 2, randomized: 1 });

    // The funnel's stage, from the daily rollup and counted over the submissions.
    const expected = { contacted: 4, delivered: 1, screened: 1, randomized: 1 };
    expect(await funnelTotals(`sponsorId=${f.sponsorId}`)).toMatchObject(expected);
    expect(await funnelTotals(`sponsorId=${f.sponsorId}&groupBy=source`)).toMatchObject(expected);

    // Accepted at last: every figure moves by one.
    await h.db.update(rmsDeliveries).set({ status: DELIVERY_STATUS.delivered }).where(eq(rmsDeliveries.contactId, byState.undelivered));
    expect((await json(await h.request('GET', `/api/sponsors/${f.sponsorId}`, { token: admin }))).data.attributes.totalReferrals).toBe(3);
    expect((await json(await h.request('GET', `/api/referrals/counts/${f.engagementIds[0]}`, { token: admin }))).data.attributes.total).toBe(3);
    expect(await funnelTotals(`sponsorId=${f.sponsorId}`)).toMatchObject({ delivered: 2 });
    expect(await funnelTotals(`sponsorId=${f.sponsorId}&groupBy=source`)).toMatchObject({ delivered: 2 });
  });
});
