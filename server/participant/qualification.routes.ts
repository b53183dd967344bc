/**
 * GET or POST /api/o-forms/o-form-submission-qualification/:id: whether the submission qualified.
 * The widget POSTs with the token in the body (a CORS simple request: the last Next needs no
 * preflight); GET with the token header answers the same.
 */
import { participantCall, type ParticipantCall } from './callDescription';
import { assertRunNotEnded } from './access';
import type { ParticipantAnswer } from '@core/participant/responses';
import { nowOf, type Deps } from '../context';
import { sendDocument } from '../http/serialize';
import { tokenSubmission, type ParticipantApp } from './api';
import { outcomeMessages } from './messages';
import { runOfSubmission } from './runSurvey';
import { qualifyAndRecord } from './qualification';
import { phiOf } from '../security/phi';
import type { Context } from 'hono';
import type { AppEnv } from '../context';
import { siteCountries } from './sites';

export function participantOFormSubmissionQualificationRoutes(app: ParticipantApp, deps: Deps) {
  const { db } = deps;
  const phi = phiOf(deps);

  /** Qualification per engagement; stores the outcome and counts a newly qualified submission on its channel. */
  const doc = {
    summary: 'Participant: whether the submission qualified',
    access: 'participant',
    answer: 'qualification',
  } satisfies ParticipantCall;
  const qualification = async (c: Context<AppEnv>) => {
    const submission = await tokenSubmission(deps, c);
    assertRunNotEnded(submission, 'submission');
    const result = await qualifyAndRecord(db, submission, { today: nowOf(deps), phi, now: () => nowOf(deps) });
    const target = await runOfSubmission(db, submission);
    const messages = await outcomeMessages(db, target.screenerId, result.outcome, submission.language, submission.oFormId);
    // Only when a site is outside the US: the widget then asks for a country beside the postal code or town.
    const countries = result.isQualified ? await siteCountries(db, result.engagementIds) : [];
    return sendDocument(c, {
      meta: {
        isQualified: result.isQualified,
        outcome: result.outcome,
        engagementIds: result.engagementIds.map(String),
        messages,
        ...(countries.some((code) => code !== 'US') ? { siteCountries: countries } : {}),
      },
    } satisfies ParticipantAnswer<'qualification'>);
  };
  app.get('/o-form-submission-qualification/:id', participantCall(doc), qualification);
  app.post('/o-form-submission-qualification/:id', participantCall(doc), qualification);
}
