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
import { createHash } from 'node:crypto';
import { and, eq, ne } from 'drizzle-orm';
import * as v from 'valibot';
import { toFieldIssues, type FieldIssue } from '@core/model/fields';
import { ACCEPT_TERMS, checkContact, contactValues, type ContactFormField } from '@core/oform/contact';
import { message } from '@core/validation/messages';
import { ContactAttributes } from '@core/participant/requests';
import { PARTICIPANT_ANSWERS, type ParticipantAnswer } from '@core/participant/responses';
import { nowOf, type Deps } from '../context';
import { contacts, engagementSiteLocations, oFormSubmissions, referrals, siteLocations } from '../db/schema';
import { conflict, invalid } from '../http/errors';
import { parseId } from '../http/query';
import { sendDocument } from '../http/serialize';
import {
  assertComplete,
  openSubmission,
  screenerContactFields,
  MISSING_CONTACT_TOKEN,
  NOT_QUALIFIED_FOR_CONTACT,
  readParticipantJson,
  RUN_ALREADY_COMPLETE,
  type ParticipantApp,
} from './api';
import { outcomeMessages } from './messages';
import { runOfSubmission } from './run';
import { qualify } from './qualification';
import { countOnChannel } from '../channels';
import { linksWithRoom } from '../sites';
import { enqueueDelivery, noteDuplicate } from '../rms';
import { duplicateNote, firstReferralOf, matchKeysOf } from './duplicates';
import { deliverSoon, deliveryOptionsOf } from '../rms';
import { enqueueReferralMessages, messageContextOf, messageOptionsOf, participantEmail, sendMessagesSoon } from '../messages';
import { phiOf } from '../security/phi';
import { contactMatcherOf } from '../security/contactMatch';
import { describe } from '../openapi/describe';

const ContactDocument = v.object({ data: v.object({ type: v.optional(v.string()), attributes: ContactAttributes }) });

const idOf = (value: string | number | null | undefined): number | null => (value === null || value === undefined ? null : parseId(String(value)));

