/**
 * POST (or PATCH) /api/o-forms/o-form-submission-sanitization/:id: the answers of pages left behind
 * are deleted. The widget POSTs with the token in the body (no preflight when a participant goes
 * back and takes another way); PATCH with the header answers the same.
 */
import { participantCall, type ParticipantCall, type ParticipantCallEnv } from './callDescription';
import { assertRunNotEnded } from './access';
import { SanitizationAttributes } from '@core/participant/requests';
import type { ParticipantAnswer } from '@core/participant/responses';
import type { Deps } from '../context';
import { conflict } from '../http/errors';
import { sendDocument } from '../http/serialize';
import { tokenSubmission, SUBMISSION_COMPLETED, type ParticipantApp } from './api';
import { clearLeftPages } from './pageAnswers';
import type { Context } from 'hono';
import type { AppEnv } from '../context';

export function participantOFormSubmissionSanitizationRoutes(app: ParticipantApp, deps: Deps) {
  const { db } = deps;

  /** Deletes the answers of page entries the participant left behind (and of their child entries). */
  const doc = {
    summary: 'Participant: finish the submission',
    access: 'participant',
    attributes: SanitizationAttributes,
    answer: 'sanitized',
  } satisfies ParticipantCall;
  const sanitize = async (c: Context<AppEnv & ParticipantCallEnv<typeof doc>>) => {
    const submission = await tokenSubmission(deps, c);
    assertRunNotEnded(submission, 'submission');
    const { pageIds } = await c.var.body.read();
    if (submission.status === 'completed' || submission.finishedAt !== null) throw conflict(SUBMISSION_COMPLETED);
    const cleared = await clearLeftPages(db, submission.id, [...new Set(pageIds)]);
    if (cleared === 'closed') throw conflict(SUBMISSION_COMPLETED);
    const isSanitizeSuccess = cleared === 'cleared';
    return sendDocument(c, { meta: { isSanitizeSuccess } } satisfies ParticipantAnswer<'sanitized'>);
  };
  app.post('/o-form-submission-sanitization/:id', participantCall(doc), sanitize);
  app.patch('/o-form-submission-sanitization/:id', participantCall(doc), sanitize);
}
