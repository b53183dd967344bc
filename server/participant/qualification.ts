/**
 * Qualification over the complete path. The server decides from its own data (path.ts): a
 * participant is qualified only when the path from the first page reaches the end of the survey
 * with every page on it answered and every required question on it answered validly, and no
 * answer on it disqualifying — an option disqualifying for every engagement (isDisqualified) or
 * for one (disqualifiedFor), or a birth date outside a dob question's age range. A path that
 * stops early, hands over to another survey or runs in a circle is `incomplete`: nothing after
 * qualification (ZIP, sites, contact) may happen on it.
 */
import { isChoiceType } from '@core/model/survey';
import { chosenValues } from '@core/survey/navigation';
import { isDateFormat } from '@core/validation/rules';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/open';
import { oFormSubmissions } from '../db/schema';
import { countOnChannel } from './channelFigures';
import type { SubmissionRow } from './access';
import type { PhiCipher } from '../security/phi';
import { participantPath, type ParticipantPath } from './path';
import { answerProblems, fieldsOfPage, loadSurvey, runEngagements, runOfSubmission, type RunTarget, type Survey } from './runSurvey';
import { regionOfChannel } from './sites';
import { offeredEngagements } from '../engagements';

export type QualificationOutcome = 'qualified' | 'notQualified' | 'notActive' | 'incomplete';

export interface QualificationResult {
  isQualified: boolean;
  outcome: QualificationOutcome;
  /** The engagements the participant qualifies for (empty unless qualified). */
  engagementIds: number[];
}

/** The outcomes a participant reaches by answering (not incomplete, not the survey switched off): the run's answers are final from then on. */
export const isFinalOutcome = (outcome: QualificationOutcome) => outcome === 'qualified' || outcome === 'notQualified';

const INCOMPLETE: QualificationResult = { isQualified: false, outcome: 'incomplete', engagementIds: [] };
const NOT_ACTIVE: QualificationResult = { isQualified: false, outcome: 'notActive', engagementIds: [] };

/** Whole years from a y-MM-dd birthday to `today`. */
export function ageOn(dob: string, today: Date): number | null {
  if (!isDateFormat(dob, { utc: true })) return null;
  const [y, m, d] = dob.split('-').map(Number) as [number, number, number];
  let age = today.getUTCFullYear() - y;
  if (today.getUTCMonth() + 1 < m || (today.getUTCMonth() + 1 === m && today.getUTCDate() < d)) age -= 1;
  return age;
}

/** The path judged against `engagementIds` (the run's active engagements) on `today`, its ZIPs by the channel's `region`. Pure. */
export function judgePath(survey: Survey, path: ParticipantPath, engagementIds: readonly number[], today: Date, region?: string): QualificationResult {
  if (path.end.kind !== 'end') return INCOMPLETE;
  let remaining = [...engagementIds];
  for (const { page, answers } of path.steps) {
    const fields = fieldsOfPage(survey, page.id);
    // Stored answers were checked when saved; checked again, so nothing but a valid page counts.
    if (Object.keys(answerProblems(fields, answers, 'en', today, region)).length > 0) return INCOMPLETE;
    for (const field of fields) {
      const answer = answers[field.identity];
      if (field.type === 'dob' && typeof answer === 'string' && answer !== '') {
        const age = ageOn(answer, today);
        const { minAge, maxAge } = field.configuration;
        if (age === null || (minAge !== undefined && age < minAge) || (maxAge !== undefined && age > maxAge)) remaining = [];
      }
      if (!isChoiceType(field.type)) continue;
      const chosen = new Set(chosenValues(answer));
      for (const option of field.configuration.options) {
        if (!chosen.has(option.value)) continue;
        if (option.isDisqualified) remaining = [];
        const against = new Set(option.disqualifiedFor ?? []);
        remaining = remaining.filter((id) => !against.has(id));
      }
    }
  }
  return remaining.length > 0
    ? { isQualified: true, outcome: 'qualified', engagementIds: remaining }
    : { isQualified: false, outcome: 'notQualified', engagementIds: [] };
}

/**
 * A submission's qualification per engagement on `today` (the server's clock): notActive when
 * its survey or channel no longer runs or every engagement it refers to is paused, else its
 * path judged against the engagements offered. Reads only.
 */
