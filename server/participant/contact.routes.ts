/**
 * POST /api/o-forms/o-form-submission-contact/:submissionId: the participant's contact (docs/participant-api.md),
 * opened by the submission's access token (server/participant/access.ts).
 *
 * The contact is stored first (values sealed with the PHI key), together with its referral, its
 * record-system outbox row, the submission marked completed and the channel's completed count,
 * all in one transaction (a duplicate of an earlier referral, participant/duplicates.ts, gets
 * neither referral nor outbox row: an audit row says why it is not sent); the first delivery attempt runs after that, in the background, so a
 * record system that is slow or down never fails (or delays) the participant's request. Failed
 * attempts are retried on RMS_RETRY_SCHEDULE (rms/worker.ts); every attempt leaves an audit.
 */
import { assertRunNotEnded } from './access';
import * as v from 'valibot';
import { toFieldIssues, type FieldIssue } from '@core/model/fields';
import { ACCEPT_TERMS, checkContact, contactValues, type ContactFormField } from '@core/survey/contact';
import { message } from '@core/validation/messages';
import { ContactAttributes } from '@core/participant/requests';
import type { ParticipantAnswer } from '@core/participant/responses';
import { nowOf, type Deps } from '../context';
import { conflict, invalid } from '../http/errors';
import { parseId } from '../http/query';
import { sendDocument } from '../http/serialize';
import { assertComplete, openSubmission, screenerContactFields, MISSING_CONTACT_TOKEN, NOT_QUALIFIED_FOR_CONTACT, type ParticipantApp } from './api';
import { outcomeMessages } from './messages';
import { runOfSubmission } from './runSurvey';
import { regionOfChannel } from './sites';
import { qualify } from './qualification';
import { linksWithRoom } from '../sites';
import { matchKeysOf } from './duplicates';
import { activeSiteLink, storeContact } from './contact';
import { deliverSoon, deliveryOptionsOf } from '../rms';
import { messageOptionsOf, participantPhone, sendMessagesSoon, smsConsentText } from '../messages';

export const SMS_CONSENT_NEEDS_PHONE = 'A text message needs a phone number: enter one, or leave this box unticked.';
import { phiOf } from '../security/phi';
import { contactMatcherOf } from '../security/contactMatch';
import { participantCall } from './callDescription';

const ContactDocument = v.object({ data: v.object({ type: v.optional(v.string()), attributes: ContactAttributes }) });

const idOf = (value: string | number | null | undefined): number | null => (value === null || value === undefined ? null : parseId(String(value)));

export function participantOFormSubmissionContactRoutes(app: ParticipantApp, deps: Deps) {
  const { db } = deps;

  app.post(
    '/o-form-submission-contact/:submissionId',
    participantCall({
      summary: 'Participant: send contact details and the chosen site',
      access: 'participant',
      body: { json: ContactDocument },
      answer: 'contact',
      status: 201,
    }),
    async (c) => {
      const submission = await openSubmission(deps, c, MISSING_CONTACT_TOKEN);
      assertRunNotEnded(submission, 'submission');
      const lang = submission.language;

      const parsed = await c.var.body.read();
      if (!parsed.success) throw invalid(toFieldIssues(parsed.issues, ''));
      const attributes = parsed.output.data.attributes;

      const target = await runOfSubmission(db, submission);
      // Judged again, written nowhere: a refused contact changes nothing (the qualification step
      // is what records an outcome, under the submission's lock).
      const qualification = await qualify(db, submission, { today: nowOf(deps), phi: phiOf(deps) });
      assertComplete(qualification);
      if (!qualification.isQualified) throw conflict(NOT_QUALIFIED_FOR_CONTACT);

      const fields = await screenerContactFields(db, target.screenerId);
      const form: ContactFormField[] = fields.map((f) => ({ name: f.name, fieldType: f.fieldType, required: f.required }));
      // A ZIP field takes the postal codes of the channel's region, as the survey's ZIP questions do.
      const issues: FieldIssue[] = Object.entries(checkContact(form, attributes.values, attributes.acceptTerms, lang, regionOfChannel(target.channel))).map(
        ([name, detail]) => ({
          pointer: name === ACCEPT_TERMS ? '/data/attributes/acceptTerms' : `/data/attributes/values/${name}`,
          detail,
        }),
      );

      // The chosen site must be an active site of an engagement the participant qualified for;
      // without one (no site within reach) the contact is for the engagement named, else the first.
      const siteLinkId = idOf(attributes.engagementSiteLocationId);
      let engagementId: number | null = null;
      if (attributes.engagementSiteLocationId !== undefined && attributes.engagementSiteLocationId !== null) {
        const link = await activeSiteLink(db, siteLinkId);
        // A site paused or at its cap since it was offered is no longer a choice.
        const room = link ? await linksWithRoom(db, [link], nowOf(deps)) : new Set<number>();
        if (link && room.has(link.id) && qualification.engagementIds.includes(link.engagementId)) engagementId = link.engagementId;
        else issues.push({ pointer: '/data/attributes/engagementSiteLocationId', detail: message('choice', {}, lang) });
      } else {
        const named = idOf(attributes.engagementId);
        engagementId = named !== null && qualification.engagementIds.includes(named) ? named : (qualification.engagementIds[0] ?? null);
      }
      // The SMS consent needs a number to text.
      const smsConsent = attributes.smsConsent === true;
      if (
        smsConsent &&
        !issues.some((i) => i.pointer.startsWith('/data/attributes/values/')) &&
        participantPhone(form, contactValues(form, attributes.values)) === null
      ) {
        issues.push({ pointer: '/data/attributes/smsConsent', detail: SMS_CONSENT_NEEDS_PHONE });
      }
      if (issues.length > 0 || engagementId === null) throw invalid(issues);

      const now = nowOf(deps);
      const values = contactValues(form, attributes.values);
      const keys = matchKeysOf(contactMatcherOf(deps), form, values);
      // The consent as the contact-fields step showed it, kept word for word with its hash.
      const consentText = (await outcomeMessages(db, target.screenerId, 'trialSiteSelected', lang, submission.oFormId)).consent;
      // The SMS consent as the contact step offered it, kept the same way.
      const smsConsentShown = smsConsent ? smsConsentText(lang) : null;
      const stored = await storeContact(deps, {
        submission,
        target,
        engagementId,
        siteLinkId,
        form,
        values,
        keys,
        consentText,
        smsConsentText: smsConsentShown,
        now,
      });

      // The first attempt now, in the background; retries are the delivery worker's (rms/worker.ts).
      if (stored.send) deliverSoon(deliveryOptionsOf(deps), stored.contactId);
      if (stored.messages) sendMessagesSoon(messageOptionsOf(deps));
      const messages = await outcomeMessages(db, target.screenerId, 'completed', lang, submission.oFormId);
      return sendDocument(c, { meta: { outcome: 'completed', messages } } satisfies ParticipantAnswer<'contact'>, 201);
    },
  );
}
