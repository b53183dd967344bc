/**
 * The record-system outbox (rms_deliveries): a row per contact, written in the contact's own
 * transaction, so a stored contact is always on its way to its record system.
 *
 * Claiming leases each attempt to exactly one process, as every outbox does (jobs/lease.ts):
 * a lease's length is the provider's own timeout with a margin.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Conn, Db } from '../db/open';
import { rowsOf } from '../db/rows';
import { engagements, rmsAudits, rmsDeliveries, rmsProviders } from '../db/schema';
import { claimLeases } from '../jobs/lease';
import { retryDueAt } from '../jobs/retrySchedule';
import { NONE_PROVIDER_NAME } from './provider';
import { truncate, type AttemptResult } from './attempt';

/** Where a contact's delivery stands (rms_deliveries.status; the referrals count `delivered`, referrals/delivered.ts). */
export const DELIVERY_STATUS = {
  /** The first attempt (of a round) is due. */
  pending: 'pending',
  /** An attempt failed; the next one is due at next_attempt_at. */
  retrying: 'retrying',
  delivered: 'delivered',
  /** Every attempt of the schedule failed, or the receiver said "never": waits for a resend. */
  undelivered: 'undelivered',
} as const;

export type RmsAuditRow = typeof rmsAudits.$inferSelect;
export type RmsDeliveryRow = typeof rmsDeliveries.$inferSelect;

/** Beyond the provider's own timeout, how long a claimed attempt may take before another process may retry it. */
const LEASE_MARGIN_MS = 60_000;

/** Puts contact `contactId` on its way, first attempt due at `now`. Call inside the contact's transaction. */
export async function enqueueDelivery(tx: Conn, contactId: number, now: Date): Promise<void> {
  await tx.insert(rmsDeliveries).values({ contactId, status: DELIVERY_STATUS.pending, nextAttemptAt: now, created: now });
}

/**
 * Records, in the contact's transaction, that contact `contactId` is not sent (a duplicate): an
 * audit row of attempt 0 under the engagement's provider, so the RMS audits list shows it.
 */
export async function noteDuplicate(tx: Conn, contactId: number, engagementId: number, note: string, now: Date): Promise<void> {
  const [provider] = await tx
    .select({ id: rmsProviders.id, name: rmsProviders.name })
    .from(engagements)
    .leftJoin(rmsProviders, eq(rmsProviders.id, engagements.rmsProviderId))
    .where(eq(engagements.id, engagementId));
  await writeAudit(
    tx,
    {
      contactId,
      providerId: provider?.id ?? null,
      providerName: provider?.name ?? NONE_PROVIDER_NAME,
      attempt: 0,
      succeeded: false,
      responseMessage: note,
      responseBody: '',
    },
    now,
  );
}

export interface Claim {
  contactId: number;
  referralKey: string;
  /** This attempt's number in the current round, from 1. */
  attempt: number;
  leaseId: string;
  /** The previous attempt's lease ran out: it was cut off before it was recorded. */
  interrupted: boolean;
}

/**
 * Claims up to `limit` deliveries due at `now` (only `contactId`'s when given). Deliveries to
 * an inactive provider wait: they are not claimed until it is active again.
 */
export async function claimDue(db: Db, now: Date, options: { limit?: number; contactId?: number } = {}): Promise<Claim[]> {
  const leases = await claimLeases(
    db,
    { key: rmsDeliveries.contactId, attempts: rmsDeliveries.attempts, nextAttemptAt: rmsDeliveries.nextAttemptAt, leaseId: rmsDeliveries.leaseId },
    now,
    {
      joins: sql`join contacts c on c.id = ${rmsDeliveries.contactId}
        join engagements e on e.id = c.engagement_id
        left join rms_providers p on p.id = e.rms_provider_id`,
      where: sql`${rmsDeliveries.status} in ('pending', 'retrying') and (p.id is null or p.is_active)
        ${options.contactId === undefined ? sql`` : sql`and ${rmsDeliveries.contactId} = ${options.contactId}`}`,
      leaseMs: sql`coalesce(p.timeout_ms, 0) + ${LEASE_MARGIN_MS}`,
      limit: options.limit ?? 20,
      returning: { referralKey: rmsDeliveries.referralKey },
    },
  );
  return leases.map((lease) => ({
    contactId: lease.key,
    referralKey: String(lease.values.referralKey),
    attempt: lease.attempt,
    leaseId: lease.leaseId,
    interrupted: lease.interrupted,
  }));
}

