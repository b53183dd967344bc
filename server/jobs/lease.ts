/**
 * Claiming an outbox's due items so that each attempt belongs to exactly one process: the due
 * rows are picked with `FOR UPDATE SKIP LOCKED` and leased in the same statement (the attempt is
 * counted, next_attempt_at moves past the attempt's time, lease_id names the claim), so another
 * process neither waits for them nor takes them. A process that dies mid-attempt leaves the lease
 * to run out; the item is then due again and the lost attempt is told as interrupted. Only the
 * claim's holder may record its outcome (`where lease_id = …`). Knows no area: the record-system
 * deliveries and the messages both claim by it.
 */
import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/open';
import { rowsOf } from '../db/rows';

/** The columns of an outbox table that leasing reads and writes; `key` names one item. */
export interface OutboxColumns {
  key: PgColumn;
  attempts: PgColumn;
  nextAttemptAt: PgColumn;
  leaseId: PgColumn;
}

export interface DueItems {
  /** What the conditions and the lease's length read beside the outbox table: `join … on …`. */
  joins?: SQL;
  /** Which items may be claimed (their status, the caller's narrowing); due time aside. */
  where: SQL;
  /** How long an attempt may take before another process may retry it, in milliseconds: SQL may read the joins. */
  leaseMs: number | SQL;
  limit: number;
  /** Further assignments made with the claim (`last_attempt_at = …`). */
  alsoSet?: SQL;
  /** Further columns each lease answers, by name. */
  returning?: Record<string, PgColumn>;
}

export interface Lease {
  key: number;
  /** This attempt's number, from 1. */
  attempt: number;
  leaseId: string;
  /** The previous attempt's lease ran out: it was cut off before it was recorded. */
  interrupted: boolean;
  /** The columns DueItems' `returning` asked for. */
  values: Record<string, unknown>;
}

/** Claims up to `limit` items due at `now`, earliest first, and leases them to one new claim. */
export async function claimLeases(db: Db, outbox: OutboxColumns, now: Date, due: DueItems): Promise<Lease[]> {
  const leaseId = randomUUID();
  const at = sql`${now.toISOString()}::timestamptz`;
  const extra = Object.entries(due.returning ?? {}).map(([name, column]) => sql`, ${column} as ${sql.identifier(name)}`);
  const result = await db.execute(sql`
    with due as (
      select ${outbox.key} as claim_key, ${outbox.leaseId} as previous_lease, (${due.leaseMs})::float8 as lease_ms
      from ${outbox.key.table} ${due.joins ?? sql``}
      where ${outbox.nextAttemptAt} <= ${at} and ${due.where}
      order by ${outbox.nextAttemptAt}, ${outbox.key}
      limit ${due.limit}
      for update of ${outbox.key.table} skip locked
    )
    update ${outbox.key.table}
    set ${sql.identifier(outbox.attempts.name)} = ${outbox.attempts} + 1,
        ${sql.identifier(outbox.leaseId.name)} = ${leaseId}::uuid,
        ${sql.identifier(outbox.nextAttemptAt.name)} = ${at} + due.lease_ms * interval '1 millisecond'
        ${due.alsoSet ? sql`, ${due.alsoSet}` : sql``}
    from due
    where ${outbox.key} = due.claim_key
    returning ${outbox.key} as claim_key, ${outbox.attempts} as attempt, due.previous_lease as previous_lease ${sql.join(extra, sql``)}`);
  return rowsOf(result).map(({ claim_key, attempt, previous_lease, ...values }) => ({
    key: Number(claim_key),
    attempt: Number(attempt),
    leaseId,
    interrupted: previous_lease !== null && previous_lease !== undefined,
    values,
  }));
}
