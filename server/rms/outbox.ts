/**
 * The record-system outbox (rms_deliveries): a row per contact, written in the contact's own
 * transaction, so a stored contact is always on its way to its record system.
 *
 * Claiming makes each attempt belong to exactly one process: the due rows are picked with
 * `FOR UPDATE SKIP LOCKED` and leased in the same statement (next_attempt_at moves past the
 * attempt's timeout, lease_id names the claim), so another process neither waits for them nor
 * takes them. A process that dies mid-attempt leaves the lease to run out; the row is then due
 * again and the lost attempt is recorded as interrupted. Only the claim's holder may record its
 * outcome (`where lease_id = …`).
 */
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Conn, Db } from '../db/open';
import { rowsOf } from '../db/rows';
import { engagements, rmsAudits, rmsDeliveries, rmsProviders } from '../db/schema';
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
  const leaseId = randomUUID();
  const result = await db.execute(sql`
    with due as (
      select d.contact_id, d.lease_id as previous_lease, coalesce(p.timeout_ms, 0) as timeout_ms
      from rms_deliveries d
      join contacts c on c.id = d.contact_id
      join engagements e on e.id = c.engagement_id
      left join rms_providers p on p.id = e.rms_provider_id
      where d.status in ('pending', 'retrying') and d.next_attempt_at <= ${now.toISOString()}::timestamptz
        and (p.id is null or p.is_active)
        ${options.contactId === undefined ? sql`` : sql`and d.contact_id = ${options.contactId}`}
      order by d.next_attempt_at, d.contact_id
      limit ${options.limit ?? 20}
      for update of d skip locked
    )
    update rms_deliveries d
    set attempts = d.attempts + 1,
        lease_id = ${leaseId}::uuid,
        next_attempt_at = ${now.toISOString()}::timestamptz + (due.timeout_ms + ${LEASE_MARGIN_MS}) * interval '1 millisecond'
    from due
    where d.contact_id = due.contact_id
    returning d.contact_id as "contactId", d.referral_key as "referralKey", d.attempts as "attempt", due.previous_lease as "previousLease"`);
  return rowsOf(result).map((r) => ({
    contactId: Number(r.contactId),
    referralKey: String(r.referralKey),
    attempt: Number(r.attempt),
    leaseId,
    interrupted: r.previousLease !== null && r.previousLease !== undefined,
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
