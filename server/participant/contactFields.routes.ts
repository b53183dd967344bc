/**
 * POST (or GET) /api/o-forms/o-form-submission-contact-fields/:submissionId: the screener's contact
 * fields. The widget POSTs with the token in the body (no preflight); GET with the header answers the same.
 */
import { participantCall, type ParticipantCall } from './callDescription';
import { assertRunNotEnded } from './access';
import { CONTACT_FIELD_TYPE } from '@core/model/contactField';
import type { ParticipantAnswer } from '@core/participant/responses';
import { nowOf, type Deps } from '../context';
import { sendDocument, toResource } from '../http/serialize';
import { assertComplete, openSubmission, screenerContactFields, type ParticipantApp } from './api';
import { outcomeMessages } from './messages';
import { smsConsentText } from '../messages';
import { runOfSubmission } from './runSurvey';
import { markSiteSelected, qualify } from './qualification';
import { phiOf } from '../security/phi';
import type { Context } from 'hono';
import type { AppEnv } from '../context';

export function participantOFormSubmissionContactFieldsRoutes(app: ParticipantApp, deps: Deps) {
  const { db } = deps;

  const doc = { summary: "Participant: the contact form's fields", access: 'participant', answer: 'contactFields' } satisfies ParticipantCall;
  const contactForm = async (c: Context<AppEnv>) => {
    const submission = await openSubmission(deps, c);
    assertRunNotEnded(submission, 'submission');
    if (submission.status !== 'completed') {
      const qualification = await qualify(db, submission, { today: nowOf(deps), phi: phiOf(deps) });
      assertComplete(qualification);
      // The widget asks for the contact form once a site is chosen: the funnel's siteSelected (funnel/stages.ts).
      if (qualification.isQualified) await markSiteSelected(db, submission.id, nowOf(deps));
    }
    const target = await runOfSubmission(db, submission);
    const fields = await screenerContactFields(db, target.screenerId);
    const data = fields.map((f) =>
      toResource(CONTACT_FIELD_TYPE, f.id, { name: f.name, label: f.label, fieldType: f.fieldType, required: f.required, translations: f.translations }),
    );
    // The texts around the contact form once a site is chosen.
    const pair = await outcomeMessages(db, target.screenerId, 'trialSiteSelected', submission.language, submission.oFormId);
    // A phone number asked for: the separate consent to be texted is offered beside it.
    const messages = fields.some((f) => f.fieldType === 'phone') ? { ...pair, sms: smsConsentText(submission.language) } : pair;
    return sendDocument(c, { data, meta: { outcome: 'trialSiteSelected', messages } satisfies ParticipantAnswer<'contactFields'>['meta'] });
  };
  app.post('/o-form-submission-contact-fields/:submissionId', participantCall(doc), contactForm);
  app.get('/o-form-submission-contact-fields/:submissionId', participantCall(doc), contactForm);
}
