/**
 * Retention of leads: a lead is deleted once it is LEAD_RETENTION_DAYS old (0 keeps them), with
 * its site matches, by the same daily job that deletes incomplete runs' answers
 * (participant/retention.ts): in batches, one process at a time under an advisory lock of its own.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/open';
import { rowsOf } from '../db/rows';
import { DAY_MS } from '@core/time';

/** Any fixed number, the same in every process: names the advisory lock of this purge. */
const LEAD_RETENTION_LOCK = 7_310_421_031;
const BATCH = 500;

/** Deletes leads kept more than `days` before `now`; answers how many (0 when another process holds the lock). */
export async function deleteExpiredLeads(db: Db, now: Date, days: number): Promise<number> {
  if (days === 0) return 0;
  const cutoff = new Date(now.getTime() - days * DAY_MS).toISOString();
  let total = 0;
  for (;;) {
    const deleted = await db.transaction(async (tx) => {
      const [lock] = rowsOf(await tx.execute(sql`select pg_try_advisory_xact_lock(${LEAD_RETENTION_LOCK}) as taken`));
      if (lock?.taken !== true) return 0;
      const [row] = rowsOf(
        await tx.execute(sql`
          with expired as (
            select id from leads where created < ${cutoff}::timestamptz order by id limit ${BATCH} for update skip locked
          ), gone as (
            delete from leads l using expired x where l.id = x.id returning l.id
          )
          select count(*)::int as n from gone`),
      );
      return Number(row?.n ?? 0);
    });
    total += deleted;
    if (deleted < BATCH) return total;
  }
}
