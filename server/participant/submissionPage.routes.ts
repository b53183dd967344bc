/**
 * POST (or PATCH) /api/o-forms/o-form-submission-page/:id: a page's answers, stored and followed to
 * the next page. The widget POSTs: with the token in the body that is a CORS simple request, one
 * request per Next on a partner's page; PATCH answers the same, as it always has. The page's
 * timing rides in the same body (`attributes.timing`), so a Next is one request.
 */
import { participantCall, type ParticipantCall, type ParticipantCallEnv } from './callDescription';
import { PageAnswersAttributes } from '@core/participant/requests';
import type { ParticipantAnswer } from '@core/participant/responses';
import type { Context } from 'hono';
import { nowOf, type AppEnv, type Deps } from '../context';
import { asProblem, conflict, notFound, unauthorized } from '../http/errors';
import { parseId } from '../http/query';
import { windowOf } from '../http/rateLimit';
import { sendDocument } from '../http/serialize';
import { answerTargetForToken, MISSING_TOKEN, tokenOf } from './access';
import {
  addressLimitKey,
  answerProblemsResponse,
  channelLimitKey,
  countedChecks,
  enforceLimits,
  limitExceeded,
  SUBMISSION_COMPLETED,
  unlessEnded,
  hasEnded,
  type LimitCheck,
  type ParticipantApp,
} from './api';
import { assertChannelOfRequest } from './cors';
import { storePageAnswers } from './pageAnswers';
import { answerProblems, fieldsOfPage, loadSurvey, nextAfter, pageDocument, recordPageMetric } from './runSurvey';
import { phiOf } from '../security/phi';

export function participantOFormSubmissionPageRoutes(app: ParticipantApp, deps: Deps) {
  const { db, config } = deps;
  const limits = config.participantLimits;
  const phi = phiOf(deps);

  /** A page's answers: checked, stored (replacing that entry's earlier ones) and followed to the next page. */
  const doc = {
    summary: "Participant: save a page's answers and learn where they lead",
    access: 'participant',
    attributes: PageAnswersAttributes,
    answer: 'pageSaved',
  } satisfies ParticipantCall;
  const save = async (c: Context<AppEnv & ParticipantCallEnv<typeof doc>>) => {
    if (tokenOf(c) === null) throw unauthorized(MISSING_TOKEN.read);
    const requestedId = parseId(c.req.param('id'));
    const found = await answerTargetForToken(db, c, requestedId);
    const { submission } = found;
    assertChannelOfRequest(c, deps, submission.mediaChannelId);
    const now = nowOf(deps);
    const limitChecks: LimitCheck[] = [
      { key: addressLimitKey(deps, c, 'pages'), limit: limits.pagesPerAddress },
      { key: channelLimitKey('pages', submission.mediaChannelId), limit: limits.pagesPerChannel },
    ];
    // A valid answer counts against the limits inside its save (one statement); every other
    // outcome counts here first, so a refused call is counted as before and may answer 429.
    // The status read may be what this process kept from before the run ended: an ended run's
    // page answers 404 whatever else is wrong with the call.
    const refused = async (error: unknown): Promise<never> => {
      await enforceLimits(db, c, now, limits.windowSeconds, limitChecks);
      const problem = asProblem(error);
      throw problem ? await unlessEnded(db, submission.id, 'page entry', problem) : error;
    };
    const { answers, timing } = await c.var.body.read().catch(refused);
    if (submission.status === 'completed') await refused(notFound('page entry'));
    const { page: pageEntry } = found;
    const survey = await loadSurvey(db, found.form);
    const page = survey.pages.find((p) => p.id === pageEntry.containerId) ?? (await refused(notFound('page')));
    const fields = fieldsOfPage(survey, page.id);
    // A ZIP question takes the postal codes of the channel's region (kept with the run's entry).
    const region = fields.some((f) => f.type === 'zip') ? found.region : undefined;
    const problems = answerProblems(fields, answers, submission.language, now, region);
    if (Object.keys(problems).length > 0) {
      await enforceLimits(db, c, now, limits.windowSeconds, limitChecks);
      if (await hasEnded(db, submission.id)) throw notFound('page entry');
      return answerProblemsResponse(c, problems);
    }

    const next = nextAfter(survey, page, answers);
    const window = windowOf(limits.windowSeconds, now.getTime());
    const saved = await storePageAnswers(db, phi, found, survey, page, answers, next.page, {
      windowStart: window.windowStart,
      checks: countedChecks(limitChecks),
    });
    if (saved.status === 'limited') throw limitExceeded(c, window.resetAt, now);
    // The run was completed (or removed) after the entry was read: nothing was written.
    if (saved.status === 'closed') throw await unlessEnded(db, submission.id, 'page entry', conflict(SUBMISSION_COMPLETED));
    const { nextEntryId } = saved;
    // The page's timing rides in its save: kept once the answers are, as the timing call keeps it.
    if (timing)
      await recordPageMetric(db, {
        submissionId: submission.id,
        oFormId: found.form.id,
        type: 'page',
        identity: page.identity,
        start: timing.start,
        stop: timing.stop,
      });
    return sendDocument(c, {
      meta: {
        success: true,
        nextContainerIdentity: next.page?.identity ?? null,
        nextContainerEntryId: nextEntryId === null ? null : String(nextEntryId),
        nextOFormIdentity: next.surveyIdentity,
        nextPage: next.page && pageDocument(survey, next.page),
      },
    } satisfies ParticipantAnswer<'pageSaved'>);
  };
  app.post('/o-form-submission-page/:id', participantCall(doc), save);
  app.patch('/o-form-submission-page/:id', participantCall(doc), save);
}
