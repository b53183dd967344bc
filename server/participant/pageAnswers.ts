/**
 * A page's valid answers stored, as the participant's page save needs it: each answer goes to
 * the entry of the container its question sits in (a child entry the page entry lacks — one made
 * before its container was — is made now), sealed in JS, then the one save statement
 * (./entries.ts savePages, gathering the saves that arrive together: ./batchedSaves.ts) replaces the page's earlier answers and makes the next page's entry,
 * which is remembered for the answers that follow (./access.ts). And the answers of the pages a
 * participant left behind (going back and taking another way) cleared when the run finishes; and
 * a page entry's answers read back.
 */
import { and, asc, eq, inArray, or } from 'drizzle-orm';
import type { Answers } from '@core/survey/answers';
import type { Db } from '../db/open';
import { oFormContainerEntries, oFormFieldEntries, oFormSubmissions } from '../db/schema';
import type { ContainerRow } from '../surveys';
import type { PhiCipher } from '../security/phi';
import { forgetPageEntry, rememberPageEntry, type AnswerTarget } from './access';
import { OPEN_RUN, type Limits, type PageSave } from './entries';
import { savePageWithOthers } from './batchedSaves';
import { activeChildren, fieldsOfPage, type Survey } from './runSurvey';
import { regionOfLocale } from './sites';
import { storeAnswer } from '../security/sealedAnswer';

/**
 * `limited` when a rate limit is over and `closed` when the run was completed (or removed) after
 * its entry was read: nothing but the limit's hits was written. Else `saved`, with the next
 * page's new entry (null at the end of the survey).
 */
export async function storePageAnswers(
  db: Db,
  phi: PhiCipher,
  target: AnswerTarget,
  survey: Survey,
  page: ContainerRow,
  answers: Answers,
  nextPage: ContainerRow | null,
  limits: Limits,
): Promise<{ status: 'limited' } | { status: 'closed' } | { status: 'saved'; nextEntryId: number | null }> {
  const { submission, page: pageEntry } = target;
  const children = [...pageEntry.children];
  const rows: PageSave['answers'][number][] = [];
  for (const field of fieldsOfPage(survey, page.id)) {
    const value = answers[field.identity];
    if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)) continue;
    let entryId = pageEntry.id;
    if (field.containerId !== page.id) {
      let child = children.find((ch) => ch.containerId === field.containerId);
      if (!child) {
        const [made] = await db
          .insert(oFormContainerEntries)
          .values({ submissionId: submission.id, containerId: field.containerId, parentId: pageEntry.id })
          .returning();
        children.push((child = { id: made!.id, containerId: made!.containerId }));
        forgetPageEntry(db, pageEntry.id);
      }
      entryId = child.id;
    }
    rows.push({ entryId, fieldId: field.id, ...storeAnswer(phi, field.type, value) });
  }
  const saved = await savePageWithOthers(db, {
    submissionId: submission.id,
    entryIds: [pageEntry.id, ...children.map((ch) => ch.id)],
    answers: rows,
    next: nextPage ? { pageId: nextPage.id, childContainerIds: activeChildren(survey, nextPage.id) } : null,
    limits,
  });
  if (saved.status !== 'saved') return saved;
  if (saved.next && nextPage) {
    rememberPageEntry(db, saved.next.id, {
      submission,
      form: target.form,
      region: regionOfLocale(saved.channelLocale),
      page: { id: saved.next.id, containerId: nextPage.id, children: saved.next.children },
    });
  }
  return { status: 'saved', nextEntryId: saved.next?.id ?? null };
}

/**
 * The pages the participant left behind (and their child entries) lose their answers and are no
 * longer answered: they drop off the participant's path. `foreign`, nothing deleted, when one of
 * the entries is not the submission's; `closed`, nothing deleted, when the run reached its outcome.
 */
export async function clearLeftPages(db: Db, submissionId: number, pageIds: readonly number[]): Promise<'cleared' | 'foreign' | 'closed'> {
  if (pageIds.length === 0) return 'cleared';
  const ids = [...pageIds];
  return db.transaction(async (tx) => {
    const entries = await tx
      .select({ id: oFormContainerEntries.id })
      .from(oFormContainerEntries)
      .where(
        and(eq(oFormContainerEntries.submissionId, submissionId), or(inArray(oFormContainerEntries.id, ids), inArray(oFormContainerEntries.parentId, ids))),
      );
    const own = await tx
      .select({ id: oFormContainerEntries.id })
      .from(oFormContainerEntries)
      .where(and(eq(oFormContainerEntries.submissionId, submissionId), inArray(oFormContainerEntries.id, ids)));
    if (own.length !== ids.length) return 'foreign';
    // Under the submission's lock: a run that reached its outcome meanwhile keeps its answers.
    const [open] = await tx
      .select({ id: oFormSubmissions.id })
      .from(oFormSubmissions)
      .where(and(eq(oFormSubmissions.id, submissionId), OPEN_RUN))
      .for('update');
    if (!open) return 'closed';
    await tx.delete(oFormFieldEntries).where(
      inArray(
        oFormFieldEntries.containerEntryId,
        entries.map((e) => e.id),
      ),
    );
    await tx
      .update(oFormContainerEntries)
      .set({ answeredAt: null })
      .where(
        inArray(
          oFormContainerEntries.id,
          entries.map((e) => e.id),
        ),
      );
    return 'cleared';
  });
}

/** A page entry's child entries and the answers stored under it and them, each in the order made. */
export async function pageEntryAnswers(db: Db, entryId: number) {
  const children = await db.select().from(oFormContainerEntries).where(eq(oFormContainerEntries.parentId, entryId)).orderBy(asc(oFormContainerEntries.id));
  const entryIds = [entryId, ...children.map((ch) => ch.id)];
  const answers = await db.select().from(oFormFieldEntries).where(inArray(oFormFieldEntries.containerEntryId, entryIds)).orderBy(asc(oFormFieldEntries.id));
  return { children, answers };
}
