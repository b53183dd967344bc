/**
 * The funnel's daily rollup (funnel_day_counts): each submission stage summed per day of
 * creation (UTC), survey version and media channel, so the funnel of everything a user may see
 * is a sum of a few rows a day rather than a scan of every submission. It is kept as events
 * happen: triggers on submissions, contacts, deliveries and referrals (migration 0020) mark the
 * (day, survey version) bucket a write may have changed in funnel_dirty, whatever code wrote it,
 * and each funnel read first recomputes the marked buckets here with the stages' own definitions
 * (stages.ts), so the rollup and a count over the submissions cannot disagree.
 */
import { sql } from 'drizzle-orm';
import type { FunnelStage } from '../../core/model/funnel';
import type { Db } from '../db/open';
import { intArray, rowsOf, textArray } from '../db/rows';
import { ROLLUP_COLUMNS, stageCountColumns, submissionsFrom } from './stages';

/** Up to this many marked buckets are recomputed bucket by bucket through the indexes. */
const FEW_BUCKETS = 200;

/**
 * Recomputes the buckets marked since the last read. The marks are taken in a transaction that
 * first waits for every transaction still marking (a table lock that conflicts with their
 * inserts' lock, held for the few milliseconds of the claim), so each claimed bucket's writes are
 * committed before it is counted again; a write after the claim marks its bucket anew for the
 * next read. Two readers at once: the second finds the marks taken.
 */
export async function refreshFunnelRollup(db: Db): Promise<number> {
  // Nothing marked (the usual read): no transaction and no lock. A mark not yet committed belongs
  // to a write not yet committed either, which this read would not see anyway.
  if (rowsOf(await db.execute(sql`select 1 from funnel_dirty limit 1`)).length === 0) return 0;
  const claimed = await db.transaction(async (tx) => {
    await tx.execute(sql`lock table funnel_dirty in share row exclusive mode`);
    return rowsOf(await tx.execute(sql`delete from funnel_dirty returning to_char(day, 'YYYY-MM-DD') as day, o_form_id`));
  });
  if (claimed.length === 0) return 0;
  const days = textArray(claimed.map((r) => String(r.day)));
  const forms = intArray(claimed.map((r) => Number(r.o_form_id)));
  const stages = Object.keys(ROLLUP_COLUMNS) as Exclude<FunnelStage, 'viewed'>[];
  const columns = sql.join(
    stages.map((stage) => sql.identifier(ROLLUP_COLUMNS[stage])),
    sql`, `,
  );
  try {
    await db.transaction(async (tx) => {
      await tx.execute(sql`
        delete from funnel_day_counts r
        using unnest(${days}::date[], ${forms}::int[]) as b(day, o_form_id)
        where r.day = b.day and r.o_form_id = b.o_form_id`);
      // A few buckets (what a read finds after the events since the last one): each bucket's
      // submissions by a range of their (o_form_id, created) index, and only theirs joined to
      // contacts, referrals and deliveries by index (nested loops; the planner would otherwise
      // hash whole tables for a handful of rows). Many buckets (the first read after the
      // migration): one pass over the submissions, hashed on (day, version).
      const few = claimed.length <= FEW_BUCKETS;
      const inBuckets = few
        ? sql`(
        select s0.*, b.day as bucket_day
        from unnest(${days}::date[], ${forms}::int[]) as b(day, o_form_id)
        cross join lateral (
          select * from o_form_submissions x
          where x.o_form_id = b.o_form_id
            and x.created >= b.day::timestamp at time zone 'UTC'
            and x.created < (b.day + 1)::timestamp at time zone 'UTC'
            and x.started_at is not null
          offset 0
        ) s0
      )`
        : sql`(
        select x.*, b.day as bucket_day
        from o_form_submissions x
        join unnest(${days}::date[], ${forms}::int[]) as b(day, o_form_id)
          on b.o_form_id = x.o_form_id and b.day = (x.created at time zone 'UTC')::date
        where x.started_at is not null
      )`;
      if (few) {
        await tx.execute(sql`set local enable_hashjoin = off`);
        await tx.execute(sql`set local enable_mergejoin = off`);
      }
      await tx.execute(sql`
        insert into funnel_day_counts (day, o_form_id, media_channel_id, ${columns})
        select s.bucket_day, s.o_form_id, s.media_channel_id, ${stageCountColumns()}
        ${submissionsFrom(inBuckets)}
        group by s.bucket_day, s.o_form_id, s.media_channel_id`);
    });
  } catch (error) {
    // Not counted: the buckets stay marked for the next read.
    await db.execute(sql`
      insert into funnel_dirty (day, o_form_id)
      select * from unnest(${days}::date[], ${forms}::int[])
      on conflict do nothing`);
    throw error;
  }
  return claimed.length;
}
