/**
 * Retention on the real database: the answers of submissions that never completed are deleted
 * once untouched for the retention days, at instants the test states; completed submissions and
 * recent ones keep theirs, and the submissions, their page entries, the funnel's outcomes and
 * the channel's figures keep their numbers. Two runs at once delete each answer once.
 */
import { describe, expect, it } from 'vitest';
import { count, eq, inArray } from 'drizzle-orm';
import { json, type Harness } from '../harness';
import { answerPage, leaveContact, runQualified, startSubmission, type ParticipantFixture, withToken } from '../../support/participantFixture';
import { useParticipantServer } from '../participantServer';
import { oFormContainerEntries, oFormSubmissions } from '../../../server/db/schema';
import { storedAnswersOf } from '../storedAnswers';
import { channelFigures } from '../../../server/participant/channelFigures';
import { createLogger } from '../../../server/log';
import { deleteExpiredAnswers } from '../../../server/participant/retention';
import { startRetentionJob } from '../../../server/retention';
import { settleDeliveries } from '../../../server/rms/worker';

let h: Harness;
let f: ParticipantFixture;

useParticipantServer((server) => ({ h, f } = server));

const NOW = new Date('2027-01-10T09:00:00Z');
const daysBefore = (days: number) => new Date(NOW.getTime() - days * 24 * 3600 * 1000);

const answerCount = async (submissionId: string) => (await storedAnswersOf(h.db, submissionId)).length;
const touchedAt = (submissionId: string, at: Date) =>
  h.db
    .update(oFormSubmissions)
    .set({ modified: at })
    .where(eq(oFormSubmissions.id, Number(submissionId)));

/** A run stopped after page 2 (incomplete). */
async function stoppedRun() {
  const s = await startSubmission(h, f);
  const p1 = await answerPage(h, s.token, s.firstEntryId, { q_choice: 'yes' });
  await answerPage(h, s.token, p1.meta.nextContainerEntryId!, { q_dob: '1980-06-15', q_text: 'stopped' });
  return s;
}

/** A run that reached notQualified and left no contact. */
async function notQualifiedRun() {
  const s = await startSubmission(h, f);
  const p1 = await answerPage(h, s.token, s.firstEntryId, { q_choice: 'no' });
  const p2 = await answerPage(h, s.token, p1.meta.nextContainerEntryId!, { q_dob: '1980-06-15' });
  await answerPage(h, s.token, p2.meta.nextContainerEntryId!, { q_zip: '10001' });
  const q = await h.request('GET', `/api/o-forms/o-form-submission-qualification/${s.submissionId}`, { headers: withToken(s.token) });
  expect((await json(q)).meta.outcome).toBe('notQualified');
  return s;
}

async function completedRun() {
  const run = await runQualified(h, f);
  await h.request('GET', `/api/o-forms/o-form-submission-qualification/${run.submissionId}`, { headers: withToken(run.token) });
  const res = await leaveContact(h, f, run, { first_name: 'Ada', email: 'ada.kept@example.com', phone: '212-555-0100' });
  expect(res.status).toBe(201);
  return run;
}

/** What the funnel and the channel's figures are built from. */
async function counts(ids: readonly string[]) {
  const submissions = await h.db
    .select({ id: oFormSubmissions.id, status: oFormSubmissions.status, outcome: oFormSubmissions.outcome, isQualified: oFormSubmissions.isQualified })
    .from(oFormSubmissions)
    .where(inArray(oFormSubmissions.id, ids.map(Number)))
    .orderBy(oFormSubmissions.id);
  const entries = await h.db
    .select({ n: count() })
    .from(oFormContainerEntries)
    .where(inArray(oFormContainerEntries.submissionId, ids.map(Number)));
  const funnel = await h.request('GET', `/api/recruitment-funnel?mediaChannelId=${f.mediaChannelId}`, { token: await h.token() });
  expect(funnel.status).toBe(200);
  return {
    submissions,
    pageEntries: entries[0]!.n,
    figures: (await channelFigures(h.db, [f.mediaChannelId])).get(f.mediaChannelId),
    funnel: (await json(funnel)).data.map((row: { attributes: unknown }) => row.attributes),
  };
}

