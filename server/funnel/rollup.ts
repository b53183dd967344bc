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

/**
 * Recomputes the buckets marked since the last read. The marks are taken in a transaction that
 * first waits for every transaction still marking (a table lock that conflicts with their
 * inserts' lock, held for the few milliseconds of the claim), so each claimed bucket's writes are
 * committed before it is counted again; a write after the claim marks its bucket anew for the
 * next read. Two readers at once: the second finds the marks taken.
 */
export async function refreshFunnelRollup(db: Db): Promise<number> {
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
      // Each bucket is a range of the submissions' (o_form_id, created) index.
      await tx.execute(sql`
        insert into funnel_day_counts (day, o_form_id, media_channel_id, ${columns})
        select b.day, s.o_form_id, s.media_channel_id, ${stageCountColumns()}
        ${submissionsFrom()}
        join unnest(${days}::date[], ${forms}::int[]) as b(day, o_form_id)
          on s.o_form_id = b.o_form_id
         and s.created >= b.day::timestamp at time zone 'UTC'
         and s.created < (b.day + 1)::timestamp at time zone 'UTC'
        where s.started_at is not null
        group by b.day, s.o_form_id, s.media_channel_id`);
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
