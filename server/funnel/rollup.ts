/**
 * The funnel's daily rollup (funnel_day_counts): each submission stage summed per day of
 * creation (UTC), survey version and media channel, so the funnel of everything a user may see
 * is a sum of a few rows a day rather than a scan of every submission. It is kept as events
 * happen: triggers on submissions, contacts, deliveries, referrals and leads (migration 0020, leads later) mark the
 * (day, survey version) bucket a write may have changed in funnel_dirty, whatever code wrote it,
 * and each funnel read first recomputes the marked buckets here with the stages' own definitions
 * (stages.ts), so the rollup and a count over the submissions cannot disagree. Days an
 * installation had before the rollup existed are counted by a job at server start (recount.ts);
 * until then reads count those days from the submissions.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../db/open';
import { intArray, rowsOf, textArray } from '../db/rows';
import { isStarted, ROLLUP_COLUMNS, stageCountColumns, SUBMISSION_FIGURES, submissionsFrom } from './stages';

/** Up to this many marked buckets are recomputed bucket by bucket through the indexes. */
const FEW_BUCKETS = 200;

/**
 * Any fixed number, the same in every process: names the advisory lock each recount of
 * funnel_day_counts holds for its transaction. A recount deletes a bucket's rows and inserts them
 * again; two at once on the same bucket (a read's and the recount job's) would each insert its
 * own, and the bucket would count twice.
 */
const ROLLUP_LOCK = 7_310_421_020;

/** Taken first in a transaction that recounts buckets: waits for any other recount to commit. */
export async function lockRollup(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${ROLLUP_LOCK})`);
}

/**
 * Inserts into funnel_day_counts the counts of the submissions `submissions` selects (rows of
 * o_form_submissions with their bucket's day as bucket_day), whose buckets' rows were deleted.
 * `throughIndexes`: join each submission to its contact, referral and delivery by their keys
 * (nested loops; the planner would otherwise hash whole tables for a few thousand rows).
 */
export async function insertBucketCounts(tx: Tx, submissions: SQL, throughIndexes: boolean): Promise<void> {
  const columns = sql.join(
    SUBMISSION_FIGURES.map((figure) => sql.identifier(ROLLUP_COLUMNS[figure])),
    sql`, `,
  );
  if (throughIndexes) {
    await tx.execute(sql`set local enable_hashjoin = off`);
    await tx.execute(sql`set local enable_mergejoin = off`);
  }
  await tx.execute(sql`
    insert into funnel_day_counts (day, o_form_id, media_channel_id, ${columns})
    select s.bucket_day, s.o_form_id, s.media_channel_id, ${stageCountColumns()}
    ${submissionsFrom(submissions)}
    group by s.bucket_day, s.o_form_id, s.media_channel_id`);
}

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
  try {
    await db.transaction(async (tx) => {
      await lockRollup(tx);
      await tx.execute(sql`
        delete from funnel_day_counts r
        using unnest(${days}::date[], ${forms}::int[]) as b(day, o_form_id)
        where r.day = b.day and r.o_form_id = b.o_form_id`);
      // A few buckets (what a read finds after the events since the last one): each bucket's
      // submissions by a range of their (o_form_id, created) index. Many (a bulk change): one
      // pass over the submissions, hashed on (day, version).
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
            and ${isStarted('x')}
          offset 0
        ) s0
      )`
        : sql`(
        select x.*, b.day as bucket_day
        from o_form_submissions x
        join unnest(${days}::date[], ${forms}::int[]) as b(day, o_form_id)
          on b.o_form_id = x.o_form_id and b.day = (x.created at time zone 'UTC')::date
        where ${isStarted('x')}
      )`;
      await insertBucketCounts(tx, inBuckets, few);
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