describe('retention of answers', () => {
  it('deletes the answers of old submissions that never completed, and keeps every count', async () => {
    const oldStopped = await stoppedRun();
    const oldNotQualified = await notQualifiedRun();
    const recentStopped = await stoppedRun();
    const oldCompleted = await completedRun();
    await settleDeliveries();
    await touchedAt(oldStopped.submissionId, daysBefore(181));
    await touchedAt(oldNotQualified.submissionId, daysBefore(400));
    await touchedAt(recentStopped.submissionId, daysBefore(179));
    await touchedAt(oldCompleted.submissionId, daysBefore(500));
    const ids = [oldStopped, oldNotQualified, recentStopped, oldCompleted].map((s) => s.submissionId);
    const before = await counts(ids);
    expect(await answerCount(oldStopped.submissionId)).toBe(3);
    expect(await answerCount(oldCompleted.submissionId)).toBe(5);

    expect(await deleteExpiredAnswers(h.db, NOW, 180)).toEqual({ submissions: 2, answers: 3 + 3 });
    expect(await answerCount(oldStopped.submissionId)).toBe(0);
    expect(await answerCount(oldNotQualified.submissionId)).toBe(0);
    expect(await answerCount(recentStopped.submissionId)).toBe(3);
    expect(await answerCount(oldCompleted.submissionId)).toBe(5);
    expect(await counts(ids)).toEqual(before);
    expect(before.figures).toMatchObject({ submissionsStarted: 4, submissionsCompleted: 1 });
    expect(before.funnel[0]).toMatchObject({ started: 4, completed: 2, qualified: 1, contactLeft: 1 });

    // Nothing left to delete until the recent one's day comes.
    expect(await deleteExpiredAnswers(h.db, NOW, 180)).toEqual({ submissions: 0, answers: 0 });
    expect(await deleteExpiredAnswers(h.db, new Date(NOW.getTime() + 2 * 24 * 3600 * 1000), 180)).toEqual({ submissions: 1, answers: 3 });
    expect(await answerCount(recentStopped.submissionId)).toBe(0);
    expect(await counts(ids)).toEqual(before);
  });

  it('deletes answers untouched for more than the retention days, and keeps those touched within them', async () => {
    const SECOND = 1000;
    /** Two stopped runs touched a second inside and a second outside `days`: the job keeps the first, empties the second. */
    const expectCutoffAt = async (days: number) => {
      const inside = await stoppedRun();
      const outside = await stoppedRun();
      await touchedAt(inside.submissionId, new Date(daysBefore(days).getTime() + SECOND));
      await touchedAt(outside.submissionId, new Date(daysBefore(days).getTime() - SECOND));
      await deleteExpiredAnswers(h.db, NOW, days);
      expect(await answerCount(inside.submissionId), `${days} days`).toBe(3);
      expect(await answerCount(outside.submissionId), `${days} days`).toBe(0);
    };
    await expectCutoffAt(180);
    // The same edge for another number of days: the cutoff is the days given, counted from the clock given.
    await expectCutoffAt(7);
  });

  it('deletes each answer once when several processes run the job at the same moment', async () => {
    const runs = [await stoppedRun(), await stoppedRun(), await stoppedRun()];
    for (const run of runs) await touchedAt(run.submissionId, daysBefore(200));
    const results = await Promise.all([deleteExpiredAnswers(h.db, NOW, 180), deleteExpiredAnswers(h.db, NOW, 180), deleteExpiredAnswers(h.db, NOW, 180)]);
    expect(results.reduce((sum, r) => sum + r.answers, 0)).toBe(9);
    expect(results.reduce((sum, r) => sum + r.submissions, 0)).toBe(3);
    for (const run of runs) expect(await answerCount(run.submissionId)).toBe(0);
  });

  it('runs on start by the clock it is given, and not at all with 0 days', async () => {
    const run = await stoppedRun();
    await touchedAt(run.submissionId, daysBefore(30));
    const log = createLogger('silent');
    const keep = startRetentionJob({ db: h.db, clock: () => NOW, days: 0, log });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await keep.stop();
    expect(await answerCount(run.submissionId)).toBe(3);
    const job = startRetentionJob({ db: h.db, clock: () => NOW, days: 29, log });
    for (let i = 0; i < 200 && (await answerCount(run.submissionId)) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    await job.stop();
    expect(await answerCount(run.submissionId)).toBe(0);
  });
});
