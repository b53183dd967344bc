/**
 * A participant's contact stored: the site link they chose (one still offered), and the contact
 * written with everything that follows from it in one transaction — the submission completed
 * (once only), the channel's count, and either a duplicate's note or the referral with its
 * record-system outbox row and its messages.
 */
import { createHash } from 'node:crypto';
import { and, eq, ne } from 'drizzle-orm';
import type { ContactFormField, contactValues } from '@core/survey/contact';
import type { Deps } from '../context';
import type { Db } from '../db/open';
import { contacts, engagementSiteLocations, oFormSubmissions, referrals, siteLocations } from '../db/schema';
import { Conflict } from '../errors';
import { countOnChannel } from './channelFigures';
import { enqueueDelivery, noteDuplicate } from '../rms';
import { enqueueReferralMessages, messageContextOf, participantEmail, participantPhone } from '../messages';
import { phiOf } from '../security/phi';
import { RUN_ALREADY_COMPLETE, type openSubmission } from './api';
import { duplicateNote, firstReferralOf, type matchKeysOf } from './duplicates';
import type { runOfSubmission } from './runSurvey';

/** The site link if it is active and its site too; whether it still has room is the caller's to ask. */
export async function activeSiteLink(db: Db, siteLinkId: number | null) {
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
  return link;
}

export interface ContactToStore {
  submission: Awaited<ReturnType<typeof openSubmission>>;
  target: Awaited<ReturnType<typeof runOfSubmission>>;
  engagementId: number;
  siteLinkId: number | null;
  form: ContactFormField[];
  values: ReturnType<typeof contactValues>;
  keys: ReturnType<typeof matchKeysOf>;
  /** Kept word for word, with its hash. */
  consentText: string;
  /** The SMS consent as shown, when given; null: no texts. */
  smsConsentText: string | null;
  now: Date;
}

/** `send`: a referral is on its way to its record system; `messages`: messages wait in the outbox. */
export async function storeContact(deps: Deps, input: ContactToStore): Promise<{ contactId: number; send: boolean; messages: boolean }> {
  const { submission, target, engagementId, siteLinkId, form, values, keys, consentText, smsConsentText, now } = input;
  const lang = submission.language;
  const sealed = phiOf(deps).seal(JSON.stringify(values));
  return deps.db.transaction(async (tx) => {
    const first = await firstReferralOf(tx, engagementId, keys, now);
    const [contact] = await tx
      .insert(contacts)
      .values({
        submissionId: submission.id,
        engagementId,
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
        ...(smsConsentText === null
          ? {}
          : { smsConsentText, smsConsentTextSha256: createHash('sha256').update(smsConsentText, 'utf8').digest('hex'), smsConsentedAt: now }),
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
    if (completed.length === 0) throw new Conflict(RUN_ALREADY_COMPLETE);
    await countOnChannel(tx, submission.mediaChannelId, 'submissionsCompleted');
    if (first) {
      // Kept for staff, never sent: the sponsor already has this person's referral.
      await noteDuplicate(tx, contact.id, engagementId, duplicateNote(first), now);
      return { contactId: contact.id, send: false, messages: false };
    }
    const [referral] = await tx
      .insert(referrals)
      .values({ engagementId, engagementSiteLocationId: siteLinkId, contactId: contact.id, created: now })
      .returning({ id: referrals.id });
    // In the same transaction: a stored contact is always on its way to its record system.
    await enqueueDelivery(tx, contact.id, now);
    // And its messages (to the site's staff, to the participant) are in the outbox with it.
    const email = participantEmail(form, values);
    const phone = smsConsentText === null ? null : participantPhone(form, values);
    const written = await enqueueReferralMessages(
      tx,
      messageContextOf(deps),
      {
        referralId: referral!.id,
        engagementId,
        engagementSiteLocationId: siteLinkId,
        language: lang,
        participant: email ? { email, match: keys.emailMatch } : null,
        sms: phone ? { phone, match: keys.phoneMatch } : null,
        created: now,
      },
      now,
    );
    return { contactId: contact.id, send: true, messages: written > 0 };
  });
}
