/**
 * POST (or PATCH) /api/o-forms/o-form-submission-page/:id: a page's answers, stored and followed to
 * the next page. The widget POSTs: with the token in the body that is a CORS simple request, one
 * request per Next on a partner's page; PATCH answers the same, as it always has. The page's
 * timing rides in the same body (`attributes.timing`), so a Next is one request. The rules of a
 * save are ./pageSave.ts.
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
  answerProblemsResponse,
  countedChecks,
  enforceLimits,
  limitExceeded,
  SUBMISSION_COMPLETED,
  unlessEnded,
  hasEnded,
  pageLimitChecks,
  type ParticipantApp,
} from './api';
import { assertChannelOfRequest } from './cors';
import { savePage } from './pageSave';
import { loadSurvey } from './runSurvey';
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
    const limitChecks = pageLimitChecks(deps, c, submission.mediaChannelId);
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
    const window = windowOf(limits.windowSeconds, now.getTime());
    const saved = await savePage(db, phi, found, survey, page, answers, timing, now, {
      windowStart: window.windowStart,
      checks: countedChecks(limitChecks),
    });
    if (saved.status === 'problems') {
      await enforceLimits(db, c, now, limits.windowSeconds, limitChecks);
      if (await hasEnded(db, submission.id)) throw notFound('page entry');
      return answerProblemsResponse(c, saved.problems);
    }
    if (saved.status === 'limited') throw limitExceeded(c, window.resetAt, now);
    // The run was completed (or removed) after the entry was read: nothing was written.
    if (saved.status === 'closed') throw await unlessEnded(db, submission.id, 'page entry', conflict(SUBMISSION_COMPLETED));
    return sendDocument(c, { meta: saved.meta } satisfies ParticipantAnswer<'pageSaved'>);
  };
  app.post('/o-form-submission-page/:id', participantCall(doc), save);
  app.patch('/o-form-submission-page/:id', participantCall(doc), save);
}
