/**
 * Starts that arrive together are written together (server/participant/batchedStarts.ts): each
 * participant is answered with their own submission, token and first page entry; a start over its
 * rate limit, decided on settings that changed, paused, or refused by the database fails alone,
 * writing nothing of its own, while the others are created as if each had been written alone.
 */
import { randomBytes } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { engagements, mediaChannels, oFormContainerEntries, oFormSubmissions, rateLimits } from '../../../server/db/schema';
import { createSubmissionWithOthers } from '../../../server/participant/batchedStarts';
import { createSubmissions, type SubmissionCreation } from '../../../server/participant/entries';
import { answerPage, createParticipantFixture, startSubmission, type ParticipantFixture } from '../../support/participantFixture';
import type { Harness } from '../harness';
import { useParticipantServer } from '../participantServer';

let h: Harness;
let f: ParticipantFixture;
useParticipantServer((server) => ({ h, f } = server));

const PARTICIPANTS = 12;
const WINDOW = new Date('2026-11-30T06:00:00Z');

/** The statements that created submissions since the last call: the batches', and the single starts'. */
const creationStatements = () => h.takeStatements().filter((s) => s.includes('insert into "o_form_submissions"')).length;

/** A start of the fixture's survey through its channel with its first page, as the start route makes it. */
function creation(fixture: ParticipantFixture, overrides: Partial<SubmissionCreation> = {}, clientMatch: string | null = null): SubmissionCreation {
  return {
    values: {
      oFormId: fixture.oFormId,
      mediaChannelId: fixture.mediaChannelId,
      language: 'en',
      languageId: null,
      mediaChannelUrl: null,
      utm: {},
      hiddenFields: {},
      tokenHash: randomBytes(32).toString('hex'),
      clientMatch,
    },
    limits: { windowStart: WINDOW, checks: [] },
    now: new Date('2026-11-30T06:30:00Z'),
    firstPage: { pageId: fixture.pages.p1.id, childContainerIds: [] },
    settingsVersion: null,
    ...overrides,
  };
}

const runsWith = (tokenHashes: string[]) => h.db.select().from(oFormSubmissions).where(inArray(oFormSubmissions.tokenHash, tokenHashes));

beforeAll(() => {
  h.takeStatements();
});

describe('starts written together', () => {
  it('answers each of many participants starting at once with their own run, token and first page', async () => {
    creationStatements();
    const runs = await Promise.all(Array.from({ length: PARTICIPANTS }, () => startSubmission(h, f, { withFirstPage: true })));
    // Fewer statements than starts: some went together.
    expect(creationStatements()).toBeLessThan(PARTICIPANTS);
    expect(new Set(runs.map((r) => r.submissionId)).size).toBe(PARTICIPANTS);
    expect(new Set(runs.map((r) => r.token)).size).toBe(PARTICIPANTS);
    for (const run of runs) {
      const entries = await h.db
        .select()
        .from(oFormContainerEntries)
        .where(eq(oFormContainerEntries.submissionId, Number(run.submissionId)));
      expect(entries).toEqual([expect.objectContaining({ id: Number(run.firstEntryId), containerId: f.pages.p1.id, parentId: null })]);
    }
    // Each token opens its own run's first page, and only that one.
    const saved = await Promise.all(runs.map((run) => answerPage(h, run.token, run.firstEntryId, { q_choice: 'yes' })));
    expect(saved.map((s) => s.status)).toEqual(runs.map(() => 200));
    expect((await answerPage(h, runs[0]!.token, runs[1]!.firstEntryId, { q_choice: 'yes' })).status).toBe(404);
  });

  it('limits in a batch as one start at a time would: the starts past a key’s limit write nothing but their hits', async () => {
    const key = `test:start-limit:${Math.random()}`;
    const batch = Array.from({ length: 5 }, () => creation(f, { limits: { windowStart: WINDOW, checks: [{ key, limit: 3 }] } }));
    const results = await createSubmissions(h.db, batch);
    expect(results.map((r) => r.status)).toEqual(['created', 'created', 'created', 'limited', 'limited']);
    const made = await runsWith(batch.map((c) => c.values.tokenHash));
    expect(made.map((r) => r.tokenHash).sort()).toEqual(
      batch
        .slice(0, 3)
        .map((c) => c.values.tokenHash)
        .sort(),
    );
    expect(await h.db.select({ count: rateLimits.count }).from(rateLimits).where(eq(rateLimits.key, key))).toEqual([{ count: 5 }]);
  });

  it('a start decided on settings that changed since is stale alone, its hits not counted; the others are created with their pages', async () => {
    const key = `test:start-stale:${Math.random()}`;
    const limits = { windowStart: WINDOW, checks: [{ key, limit: 10 }] };
    const batch = [creation(f, { limits }), creation(f, { limits, settingsVersion: 1_000_000 }), creation(f, { limits })];
    const results = await createSubmissions(h.db, batch);
    expect(results.map((r) => r.status)).toEqual(['created', 'stale', 'created']);
    for (const i of [0, 2]) {
      const result = results[i]!;
      if (result.status !== 'created') throw new Error('not created');
      expect(result.submission).toMatchObject({ tokenHash: batch[i]!.values.tokenHash, oFormId: f.oFormId, status: 'in_progress' });
      expect(result.page).toEqual({ id: expect.any(Number), children: [] });
    }
    expect(await runsWith([batch[1]!.values.tokenHash])).toEqual([]);
    expect(await h.db.select({ count: rateLimits.count }).from(rateLimits).where(eq(rateLimits.key, key))).toEqual([{ count: 2 }]);
  });

  it('a start of a paused engagement is paused alone; a returning client is flagged alone', async () => {
    const paused = await createParticipantFixture(h.db);
    await h.db.update(engagements).set({ endDate: '2020-01-01' }).where(inArray(engagements.id, paused.engagementIds));
    // A finished run from client "back" within the channel's retake window.
    await h.db.update(mediaChannels).set({ retakeWindowDays: 30 }).where(eq(mediaChannels.id, f.mediaChannelId));
    const prior = creation(f, {}, 'back');
    const [made] = await createSubmissions(h.db, [prior, creation(f)]);
    if (made?.status !== 'created') throw new Error('the prior run was not created');
    await h.db
      .update(oFormSubmissions)
      .set({ finishedAt: new Date('2026-11-29T06:00:00Z') })
      .where(eq(oFormSubmissions.id, made.submission.id));

    const batch = [creation(f, {}, 'back'), creation(paused), creation(f, {}, 'new')];
    const results = await createSubmissions(h.db, batch);
    expect(results.map((r) => r.status)).toEqual(['created', 'paused', 'created']);
    expect(results.map((r) => (r.status === 'created' ? r.submission.possibleRetake : null))).toEqual([true, null, false]);
    expect(await runsWith([batch[1]!.values.tokenHash])).toEqual([]);
  });

  it('writes the rest of a batch when the database refuses one start of it, and fails only that one', async () => {
    // A survey version that does not exist: its row breaks a foreign key, so the batch's statement fails.
    const batch = [creation(f), creation(f), { ...creation(f), values: { ...creation(f).values, oFormId: 2_000_000_000, mediaChannelId: null } }, creation(f)];
    creationStatements();
    const results = await Promise.allSettled(batch.map((c) => createSubmissionWithOthers(h.db, c)));
    // Tried together first (one statement), then each on its own.
    expect(creationStatements()).toBe(1 + batch.length);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const made = await runsWith(batch.map((c) => c.values.tokenHash));
    expect(made).toHaveLength(3);
    expect(made.map((r) => r.tokenHash)).not.toContain(batch[2]!.values.tokenHash);
  });
});