export interface AuditInput {
  contactId: number;
  providerId: number | null;
  providerName: string;
  attempt: number;
  succeeded: boolean;
  responseMessage: string;
  responseBody: string;
}

export async function writeAudit(db: Conn, input: AuditInput, now: Date): Promise<RmsAuditRow> {
  const [row] = await db
    .insert(rmsAudits)
    .values({
      contactId: input.contactId,
      rmsProviderId: input.providerId,
      rmsProviderName: input.providerName,
      succeeded: input.succeeded,
      attempt: input.attempt,
      responseMessage: truncate(input.responseMessage, 500),
      responseBody: truncate(input.responseBody),
      created: now,
    })
    .returning();
  return row!;
}

/**
 * Records a claimed attempt's outcome: its audit row, and the delivery delivered, retrying at
 * its next time, or undelivered. An outcome whose lease was taken over (a resend, or another
 * process after the lease ran out) keeps its audit but leaves the delivery to the new holder.
 */
export async function recordAttempt(
  db: Db,
  claim: Claim,
  audit: Omit<AuditInput, 'contactId' | 'attempt'>,
  result: Pick<AttemptResult, 'succeeded' | 'retryable' | 'retryAfterSeconds'>,
  schedule: readonly number[],
  now: Date,
): Promise<RmsAuditRow> {
  return db.transaction(async (tx) => {
    const row = await writeAudit(tx, { ...audit, contactId: claim.contactId, attempt: claim.attempt }, now);
    const next = result.succeeded ? null : retryDueAt(schedule, claim.attempt, result, now);
    const status = result.succeeded ? DELIVERY_STATUS.delivered : next ? DELIVERY_STATUS.retrying : DELIVERY_STATUS.undelivered;
    await tx
      .update(rmsDeliveries)
      .set({
        status,
        nextAttemptAt: next,
        leaseId: null,
        lastAttemptAt: now,
        ...(result.succeeded ? { deliveredAt: sql`coalesce(${rmsDeliveries.deliveredAt}, ${now.toISOString()}::timestamptz)` } : {}),
      })
      .where(and(eq(rmsDeliveries.contactId, claim.contactId), eq(rmsDeliveries.leaseId, claim.leaseId)));
    return row;
  });
}

/**
 * Makes a delivery that has not succeeded due now, from a fresh round of attempts (the outbox
 * row is made when a contact has none). Answers the delivery as it was, or null when no such
 * contact exists.
 */
export async function restartDelivery(db: Db, contactId: number, now: Date): Promise<RmsDeliveryRow | null> {
  const [before] = await db.select().from(rmsDeliveries).where(eq(rmsDeliveries.contactId, contactId));
  if (before?.status === DELIVERY_STATUS.delivered) return before;
  const result = await db.execute(sql`
    insert into rms_deliveries (contact_id, status, attempts, next_attempt_at, created)
    select id, 'pending', 0, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz from contacts where id = ${contactId}
    on conflict (contact_id) do update
      set status = 'pending', attempts = 0, next_attempt_at = excluded.next_attempt_at, lease_id = null
      where rms_deliveries.status <> 'delivered'
    returning contact_id`);
  if (rowsOf(result).length === 0 && !before) return null;
  return before ?? (await db.select().from(rmsDeliveries).where(eq(rmsDeliveries.contactId, contactId)))[0] ?? null;
}

/** Counts one more attempt on a delivered referral sent again on purpose (its status stays delivered). */
export async function countExtraAttempt(db: Db, contactId: number, now: Date): Promise<{ attempt: number; referralKey: string } | null> {
  const [row] = await db
    .update(rmsDeliveries)
    .set({ attempts: sql`${rmsDeliveries.attempts} + 1`, lastAttemptAt: now })
    .where(and(eq(rmsDeliveries.contactId, contactId), eq(rmsDeliveries.status, DELIVERY_STATUS.delivered)))
    .returning({ attempt: rmsDeliveries.attempts, referralKey: rmsDeliveries.referralKey });
  return row ?? null;
}
