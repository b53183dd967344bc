/**
 * What record systems report back: where a referral stands on its status ladder
 * (core/model/referral.ts). Two forms reach the same ladder:
 *
 * - our JSON `{contactId, status?, screened?, randomized?}`, signed as Standard Webhooks says;
 * - a FHIR ResearchSubject naming the referral by its identifier (`urn:uuid:<referralId>`), posted
 *   to the provider's own callback path with its secret as a bearer token (what a FHIR
 *   Subscription can send) or signed like the JSON form; every R4 status maps to a rung.
 *
 * Either is accepted from the engagement's provider and from any provider that delivered that
 * referral, so a referral delivered before the engagement switched providers is still reported
 * by the system that holds it.
 *
 * Any doubt about who sent it (unknown contact or referral, no secret, a wrong signature or token)
 * is the same null, so the route answers one 401 that tells an outsider nothing.
 */
import { timingSafeEqual } from 'node:crypto';
import { and, eq, lt, or, sql } from 'drizzle-orm';
import * as v from 'valibot';
import { FHIR_SUBJECT_STATUSES } from '@core/model/rmsAudit';
import type { Db, Tx } from '../db/open';
import { contacts, engagements, rmsAudits, rmsCallbackMessages, rmsDeliveries, rmsProviders } from '../db/schema';
import type { PhiCipher } from '../security/phi';
import { URI_SYSTEM } from './fhir';
import { openSecrets } from './providers';
import { TOLERANCE_SECONDS, verifyMessage, WEBHOOK_SIGNATURE } from './standardWebhooks';

type Headers = (name: string) => string | undefined;

/** A record system allowed to report on a contact's referral. */
export interface Reporter {
  id: number;
  name: string;
}

/** The contact's engagement's provider, or one that accepted the contact's referral. */
const reportsOn = (contactId: number) =>
  or(
    sql`${rmsProviders.id} = (select ${engagements.rmsProviderId} from ${contacts} join ${engagements} on ${engagements.id} = ${contacts.engagementId} where ${contacts.id} = ${contactId})`,
    sql`exists (select 1 from ${rmsAudits} where ${rmsAudits.contactId} = ${contactId} and ${rmsAudits.rmsProviderId} = ${rmsProviders.id} and ${rmsAudits.succeeded})`,
  );

/** The provider whose secret signed the JSON callback for `contactId`, when one did. */
export async function verifySignedCallback(db: Db, phi: PhiCipher, contactId: number, headers: Headers, raw: string, now: Date): Promise<Reporter | null> {
  const providers = await db
    .select({ id: rmsProviders.id, name: rmsProviders.name, signingSecret: rmsProviders.signingSecret, bearerToken: rmsProviders.bearerToken })
    .from(rmsProviders)
    .where(reportsOn(contactId));
  for (const provider of providers) {
    const { secret } = openSecrets(phi, provider);
    if (secret !== null && verifyMessage(secret, headers, raw, now)) return { id: provider.id, name: provider.name };
  }
  return null;
}

/**
 * How long a callback's webhook-id is remembered: a signed message is accepted from
 * TOLERANCE_SECONDS before its timestamp to as long after, so a replay can come at most twice
 * that after the first; later its signature is refused anyway.
 */
const REMEMBERED_MS = (2 * TOLERANCE_SECONDS + 60) * 1000;

/**
 * Claims a signed callback's `webhook-id` (its idempotency key) for `contactId`, in the
 * transaction that applies it: false when that message was already applied, so a replay of an
 * earlier message, even at the same moment as the first, changes nothing.
 */
export async function claimWebhookId(tx: Tx, contactId: number, webhookId: string, now: Date): Promise<boolean> {
  await tx.delete(rmsCallbackMessages).where(lt(rmsCallbackMessages.receivedAt, new Date(now.getTime() - REMEMBERED_MS)));
  const claimed = await tx.insert(rmsCallbackMessages).values({ contactId, webhookId, receivedAt: now }).onConflictDoNothing().returning();
  return claimed.length > 0;
}

export const ResearchSubjectUpdate = v.object({
  resourceType: v.literal('ResearchSubject', 'The body must be a FHIR ResearchSubject.'),
  identifier: v.array(v.object({ system: v.optional(v.string()), value: v.optional(v.string()) }), 'The ResearchSubject needs the referral identifier.'),
  status: v.picklist(
    Object.keys(FHIR_SUBJECT_STATUSES) as (keyof typeof FHIR_SUBJECT_STATUSES)[],
    `status must be one of: ${Object.keys(FHIR_SUBJECT_STATUSES).join(', ')}.`,
  ),
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
 * The contact a FHIR callback to provider `providerId` is about, and that provider, when the
 * referral is one it may report on and the request carries its secret (bearer or Standard
 * Webhooks signature).
 */
export async function authenticFhirCallback(
  db: Db,
  phi: PhiCipher,
  providerId: number,
  referralKey: string,
  headers: Headers,
  raw: string,
  now: Date,
): Promise<{ contactId: number; reporter: Reporter } | null> {
  const [delivery] = await db.select({ contactId: rmsDeliveries.contactId }).from(rmsDeliveries).where(eq(rmsDeliveries.referralKey, referralKey));
  if (!delivery) return null;
  const [found] = await db
    .select({ id: rmsProviders.id, name: rmsProviders.name, signingSecret: rmsProviders.signingSecret, bearerToken: rmsProviders.bearerToken })
    .from(rmsProviders)
    .where(and(eq(rmsProviders.id, providerId), reportsOn(delivery.contactId)));
  if (!found) return null;
  const { secret } = openSecrets(phi, found);
  if (!secret) return null;
  const reporter = { id: found.id, name: found.name };
  if (headers(WEBHOOK_SIGNATURE)) return verifyMessage(secret, headers, raw, now) ? { contactId: delivery.contactId, reporter } : null;
  const bearer = /^Bearer\s+(\S+)$/i.exec(headers('authorization') ?? '')?.[1];
  return bearer && sameText(bearer, secret) ? { contactId: delivery.contactId, reporter } : null;
}
