/**
 * The messages a new referral causes, written in the referral's own transaction:
 * - newReferral to the site's coordinators and the engagement's recruiters (active staff with an
 *   e-mail address: Site Coordinators tied to the site, Users of the engagement's sponsor);
 * - firstContactOverdue to the same people and the engagement's owner (recipients.ts), due when
 *   the first contact is (the service level first_contact_hours) and not sent if a first contact
 *   was made by then;
 * - participantConfirmation to the participant, in their language, when they consented and
 *   left an e-mail address that has not unsubscribed; participantReminder to them at the due
 *   time, not sent if a contact attempt was logged by then.
 * Each only when the engagement has it on, after its delay. Staff messages carry the site, the
 * engagement, the due time and a link to the referral: never an answer, a contact value or the
 * condition.
 */
import { and, eq } from 'drizzle-orm';
import type { MessageKind } from '@core/model/message';
import type { Conn } from '../db/open';
import { engagementMessageSettings, engagements, engagementSiteLocations, siteLocations } from '../db/schema';
import { enqueueMessage, isOptedOut, isSmsOptedOut, messageIdDomain, type MessageContext, type NewMessage } from './outbox';
import { participantSiteMail } from './participantMail';
import { renderSms, smsTemplateOf } from './smsTexts';
import { addressedToParticipant, addressedToStaff, engagementOwner, everyone, referralStaff } from './recipients';
import { render, templateOf } from './templates';

export interface NewReferralFacts {
  referralId: number;
  engagementId: number;
  engagementSiteLocationId: number | null;
  language: string;
  /** The participant's e-mail address and its keyed hash, when they left one and consented. */
  participant: { email: string; match: string | null } | null;
  /** The participant's phone number and its keyed hash, when they gave the separate SMS consent. */
  sms?: { phone: string; match: string | null } | null;
  created: Date;
}

const MINUTE = 60_000;

/** "2031-05-08 09:00 UTC": an instant as a message shows it. */
export const formatDue = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export async function enabledKinds(db: Conn, engagementId: number): Promise<Map<MessageKind, number>> {
  const rows = await db
    .select({ kind: engagementMessageSettings.kind, delay: engagementMessageSettings.delayMinutes })
    .from(engagementMessageSettings)
    .where(and(eq(engagementMessageSettings.engagementId, engagementId), eq(engagementMessageSettings.isEnabled, true)));
  return new Map(rows.map((r) => [r.kind as MessageKind, r.delay]));
}

/** Writes the new referral's messages; answers how many. Call inside the referral's transaction. */
export async function enqueueReferralMessages(tx: Conn, ctx: MessageContext, facts: NewReferralFacts, now: Date): Promise<number> {
  const kinds = await enabledKinds(tx, facts.engagementId);
  if (kinds.size === 0) return 0;
  const [place] = await tx
    .select({
      engagement: engagements.name,
      sponsorId: engagements.sponsorId,
      hours: engagements.firstContactHours,
      siteLocationId: siteLocations.id,
      site: siteLocations.name,
      town: siteLocations.city,
    })
    .from(engagements)
    .leftJoin(engagementSiteLocations, eq(engagementSiteLocations.id, facts.engagementSiteLocationId ?? -1))
    .leftJoin(siteLocations, eq(siteLocations.id, engagementSiteLocations.siteLocationId))
    .where(eq(engagements.id, facts.engagementId));
  if (!place) return 0;
  const domain = messageIdDomain(ctx.mailFrom);
  const due = new Date(facts.created.getTime() + place.hours * 3600_000);
  const site = place.site ?? '—';
  // The referral's own view in the admin (its timeline, status and attempts).
  const link = `${ctx.baseUrl}/referrals/view/${facts.referralId}`;
  // Every message of a referral names its engagement and the referral.
  const enqueue = (message: Omit<NewMessage, 'engagementId' | 'referralId'>) =>
    enqueueMessage(tx, ctx.phi, domain, { ...message, engagementId: facts.engagementId, referralId: facts.referralId }, now);
  let written = 0;

  const staffKinds = (['newReferral', 'firstContactOverdue'] as const).filter((k) => kinds.has(k));
  if (staffKinds.length > 0) {
    const staff = await referralStaff(tx, place.sponsorId, place.siteLocationId);
    const overdueTo = kinds.has('firstContactOverdue') ? everyone(staff, await engagementOwner(tx, facts.engagementId)) : staff;
    for (const kind of staffKinds) {
      const delay = kinds.get(kind)! * MINUTE;
      const dueAt = kind === 'newReferral' ? new Date(now.getTime() + delay) : new Date(due.getTime() + delay);
      for (const person of kind === 'firstContactOverdue' ? overdueTo : staff) {
        const filled = render(kind, await templateOf(tx, kind, person.locale), { engagement: place.engagement, site, due: formatDue(due), link });
        await enqueue({ kind, ...addressedToStaff(person), ...filled, dueAt });
        written++;
      }
    }
  }

  const participant = facts.participant;
  const participantKinds = (['participantConfirmation', 'participantReminder'] as const).filter((k) => kinds.has(k));
  if (participant && participantKinds.length > 0 && !(await isOptedOut(tx, participant.match))) {
    const to = { email: participant.email, match: participant.match, language: facts.language };
    for (const kind of participantKinds) {
      const delay = kinds.get(kind)! * MINUTE;
      const mail = await participantSiteMail(tx, ctx.baseUrl, kind, to, { engagement: place.engagement, site, town: place.town });
      await enqueue({ kind, ...mail, dueAt: kind === 'participantConfirmation' ? new Date(now.getTime() + delay) : new Date(due.getTime() + delay) });
      written++;
    }
  }

  // One confirmation text, only with the SMS consent and never to a number that texted STOP.
  const sms = facts.sms;
  if (sms && kinds.has('participantConfirmation') && !(await isSmsOptedOut(tx, sms.match))) {
    const { text: template } = await smsTemplateOf(tx, 'participantConfirmation', facts.language);
    const text = renderSms('participantConfirmation', template, { engagement: place.engagement, site, town: place.town ?? '' });
    await enqueue({
      kind: 'participantConfirmation',
      channel: 'sms',
      ...addressedToParticipant({ language: facts.language, to: sms.phone, toMatch: sms.match, unsubscribeToken: null }),
      subject: 'Text message',
      text,
      html: '',
      dueAt: new Date(now.getTime() + kinds.get('participantConfirmation')! * MINUTE),
    });
    written++;
  }
  return written;
}
