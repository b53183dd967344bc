/**
 * POST (or GET) /api/o-forms/o-form-submission-outcome/:id: the run's outcome and its retake window.
 * The widget POSTs with the token in the body (a CORS simple request, no preflight); GET with the
 * token header answers the same.
 */
import { participantCall, type ParticipantCall } from './callDescription';
import type { ParticipantAnswer } from '@core/participant/responses';
import { OUTCOMES, type Outcome } from '@core/survey/runner';
import { nowOf, type Deps } from '../context';
import { sendDocument } from '../http/serialize';
import { tokenSubmission, type ParticipantApp } from './api';
import { outcomeMessages } from './messages';
import { runOfSubmission } from './runSurvey';
import { retakeWindow } from './retakes';
import type { Context } from 'hono';
import type { AppEnv } from '../context';

export function participantOFormSubmissionOutcomeRoutes(app: ParticipantApp, deps: Deps) {
  const { db } = deps;

  /**
   * Where the run stands, for a reloaded widget: its outcome, when it reached it and whether the
   * channel's retake window still holds (then the widget shows the outcome again, not a fresh
   * survey). Reads only.
   */
  const doc = {
    summary: "Participant: the submission's outcome and whether the channel's retake window still holds",
    access: 'participant',
    answer: 'outcome',
  } satisfies ParticipantCall;
  const outcomeOf = async (c: Context<AppEnv>) => {
    const submission = await tokenSubmission(deps, c);
    const target = await runOfSubmission(db, submission);
    const outcome: Outcome = OUTCOMES.find((o) => o === submission.outcome) ?? 'incomplete';
    const finishedAt = submission.finishedAt ?? submission.completedAt;
    const window = retakeWindow(finishedAt, target.channel?.retakeWindowDays ?? 0, nowOf(deps));
    const messages = await outcomeMessages(db, target.screenerId, outcome, submission.language, submission.oFormId);
    c.header('Cache-Control', 'no-store');
    return sendDocument(c, {
      meta: {
        outcome,
        isQualified: submission.isQualified,
        finishedAt: finishedAt?.toISOString() ?? null,
        retakeWindowDays: window.days,
        retakeWindowEnds: window.endsAt?.toISOString() ?? null,
        withinRetakeWindow: window.within,
        messages,
      },
    } satisfies ParticipantAnswer<'outcome'>);
  };
  app.post('/o-form-submission-outcome/:id', participantCall(doc), outcomeOf);
  app.get('/o-form-submission-outcome/:id', participantCall(doc), outcomeOf);
}
