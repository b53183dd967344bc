/**
 * What record systems report back: a referral screened or randomized. Two forms reach the same
 * counts (referrals.is_screened / is_randomized):
 *
 * - our JSON `{contactId, screened?, randomized?}`, signed as Standard Webhooks says with the
 *   secret of the contact's engagement's provider;
 * - a FHIR ResearchSubject naming the referral by its identifier (`urn:uuid:<referralId>`), posted
 *   to the provider's own callback path with its secret as a bearer token (what a FHIR
 *   Subscription can send) or signed like the JSON form.
 *
 * Any doubt about who sent it (unknown contact or referral, no secret, a wrong signature or token)
 * is the same null, so the route answers one 401 that tells an outsider nothing.
 */
import { timingSafeEqual } from 'node:crypto';
import { eq, lt } from 'drizzle-orm';
import * as v from 'valibot';
import { FHIR_SUBJECT_STATUSES } from '@core/model/rmsAudit';
import type { Db } from '../db/open';
import { contacts, engagements, referrals, rmsCallbackMessages, rmsDeliveries, rmsProviders } from '../db/schema';
import type { PhiCipher } from '../security/phi';
import { URI_SYSTEM } from './fhir';
import { openSecrets } from './providers';
import { TOLERANCE_SECONDS, verifyMessage, WEBHOOK_SIGNATURE } from './standardWebhooks';

export type ReferralRow = typeof referrals.$inferSelect;
type Headers = (name: string) => string | undefined;

export interface StatusChange {
  screened?: boolean;
  randomized?: boolean;
}

/** The secret of contact `contactId`'s engagement's provider, when it has one. */
async function secretOfContact(db: Db, phi: PhiCipher, contactId: number): Promise<string | null> {
  const [found] = await db
    .select({ signingSecret: rmsProviders.signingSecret, bearerToken: rmsProviders.bearerToken })
    .from(contacts)
    .innerJoin(engagements, eq(engagements.id, contacts.engagementId))
    .innerJoin(rmsProviders, eq(rmsProviders.id, engagements.rmsProviderId))
    .where(eq(contacts.id, contactId));
  return found ? openSecrets(phi, found).secret : null;
}

/** Whether the JSON callback for `contactId` is signed by its provider. */
export async function verifySignedCallback(db: Db, phi: PhiCipher, contactId: number, headers: Headers, raw: string, now: Date): Promise<boolean> {
  const secret = await secretOfContact(db, phi, contactId);
  return secret !== null && verifyMessage(secret, headers, raw, now);
}

/**
 * How long a callback's webhook-id is remembered: a signed message is accepted from
 * TOLERANCE_SECONDS before its timestamp to as long after, so a replay can come at most twice
 * that after the first; later its signature is refused anyway.
 */
const REMEMBERED_MS = (2 * TOLERANCE_SECONDS + 60) * 1000;

/**
 * A signed callback's status applied once per `webhook-id` (its idempotency key): the id is
 * claimed in the change's own transaction, so a replay of an earlier message, even at the same
 * moment as the first, changes nothing and answers the referral as it is (a later correction
 * stands). Null when the contact has no referral.
 */
export async function applySignedCallback(db: Db, contactId: number, webhookId: string, change: StatusChange, now: Date): Promise<ReferralRow | null> {
  return db.transaction(async (tx) => {
    await tx.delete(rmsCallbackMessages).where(lt(rmsCallbackMessages.receivedAt, new Date(now.getTime() - REMEMBERED_MS)));
    const claimed = await tx.insert(rmsCallbackMessages).values({ contactId, webhookId, receivedAt: now }).onConflictDoNothing().returning();
    if (claimed.length === 0) {
      const [referral] = await tx.select().from(referrals).where(eq(referrals.contactId, contactId));
      return referral ?? null;
    }
    return applyReferralStatus(tx, contactId, change);
  });
}

/** Sets the referral's flags (randomized implies screened); null when the contact has no referral. */
export async function applyReferralStatus(db: Db, contactId: number, change: StatusChange): Promise<ReferralRow | null> {
  const isScreened = change.randomized === true ? true : change.screened;
  const changes = {
    ...(isScreened !== undefined ? { isScreened } : {}),
    ...(change.randomized !== undefined ? { isRandomized: change.randomized } : {}),
  };
  const [referral] = Object.keys(changes).length
    ? await db.update(referrals).set(changes).where(eq(referrals.contactId, contactId)).returning()
    : await db.select().from(referrals).where(eq(referrals.contactId, contactId));
  return referral ?? null;
}

export const ResearchSubjectUpdate = v.object({
  resourceType: v.literal('ResearchSubject', 'The body must be a FHIR ResearchSubject.'),
  identifier: v.array(v.object({ system: v.optional(v.string()), value: v.optional(v.string()) }), 'The ResearchSubject needs the referral identifier.'),
  status: v.picklist(Object.keys(FHIR_SUBJECT_STATUSES) as (keyof typeof FHIR_SUBJECT_STATUSES)[], `status must be one of: ${Object.keys(FHIR_SUBJECT_STATUSES).join(', ')}.`),
});
export type ResearchSubjectUpdate = v.InferOutput<typeof ResearchSubjectUpdate>;

const UUID_URN = /^urn:uuid:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** The referral key a ResearchSubject names (identifier system urn:ietf:rfc:3986, value urn:uuid:…), or null. */
export function referralKeyOf(subject: ResearchSubjectUpdate): string | null {
  for (const id of subject.identifier) {
    const match = id.system === URI_SYSTEM && id.value ? UUID_URN.exec(id.value) : null;
    if (match) return match[1]!.toLowerCase();
  }
  return null;
}

const sameText = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/**
 * The contact a FHIR callback to provider `providerId` is about, when the referral is one of
 * that provider's and the request carries its secret (bearer or Standard Webhooks signature).
 */
export async function authenticFhirCallback(
  db: Db,
  phi: PhiCipher,
  providerId: number,
  referralKey: string,
  headers: Headers,
  raw: string,
  now: Date,
): Promise<number | null> {
  const [found] = await db
    .select({ contactId: rmsDeliveries.contactId, providerId: engagements.rmsProviderId, signingSecret: rmsProviders.signingSecret, bearerToken: rmsProviders.bearerToken })
    .from(rmsDeliveries)
    .innerJoin(contacts, eq(contacts.id, rmsDeliveries.contactId))
    .innerJoin(engagements, eq(engagements.id, contacts.engagementId))
    .innerJoin(rmsProviders, eq(rmsProviders.id, engagements.rmsProviderId))
    .where(eq(rmsDeliveries.referralKey, referralKey));
  if (!found || found.providerId !== providerId) return null;
  const { secret } = openSecrets(phi, found);
  if (!secret) return null;
  if (headers(WEBHOOK_SIGNATURE)) return verifyMessage(secret, headers, raw, now) ? found.contactId : null;
  const bearer = /^Bearer\s+(\S+)$/i.exec(headers('authorization') ?? '')?.[1];
  return bearer && sameText(bearer, secret) ? found.contactId : null;
}