export function participantOFormSubmissionContactRoutes(app: ParticipantApp, deps: Deps) {
  const { db } = deps;

  app.post('/o-form-submission-contact/:submissionId', describe({ summary: 'Participant: send contact details and the chosen site', access: 'participant', body: { json: ContactDocument }, answer: { document: PARTICIPANT_ANSWERS.contact, status: 201 } }), async (c) => {
    const submission = await openSubmission(deps, c, MISSING_CONTACT_TOKEN);
    assertRunNotEnded(submission, 'submission');
    const lang = submission.language;

    const parsed = v.safeParse(ContactDocument, await readParticipantJson(c));
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
    const issues: FieldIssue[] = Object.entries(checkContact(form, attributes.values, attributes.acceptTerms, lang)).map(([name, detail]) => ({
      pointer: name === ACCEPT_TERMS ? '/data/attributes/acceptTerms' : `/data/attributes/values/${name}`,
      detail,
    }));

    // The chosen site must be an active site of an engagement the participant qualified for;
    // without one (no site within reach) the contact is for the engagement named, else the first.
    const siteLinkId = idOf(attributes.engagementSiteLocationId);
    let engagementId: number | null = null;
    if (attributes.engagementSiteLocationId !== undefined && attributes.engagementSiteLocationId !== null) {
      const [link] =
        siteLinkId === null
          ? []
          : await db
              .select({
                id: engagementSiteLocations.id,
                engagementId: engagementSiteLocations.engagementId,
                weeklyCap: engagementSiteLocations.weeklyCap,
                totalCap: engagementSiteLocations.totalCap,
                isPaused: engagementSiteLocations.isPaused,
              })
              .from(engagementSiteLocations)
              .innerJoin(siteLocations, eq(siteLocations.id, engagementSiteLocations.siteLocationId))
              .where(and(eq(engagementSiteLocations.id, siteLinkId), eq(engagementSiteLocations.isActive, true), eq(siteLocations.isActive, true)));
      // A site paused or at its cap since it was offered is no longer a choice.
      const room = link ? await linksWithRoom(db, [link], nowOf(deps)) : new Set<number>();
      if (link && room.has(link.id) && qualification.engagementIds.includes(link.engagementId)) engagementId = link.engagementId;
      else issues.push({ pointer: '/data/attributes/engagementSiteLocationId', detail: message('choice', {}, lang) });
    } else {
      const named = idOf(attributes.engagementId);
      engagementId = named !== null && qualification.engagementIds.includes(named) ? named : (qualification.engagementIds[0] ?? null);
    }
    if (issues.length > 0 || engagementId === null) throw invalid(issues);

    const now = nowOf(deps);
    const values = contactValues(form, attributes.values);
    const sealed = phiOf(deps).seal(JSON.stringify(values));
    const keys = matchKeysOf(contactMatcherOf(deps), form, values);
    // The consent as the contact-fields step showed it, kept word for word with its hash.
    const consentText = (await outcomeMessages(db, target.screenerId, 'trialSiteSelected', lang, submission.oFormId)).consent;
    const stored = await db.transaction(async (tx) => {
      const first = await firstReferralOf(tx, engagementId!, keys, now);
      const [contact] = await tx
        .insert(contacts)
        .values({
          submissionId: submission.id,
          engagementId: engagementId!,
          engagementSiteLocationId: siteLinkId,
          screenerId: target.screenerId,
          mediaChannelId: submission.mediaChannelId,
          language: lang,
          valuesCiphertext: sealed,
          acceptTerms: true,
          consentedAt: now,
          consentText,
          consentTextSha256: createHash('sha256').update(consentText, 'utf8').digest('hex'),
          consentSurveyId: target.form?.id ?? submission.oFormId,
          consentSurveyVersion: target.form?.version ?? null,
          ...keys,
          duplicateOf: first?.contactId ?? null,
          created: now,
        })
        .returning({ id: contacts.id });
      if (!contact) throw new Error('contact not stored');
      // Only one contact per run: a second request racing this one finds the run completed.
      const completed = await tx
        .update(oFormSubmissions)
        .set({ status: 'completed', outcome: 'completed', completedAt: now, modified: now })
        .where(and(eq(oFormSubmissions.id, submission.id), ne(oFormSubmissions.status, 'completed')))
        .returning({ id: oFormSubmissions.id });
      if (completed.length === 0) throw conflict(RUN_ALREADY_COMPLETE);
      await countOnChannel(tx, submission.mediaChannelId, 'submissionsCompleted');
      if (first) {
        // Kept for staff, never sent: the sponsor already has this person's referral.
        await noteDuplicate(tx, contact.id, engagementId!, duplicateNote(first), now);
        return { contactId: contact.id, send: false, messages: false };
      }
      const [referral] = await tx
        .insert(referrals)
        .values({ engagementId: engagementId!, engagementSiteLocationId: siteLinkId, contactId: contact.id, created: now })
        .returning({ id: referrals.id });
      // In the same transaction: a stored contact is always on its way to its record system.
      await enqueueDelivery(tx, contact.id, now);
      // And its messages (to the site's staff, to the participant) are in the outbox with it.
      const email = participantEmail(form, values);
      const written = await enqueueReferralMessages(
        tx,
        messageContextOf(deps),
        {
          referralId: referral!.id,
          engagementId: engagementId!,
          engagementSiteLocationId: siteLinkId,
          language: lang,
          participant: email ? { email, match: keys.emailMatch } : null,
          created: now,
        },
        now,
      );
      return { contactId: contact.id, send: true, messages: written > 0 };
    });

    // The first attempt now, in the background; retries are the delivery worker's (rms/worker.ts).
    if (stored.send) deliverSoon(deliveryOptionsOf(deps), stored.contactId);
    if (stored.messages) sendMessagesSoon(messageOptionsOf(deps));
    const messages = await outcomeMessages(db, target.screenerId, 'completed', lang, submission.oFormId);
    return sendDocument(c, { meta: { outcome: 'completed', messages } } satisfies ParticipantAnswer<'contact'>, 201);
  });
}