export async function qualify(db: Db, submission: SubmissionRow, options: { today: Date; phi: PhiCipher }): Promise<QualificationResult> {
  const target = await runOfSubmission(db, submission);
  if (!target.runnable || !target.form) return NOT_ACTIVE;
  const survey = await loadSurvey(db, target.form);
  const [engagementIds, path] = await Promise.all([offeredRunEngagements(db, target, options.today), participantPath(db, survey, submission.id, options.phi)]);
  if (engagementIds === null) return NOT_ACTIVE;
  return judgePath(survey, path, engagementIds, options.today, regionOfChannel(target.channel));
}

/**
 * The run's engagements offered at `now` (an engagement at its target or past its dates is
 * not a qualification target); null when the run has engagements and every one is paused
 * (the run is then notActive, as at its start).
 */
export async function offeredRunEngagements(db: Db, target: RunTarget, now: Date): Promise<number[] | null> {
  const all = await runEngagements(db, target);
  const offered = await offeredEngagements(db, all, now);
  return all.length > 0 && offered.length === 0 ? null : offered;
}

/**
 * A submission's qualification judged and stored under the submission's row lock, taken before
 * its answers are read. A page save updates that row first (entries.ts, OPEN_RUN), so the two
 * serialize on both databases: a save that came first is judged here, one that comes after
 * waits for this transaction and then finds the run finished (409). Stored as
 * storeQualification says, unless the run is completed.
 */
export async function qualifyAndRecord(
  db: Db,
  submission: SubmissionRow,
  options: { today: Date; phi: PhiCipher; now: () => Date },
): Promise<QualificationResult> {
  const target = await runOfSubmission(db, submission);
  const engagementIds = target.runnable && target.form ? await offeredRunEngagements(db, target, options.today) : null;
  const running = target.runnable && target.form && engagementIds !== null ? { survey: await loadSurvey(db, target.form), engagementIds } : null;
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(oFormSubmissions).where(eq(oFormSubmissions.id, submission.id)).for('update');
    const result = running
      ? judgePath(
          running.survey,
          await participantPath(tx, running.survey, submission.id, options.phi),
          running.engagementIds,
          options.today,
          regionOfChannel(target.channel),
        )
      : NOT_ACTIVE;
    if (before && before.status !== 'completed') await storeQualification(tx, before, result, options.now);
    return result;
  });
}

/**
 * Stores a qualification on the submission, inside a transaction holding its lock (`before` read
 * under it): the outcome (a later one of the contact steps, a site chosen or completed, is kept),
 * the run finished at its first final outcome (its answers are then final), and the channel's
 * qualified count moved when the submission's qualification changed.
 */
async function storeQualification(tx: Tx, before: SubmissionRow, result: QualificationResult, now: () => Date): Promise<void> {
  const keepOutcome = before.outcome !== null && !['qualified', 'notQualified', 'notActive', 'incomplete'].includes(before.outcome);
  const finishes = before.finishedAt === null && isFinalOutcome(result.outcome);
  await tx
    .update(oFormSubmissions)
    .set({
      isQualified: result.isQualified,
      ...(keepOutcome ? {} : { outcome: result.outcome }),
      ...(finishes ? { finishedAt: now() } : {}),
      modified: sql`now()`,
    })
    .where(eq(oFormSubmissions.id, before.id));
  const delta = result.isQualified === (before.isQualified === true) ? 0 : result.isQualified ? 1 : -1;
  await countOnChannel(tx, before.mediaChannelId, 'submissionsQualified', delta);
}

/** A qualified run that reaches the contact form has chosen its site; a completed run keeps its outcome. */
export async function markSiteSelected(db: Db, submissionId: number, now: Date): Promise<void> {
  await db
    .update(oFormSubmissions)
    .set({ outcome: 'trialSiteSelected', modified: now })
    .where(and(eq(oFormSubmissions.id, submissionId), ne(oFormSubmissions.status, 'completed')));
}

/** A qualified run with no site near enough ends there, at the server's clock. */
export async function markNoTrialSites(db: Db, submissionId: number, now: Date): Promise<void> {
  await db.update(oFormSubmissions).set({ outcome: 'noTrialSites', modified: now }).where(eq(oFormSubmissions.id, submissionId));
}
