/**
 * Page saves that arrive together are written together (server/participant/batchedSaves.ts): each
 * participant is answered with their own result — their own next page entry, their own answers
 * stored — a save refused (its answers invalid, or a row the database refuses) is refused alone
 * while the others commit, a run over its rate limit is limited alone, and a batch counts the runs
 * it starts in their channel's figures once each.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { mediaChannelFigures, oFormContainerEntries, oFormSubmissions, rateLimits } from '../../../server/db/schema';
import { savePageWithOthers } from '../../../server/participant/batchedSaves';
import { savePages } from '../../../server/participant/entries';
import type { PageSave } from '../../../server/participant/entries';
import { givenAnswersOf } from '../storedAnswers';
import { answerPage, startSubmission, type ParticipantFixture } from '../../support/participantFixture';
import type { Harness } from '../harness';
import { useParticipantServer } from '../participantServer';

let h: Harness;
let f: ParticipantFixture;
useParticipantServer((server) => ({ h, f } = server));

const PARTICIPANTS = 12;

const answersOf = (submissionId: number) => givenAnswersOf(h.db, h.phi, submissionId);

const entriesOf = (submissionId: number) => h.db.select().from(oFormContainerEntries).where(eq(oFormContainerEntries.submissionId, submissionId));

/** The statements that wrote page saves since the last call: the batches', and the single saves'. */
/** The page-save statements run since the last call: a save alone is a batch of one. */
function saveStatements() {
  return h.takeStatements().filter((s) => s.includes('jsonb_to_recordset') && s.includes('limit_keys')).length;
}

/** A first-page save of a fresh run, as the page save route makes it (no rate limits counted). */
async function firstPageSave(choice = 'yes'): Promise<PageSave> {
  const run = await startSubmission(h, f, { withFirstPage: true });
  return {
    submissionId: Number(run.submissionId),
    entryIds: [Number(run.firstEntryId)],
    answers: [{ entryId: Number(run.firstEntryId), fieldId: f.fields.q_choice.id, value: choice, sealed: null }],
    next: { pageId: f.pages.p2.id, childContainerIds: [] },
    limits: { windowStart: new Date('2026-11-29T03:00:00Z'), checks: [] },
  };
}

const startedFigure = async () => {
  const [row] = await h.db
    .select({ started: sql<number>`coalesce(sum(${mediaChannelFigures.submissionsStarted}), 0)`.mapWith(Number) })
    .from(mediaChannelFigures)
    .where(eq(mediaChannelFigures.mediaChannelId, f.mediaChannelId));
  return row!.started;
};

beforeAll(() => {
  h.takeStatements();
});

