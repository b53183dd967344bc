/**
 * A participant's path through a survey, from the server's own data: starting at the first
 * page, the latest answered visit of each page, followed through the transition rules
 * (nextAfter, over core/survey/navigation.ts). Qualification judges this path and nothing else,
 * and a page entry may only be made for a page on it or the one it leads to next: the server,
 * not the widget, keeps the order. Pages answered off it (a branch the participant turned away
 * from) do not count.
 */
import { asc, eq } from 'drizzle-orm';
import type { Answer } from '@core/survey/navigation';
import type { Db } from '../db/open';
import { oFormContainerEntries, oFormFieldEntries } from '../db/schema';
import type { ContainerRow } from '../surveys';
import type { PhiCipher } from '../security/phi';
import { openAnswer } from '../security/sealedAnswer';
import { nextAfter, type Survey } from './runSurvey';

export interface PathStep {
  page: ContainerRow;
  /** The page entry whose answers count (the page's latest answered visit). */
  entryId: number;
  answers: Record<string, Answer>;
}

/** Where a path goes after its last answered page. */
export type PathEnd =
  /** It stops before this page, the next to answer. */
  | { kind: 'page'; page: ContainerRow }
  /** It reaches the end of the survey (an `end` transition, or past the last page). */
  | { kind: 'end' }
  /** It hands over to another survey (a run of its own). */
  | { kind: 'survey'; identity: string }
  /** Its transitions lead back to a page already on it: it never ends. */
  | { kind: 'loop'; page: ContainerRow };

export interface ParticipantPath {
  steps: PathStep[];
  end: PathEnd;
}

/** Each page's latest answered visit (by page id): its entry and the answers on it and its child entries. */
export async function answeredPages(
  db: Db,
  survey: Survey,
  submissionId: number,
  phi: PhiCipher,
): Promise<Map<number, { entryId: number; answers: Record<string, Answer> }>> {
  const rows = await db
    .select({
      entryId: oFormContainerEntries.id,
      containerId: oFormContainerEntries.containerId,
      parentId: oFormContainerEntries.parentId,
      answeredAt: oFormContainerEntries.answeredAt,
      fieldId: oFormFieldEntries.fieldId,
      value: oFormFieldEntries.fieldValue,
      sealed: oFormFieldEntries.sealedValue,
    })
    .from(oFormContainerEntries)
    .leftJoin(oFormFieldEntries, eq(oFormFieldEntries.containerEntryId, oFormContainerEntries.id))
    .where(eq(oFormContainerEntries.submissionId, submissionId))
    .orderBy(asc(oFormContainerEntries.id));
  const pageIds = new Set(survey.pages.map((p) => p.id));
  // The latest answered entry of each page.
  const latest = new Map<number, number>();
  for (const row of rows) {
    if (row.parentId === null && row.answeredAt !== null && pageIds.has(row.containerId)) latest.set(row.containerId, row.entryId);
  }
  const pageOfEntry = new Map<number, number>();
  for (const [pageId, entryId] of latest) pageOfEntry.set(entryId, pageId);
  const fieldById = new Map(survey.fields.map((f) => [f.id, f]));
  const out = new Map<number, { entryId: number; answers: Record<string, Answer> }>();
  for (const [pageId, entryId] of latest) out.set(pageId, { entryId, answers: {} });
  for (const row of rows) {
    if (row.fieldId === null) continue;
    const pageId = pageOfEntry.get(row.parentId ?? row.entryId);
    const field = fieldById.get(row.fieldId);
    if (pageId === undefined || !field || field.pageId !== pageId) continue;
    out.get(pageId)!.answers[field.identity] = openAnswer(phi, row);
  }
  return out;
}

/** The path the answered pages make, from the first page. */
export function followPath(survey: Survey, answered: ReadonlyMap<number, { entryId: number; answers: Record<string, Answer> }>): ParticipantPath {
  const steps: PathStep[] = [];
  const seen = new Set<number>();
  let page: ContainerRow | null = survey.pages[0] ?? null;
  while (page) {
    if (seen.has(page.id)) return { steps, end: { kind: 'loop', page } };
    seen.add(page.id);
    const given = answered.get(page.id);
    if (!given) return { steps, end: { kind: 'page', page } };
    steps.push({ page, entryId: given.entryId, answers: given.answers });
    const next = nextAfter(survey, page, given.answers);
    if (next.surveyIdentity !== null) return { steps, end: { kind: 'survey', identity: next.surveyIdentity } };
    page = next.page;
  }
  return { steps, end: { kind: 'end' } };
}

/** The participant's path through `survey` in submission `submissionId`. */
export async function participantPath(db: Db, survey: Survey, submissionId: number, phi: PhiCipher): Promise<ParticipantPath> {
  return followPath(survey, await answeredPages(db, survey, submissionId, phi));
}

/**
 * Whether a page entry may be made for page `pageId`: the first page always (nothing comes
 * before it), a page already on the path (a revisit), or the page the path leads to next.
 */
export function mayEnter(survey: Survey, path: ParticipantPath, pageId: number): boolean {
  if (survey.pages[0]?.id === pageId) return true;
  if (path.steps.some((s) => s.page.id === pageId)) return true;
  return path.end.kind === 'page' && path.end.page.id === pageId;
}
