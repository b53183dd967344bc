/**
 * A page's answers saved, as a participant's Next saves them: checked against the page's
 * questions, stored (./pageAnswers.ts), followed to the next page, and the page's timing kept
 * with them. The page's own save calls it, and so does the submission's creation when it
 * carries its first page's answers (the first Next in one request).
 */
import type { Answers } from '@core/survey/answers';
import type { PageTimingRead } from '@core/participant/requests';
import type { PageSavedMeta } from '@core/participant/responses';
import type { Db } from '../db/open';
import type { ContainerRow } from '../surveys';
import type { PhiCipher } from '../security/phi';
import type { AnswerTarget } from './access';
import type { Limits } from './entries';
import { storePageAnswers } from './pageAnswers';
import { answerProblems, fieldsOfPage, nextAfter, pageDocument, recordPageMetric, type Survey } from './runSurvey';

/**
 * `problems` (by question identity) when an answer is refused; `limited` when a rate limit is
 * over and `closed` when the run was completed meanwhile: nothing but the limit's hits written.
 */
export type PageSaveResult =
  | { status: 'problems'; problems: Record<string, string> }
  | { status: 'limited' }
  | { status: 'closed' }
  | { status: 'saved'; meta: PageSavedMeta };

export async function savePage(
  db: Db,
  phi: PhiCipher,
  target: AnswerTarget,
  survey: Survey,
  page: ContainerRow,
  answers: Answers,
  timing: PageTimingRead | null | undefined,
  now: Date,
  limits: Limits,
): Promise<PageSaveResult> {
  const { submission } = target;
  const fields = fieldsOfPage(survey, page.id);
  // A ZIP question takes the postal codes of the channel's region (kept with the run's entry).
  const region = fields.some((f) => f.type === 'zip') ? target.region : undefined;
  const problems = answerProblems(fields, answers, submission.language, now, region);
  if (Object.keys(problems).length > 0) return { status: 'problems', problems };

  const next = nextAfter(survey, page, answers);
  const saved = await storePageAnswers(db, phi, target, survey, page, answers, next.page, limits);
  if (saved.status !== 'saved') return saved;
  // The page's timing rides in its save: kept once the answers are, as the timing call keeps it.
  if (timing)
    await recordPageMetric(db, {
      submissionId: submission.id,
      oFormId: target.form.id,
      type: 'page',
      identity: page.identity,
      start: timing.start,
      stop: timing.stop,
    });
  return {
    status: 'saved',
    meta: {
      success: true,
      nextContainerIdentity: next.page?.identity ?? null,
      nextContainerEntryId: saved.nextEntryId === null ? null : String(saved.nextEntryId),
      nextOFormIdentity: next.surveyIdentity,
      nextPage: next.page && pageDocument(survey, next.page),
    },
  };
}
