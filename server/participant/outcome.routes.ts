/** GET /api/o-forms/o-form-submission-outcome/:id: the run's outcome and its retake window. */
import { PARTICIPANT_ANSWERS, type ParticipantAnswer } from '@core/participant/responses';
import { OUTCOMES, type Outcome } from '@core/oform/runner';
import { nowOf, type Deps } from '../context';
import { sendDocument } from '../http/serialize';
import { tokenSubmission, type ParticipantApp } from './api';
import { outcomeMessages } from './messages';
import { runOfSubmission } from './run';
import { retakeWindow } from './retakes';
import { describe } from '../openapi/describe';

export function participantOFormSubmissionOutcomeRoutes(app: ParticipantApp, deps: Deps) {
  const { db } = deps;

  /**
   * Where the run stands, for a reloaded widget: its outcome, when it reached it and whether the
   * channel's retake window still holds (then the widget shows the outcome again, not a fresh
   * survey). Reads only.
   */
  app.get('/o-form-submission-outcome/:id', describe({ summary: "Participant: the submission's outcome and whether the channel's retake window still holds", access: 'participant', answer: { document: PARTICIPANT_ANSWERS.outcome } }), async (c) => {
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
  });
}