describe('page saves written together', () => {
  it('answers each of many participants saving at once with their own next page, and stores each one’s answers', async () => {
    const runs = await Promise.all(Array.from({ length: PARTICIPANTS }, () => startSubmission(h, f, { withFirstPage: true })));
    // Half go on to the second page, half jump to the third: each must learn its own way.
    const choiceOf = (i: number) => (i % 2 === 0 ? 'yes' : 'skip');
    saveStatements();
    const saved = await Promise.all(runs.map((run, i) => answerPage(h, run.token, run.firstEntryId, { q_choice: choiceOf(i) })));
    // Fewer statements than saves: some went together.
    expect(saveStatements()).toBeLessThan(PARTICIPANTS);

    const nextIds = new Set<string>();
    for (const [i, run] of runs.entries()) {
      expect(saved[i]!.status).toBe(200);
      expect(saved[i]!.meta.nextContainerIdentity).toBe(choiceOf(i) === 'yes' ? 'p2' : 'p3');
      const next = saved[i]!.meta.nextContainerEntryId!;
      nextIds.add(next);
      const entries = await entriesOf(Number(run.submissionId));
      // The next page's entry is this run's own, for the page its answer leads to.
      expect(entries.find((e) => String(e.id) === next)).toMatchObject({ containerId: choiceOf(i) === 'yes' ? f.pages.p2.id : f.pages.p3.id, parentId: null });
      expect(entries.find((e) => String(e.id) === run.firstEntryId)!.answeredAt).not.toBeNull();
      expect(await answersOf(Number(run.submissionId))).toEqual([{ fieldId: f.fields.q_choice.id, value: choiceOf(i) }]);
    }
    expect(nextIds.size).toBe(PARTICIPANTS);

    // And their next pages, again all at once: sealed answers, each where it belongs.
    const onP2 = runs.flatMap((run, i) => (choiceOf(i) === 'yes' ? [{ run, entry: saved[i]!.meta.nextContainerEntryId! }] : []));
    const second = await Promise.all(onP2.map(({ run, entry }, i) => answerPage(h, run.token, entry, { q_dob: `198${i}-06-15`, q_text: `run ${i}` })));
    for (const [i, { run }] of onP2.entries()) {
      expect(second[i]!.status).toBe(200);
      expect(second[i]!.meta.nextContainerIdentity).toBe('p3');
      const stored = await answersOf(Number(run.submissionId));
      expect(stored.find((a) => a.fieldId === f.fields.q_text.id)?.value).toBe(`run ${i}`);
      expect(stored.find((a) => a.fieldId === f.fields.q_dob.id)?.value).toBe(`198${i}-06-15`);
    }
  });

  it('refuses an invalid save alone while the participants saving with it are stored', async () => {
    const runs = await Promise.all(Array.from({ length: 8 }, () => startSubmission(h, f, { withFirstPage: true })));
    const bad = 3;
    const saved = await Promise.all(runs.map((run, i) => answerPage(h, run.token, run.firstEntryId, { q_choice: i === bad ? 'not-an-option' : 'yes' })));
    for (const [i, run] of runs.entries()) {
      if (i === bad) {
        expect(saved[i]!.status).toBe(422);
        expect(await answersOf(Number(run.submissionId))).toEqual([]);
        expect(await entriesOf(Number(run.submissionId))).toHaveLength(1);
      } else {
        expect(saved[i]!.status).toBe(200);
        expect(await answersOf(Number(run.submissionId))).toEqual([{ fieldId: f.fields.q_choice.id, value: 'yes' }]);
      }
    }
  });

  it('writes the rest of a batch when the database refuses one save of it, and fails only that one', async () => {
    const saves = await Promise.all(Array.from({ length: 6 }, () => firstPageSave()));
    // A question that does not exist: its row breaks a foreign key, so the batch's statement fails.
    const broken = { ...saves[2]!, answers: [{ ...saves[2]!.answers[0]!, fieldId: 2_000_000_000 }] };
    const all = [...saves.slice(0, 2), broken, ...saves.slice(3)];
    saveStatements();
    const results = await Promise.allSettled(all.map((save) => savePageWithOthers(h.db, save)));
    // Tried together first (one statement), then each on its own.
    expect(saveStatements()).toBe(1 + all.length);
    for (const [i, save] of all.entries()) {
      const result = results[i]!;
      if (i === 2) {
        expect(result.status).toBe('rejected');
        expect(await answersOf(save.submissionId)).toEqual([]);
        expect(await entriesOf(save.submissionId)).toHaveLength(1);
        const [run] = await h.db.select().from(oFormSubmissions).where(eq(oFormSubmissions.id, save.submissionId));
        expect(run!.startedAt).toBeNull();
      } else {
        expect(result).toMatchObject({ status: 'fulfilled', value: { status: 'saved', next: { id: expect.any(Number), children: [] } } });
        expect(await answersOf(save.submissionId)).toEqual([{ fieldId: f.fields.q_choice.id, value: 'yes' }]);
        expect(await entriesOf(save.submissionId)).toHaveLength(2);
      }
    }
  });

  it('limits in a batch as one save at a time would: the saves past a key’s limit write nothing but their hits', async () => {
    const key = `test:batch-limit:${Math.random()}`;
    const saves = (await Promise.all(Array.from({ length: 5 }, () => firstPageSave()))).map((save) => ({
      ...save,
      limits: { ...save.limits, checks: [{ key, limit: 3 }] },
    }));
    const results = await savePages(h.db, saves);
    expect(results.map((r) => r.status)).toEqual(['saved', 'saved', 'saved', 'limited', 'limited']);
    for (const [i, save] of saves.entries()) {
      expect(await answersOf(save.submissionId)).toHaveLength(i < 3 ? 1 : 0);
      expect(await entriesOf(save.submissionId)).toHaveLength(i < 3 ? 2 : 1);
    }
    expect(await h.db.select({ count: rateLimits.count }).from(rateLimits).where(eq(rateLimits.key, key))).toEqual([{ count: 5 }]);
  });

  it('answers a run already ended as closed, counts each run started once in its channel, and answers a page’s second save as the first', async () => {
    const saves = await Promise.all(Array.from({ length: 4 }, () => firstPageSave()));
    await h.db.update(oFormSubmissions).set({ status: 'completed' }).where(eq(oFormSubmissions.id, saves[1]!.submissionId));
    const before = await startedFigure();
    const first = await savePages(h.db, saves);
    expect(first.map((r) => r.status)).toEqual(['saved', 'closed', 'saved', 'saved']);
    expect(await startedFigure()).toBe(before + 3);
    // Saved again (the participant came back to the page): a new next entry, counted no more.
    const again = await savePages(h.db, [saves[0]!, saves[2]!]);
    expect(again.map((r) => r.status)).toEqual(['saved', 'saved']);
    expect(await startedFigure()).toBe(before + 3);
    const started = await h.db
      .select({ id: oFormSubmissions.id, startedAt: oFormSubmissions.startedAt })
      .from(oFormSubmissions)
      .where(
        inArray(
          oFormSubmissions.id,
          saves.map((s) => s.submissionId),
        ),
      );
    expect(started.filter((s) => s.startedAt !== null)).toHaveLength(3);
  });
});
