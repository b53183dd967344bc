/**
 * The definitions several figures share, held at their edges on the real server and database:
 * "delivered" (server/referrals/delivered.ts) in the sponsors' figures, an engagement's referral counts
 * and the funnel, for every delivery state; "started" (a submission whose participant saved a
 * page's answers) in the funnel and the media channel's figures, for runs that never save one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { FUNNEL_STAGES } from '@core/model/funnel';
import { createHarness, doc, json, type Harness } from '../harness';
import {
  answerPage,
  createParticipantFixture,
  leaveContact,
  runQualified,
  startSubmission,
  TOKEN_HEADER,
  type ParticipantFixture,
} from '../../support/participantFixture';
import { contacts, mediaChannelFigures, oFormSubmissions, referralReasons, referrals, rmsDeliveries } from '../../../server/db/schema';
import { channelFigures } from '../../../server/participant/channelFigures';
import { settleDeliveries } from '../../../server/rms/worker';
import { DELIVERY_STATUS } from '../../../server/rms/outbox';

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

/** The funnel's rows for `query` summed, by stage. */
async function funnelTotals(query: string, server = { h, admin }): Promise<Record<string, number>> {
  const res = await server.h.request('GET', `/api/recruitment-funnel?${query}`, { token: server.admin });
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
  return (
    await h.db
      .select()
      .from(contacts)
      .where(eq(contacts.submissionId, Number(submissionId)))
  )[0]!.id;
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
    await h.db
      .update(referrals)
      .set({ isScreened: true, isRandomized: true })
      .where(inArray(referrals.contactId, Object.values(byState)));
    expect(
      await h.db
        .select({ n: sql<number>`count(*)::int` })
        .from(referrals)
        .where(inArray(referrals.contactId, Object.values(byState))),
    ).toEqual([{ n: 4 }]);
    // A referral recorded before contacts existed has nothing to deliver: it counts.
    await h.db.insert(referrals).values({ engagementId: f.engagementIds[0], isScreened: true });

    const sponsor = (await json(await h.request('GET', `/api/sponsors/${f.sponsorId}`, { token: admin }))).data.attributes;
    expect({ referrals: sponsor.totalReferrals, screened: sponsor.totalScreenedReferrals, randomized: sponsor.totalRandomizedReferrals }).toEqual({
      referrals: 2,
      screened: 2,
      randomized: 1,
    });
    const counts = (await json(await h.request('GET', `/api/referrals/counts/${f.engagementIds[0]}`, { token: admin }))).data.attributes;
    expect({ total: counts.total, screened: counts.screened, randomized: counts.randomized }).toEqual({ total: 2, screened: 2, randomized: 1 });

    // The funnel's stage, from the daily rollup and counted over the submissions.
    const expected = { contactLeft: 4, delivered: 1, reached: 1, screened: 1, screenFailed: 0, randomized: 1 };
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

describe('the stages after delivery, from the status ladder', () => {
  it('counts reached, screened, screen-failed and randomized as staff move referrals, agreeing with the referral counts', async () => {
    const f = await createParticipantFixture(h.db);
    const emails = ['reached@example.com', 'failed@example.com', 'enrolled@example.com', 'waiting@example.com'];
    const contactIds: number[] = [];
    for (const email of emails) contactIds.push(await contactOf(f, email));
    await h.db.update(rmsDeliveries).set({ status: DELIVERY_STATUS.delivered }).where(inArray(rmsDeliveries.contactId, contactIds));
    const rows = await h.db.select({ id: referrals.id, contactId: referrals.contactId }).from(referrals).where(inArray(referrals.contactId, contactIds));
    const idOf = (i: number) => rows.find((r) => r.contactId === contactIds[i])!.id;
    const patch = async (i: number, attributes: Record<string, unknown>) => {
      const res = await h.request('PATCH', `/api/referrals/${idOf(i)}`, { token: admin, body: doc('referrals', attributes, String(idOf(i))) });
      expect(res.status, await res.clone().text()).toBe(200);
    };
    // Reached by phone, still attempting contact; screened and failed; screened and enrolled; never reached.
    const reached = await h.request('POST', `/api/referrals/${idOf(0)}/contact-attempts`, {
      token: admin,
      body: doc('contact-attempts', { channel: 'phone', result: 'reached' }),
    });
    expect(reached.status, await reached.clone().text()).toBe(201);
    const [reason] = await h.db.select({ id: referralReasons.id }).from(referralReasons).where(eq(referralReasons.status, 'screen-failed')).limit(1);
    await patch(1, { status: 'contacted' });
    await patch(1, { status: 'in-screening' });
    await patch(1, { status: 'screen-failed', reasonId: reason!.id });
    await patch(2, { status: 'in-screening' });
    await patch(2, { status: 'eligible' });
    await patch(2, { status: 'enrolled' });

    const expected = { contactLeft: 4, delivered: 4, reached: 3, screened: 2, screenFailed: 1, randomized: 1 };
    expect(await funnelTotals(`sponsorId=${f.sponsorId}`)).toMatchObject(expected);
    expect(await funnelTotals(`sponsorId=${f.sponsorId}&groupBy=site`)).toMatchObject(expected);
    const counts = (await json(await h.request('GET', `/api/referrals/counts/${f.engagementIds[0]}`, { token: admin }))).data.attributes;
    expect({ screened: counts.screened, randomized: counts.randomized }).toEqual({ screened: 2, randomized: 1 });

    // The enrolled participant withdraws: still screened and randomized, as the counts keep it.
    await patch(2, {
      status: 'withdrawn',
      reasonId: (await h.db.select({ id: referralReasons.id }).from(referralReasons).where(eq(referralReasons.status, 'withdrawn')).limit(1))[0]!.id,
    });
    expect(await funnelTotals(`sponsorId=${f.sponsorId}`)).toMatchObject(expected);
  });
});

describe('started, one definition', () => {
  it('counts a run as started once its participant saved a page, in the funnel and the channel figures alike', async () => {
    // Four page saves (a refused one too) a minute per channel: the last run's first save is over it.
    const limited = await createHarness({ PARTICIPANT_PAGES_PER_CHANNEL: '4' });
    try {
      limited.clock.set('2031-03-03T10:00:00Z');
      const server = { h: limited, admin: await limited.token() };
      const f = await createParticipantFixture(limited.db);
      const start = () => startSubmission(limited, f, { withFirstPage: true });
      // Created and never saved, as a participant who leaves at the first page.
      const never = await start();
      // The first save refused: a required question unanswered.
      const refused = await start();
      expect((await answerPage(limited, refused.token, refused.firstEntryId, {})).meta.errors).toEqual({ q_choice: expect.any(String) });
      // Started: one page saved, and one run through two.
      const saved = await start();
      expect((await answerPage(limited, saved.token, saved.firstEntryId, { q_choice: 'yes' })).status).toBe(200);
      const further = await start();
      const p1 = await answerPage(limited, further.token, further.firstEntryId, { q_choice: 'yes' });
      expect((await answerPage(limited, further.token, p1.meta.nextContainerEntryId!, { q_dob: '1980-06-15' })).status).toBe(200);
      // The first save over the channel's limit.
      const late = await start();
      expect((await answerPage(limited, late.token, late.firstEntryId, { q_choice: 'yes' })).status).toBe(429);

      const rows = await limited.db
        .select({ id: oFormSubmissions.id, startedAt: oFormSubmissions.startedAt })
        .from(oFormSubmissions)
        .where(eq(oFormSubmissions.oFormId, f.oFormId));
      expect(rows).toHaveLength(5);
      expect(
        rows
          .filter((r) => r.startedAt !== null)
          .map((r) => String(r.id))
          .sort(),
      ).toEqual([saved.submissionId, further.submissionId].sort());
      const figures = async () => (await channelFigures(limited.db, [f.mediaChannelId])).get(f.mediaChannelId)!.submissionsStarted;
      const funnel = async () => [
        (await funnelTotals(`mediaChannelId=${f.mediaChannelId}`, server)).started,
        (await funnelTotals(`mediaChannelId=${f.mediaChannelId}&groupBy=source`, server)).started,
      ];
      expect(await figures()).toBe(2);
      expect(await funnel()).toEqual([2, 2]);
      const channel = (await json(await limited.request('GET', `/api/media-channels/${f.mediaChannelId}`, { token: server.admin }))).data.attributes;
      expect(channel.submissionsStarted).toBe(2);

      // A minute on, the late run's save goes through: it starts, in both.
      limited.clock.advance(61_000);
      expect((await answerPage(limited, late.token, late.firstEntryId, { q_choice: 'yes' })).status).toBe(200);
      expect(await figures()).toBe(3);
      expect(await funnel()).toEqual([3, 3]);
      expect(never.submissionId).not.toBe(late.submissionId);
    } finally {
      await settleDeliveries();
      await limited.close();
    }
  });

  it('has figures counted at creation before counted again from the started runs by the migration', async () => {
    const f = await createParticipantFixture(h.db);
    const saved = await startSubmission(h, f, { withFirstPage: true });
    expect((await answerPage(h, saved.token, saved.firstEntryId, { q_choice: 'yes' })).status).toBe(200);
    const flagged = await startSubmission(h, f, { withFirstPage: true });
    expect((await answerPage(h, flagged.token, flagged.firstEntryId, { q_choice: 'yes' })).status).toBe(200);
    await h.db
      .update(oFormSubmissions)
      .set({ possibleRetake: true })
      .where(eq(oFormSubmissions.id, Number(flagged.submissionId)));
    await startSubmission(h, f, { withFirstPage: true });
    // As the figures stood before: every created run counted, on other shards too.
    // Counts land on a shard picked at random, so shard 7 may hold this channel's row already.
    await h.db
      .insert(mediaChannelFigures)
      .values({ mediaChannelId: f.mediaChannelId, shard: 7, submissionsStarted: 3, possibleRetakes: 2, views: 4 })
      .onConflictDoUpdate({
        target: [mediaChannelFigures.mediaChannelId, mediaChannelFigures.shard],
        set: { submissionsStarted: 3, possibleRetakes: 2, views: 4 },
      });
    const dir = path.join(import.meta.dirname, '../../../server/db/migrations');
    const file = fs.readdirSync(dir).find((name) => name.endsWith('_started_figures.sql'))!;
    const statements = fs
      .readFileSync(path.join(dir, file), 'utf8')
      .split('--> statement-breakpoint')
      .map((s) => s.trim());
    for (const statement of statements) await h.db.execute(sql.raw(statement));
    expect((await channelFigures(h.db, [f.mediaChannelId])).get(f.mediaChannelId)).toMatchObject({ submissionsStarted: 2, possibleRetakes: 1, views: 4 });
    expect((await funnelTotals(`mediaChannelId=${f.mediaChannelId}`)).started).toBe(2);
  });
});
