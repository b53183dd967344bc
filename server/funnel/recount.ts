/**
 * The rollup's days not counted yet (funnel_recount: an installation that had submissions before
 * the rollup existed) are counted by a job every server process starts, a range of days at a
 * time, newest first (the days most reads ask about are ready first). Each range is one
 * transaction holding the rollup's lock (rollup.ts), so processes running the job at once take
 * turns, each on the next range, and a read's recount of a marked bucket never interleaves with
 * one. Until a day is counted, reads count it from the submissions (counts.ts), so the figures
 * are right at every moment, only slower while the job runs.
 */
import { sql } from 'drizzle-orm';
import type { Conn, Db } from '../db/open';
import { rowsOf } from '../db/rows';
import type { Logger } from '../log';
import { insertBucketCounts, lockRollup } from './rollup';
import { isStarted, nextDay } from './stages';

/** About this many submissions a range: short enough that a read's recount waiting on the lock, or PGlite's one connection, waits little. */
const RANGE_SUBMISSIONS = 5000;

/** The days not counted yet, inclusive (YYYY-MM-DD), or null when every day is. */
export async function uncountedDays(db: Conn): Promise<{ firstDay: string; lastDay: string } | null> {
  const [row] = rowsOf(
    await db.execute(sql`select to_char(first_day, 'YYYY-MM-DD') as first_day, to_char(last_day, 'YYYY-MM-DD') as last_day from funnel_recount`),
  );
  return row ? { firstDay: String(row.first_day), lastDay: String(row.last_day) } : null;
}

export interface RecountedRange {
  firstDay: string;
  lastDay: string;
  /** The days still not counted after this range, or null when none are. */
  left: { firstDay: string; lastDay: string } | null;
}

/**
 * Counts the latest days not counted yet, as many whole days back as hold about `submissions`
 * (at least one day), and narrows funnel_recount past them. Null when every day is counted.
 */
export async function recountNextRange(db: Db, submissions = RANGE_SUBMISSIONS): Promise<RecountedRange | null> {
  return db.transaction(async (tx) => {
    await lockRollup(tx);
    // Under the lock: the range another process just counted is already gone from the row.
    const uncounted = await uncountedDays(tx);
    if (!uncounted) return null;
    // Back to the day after the one holding the nth latest submission (that day itself when it
    // is the last: a day is counted whole, however many it holds). Bounds as values, so the
    // planner walks the created index back from the last day instead of sorting every day's rows.
    const [range] = rowsOf(
      await tx.execute(sql`
        select to_char(
          case when nth.day is null then ${uncounted.firstDay}::date
               else greatest(${uncounted.firstDay}::date, least(nth.day + 1, ${uncounted.lastDay}::date)) end,
          'YYYY-MM-DD') as first_day
        from (select 1) one
        left join (
          select (x.created at time zone 'UTC')::date as day
          from o_form_submissions x
          where x.created >= ${`${uncounted.firstDay}T00:00:00Z`}::timestamptz
            and x.created < ${`${nextDay(uncounted.lastDay)}T00:00:00Z`}::timestamptz
          order by x.created desc
          offset ${submissions}::int limit 1
        ) nth on true`),
    );
    const uncountedFrom = uncounted.firstDay;
    const firstDay = String(range!.first_day);
    const lastDay = uncounted.lastDay;
    await tx.execute(sql`delete from funnel_day_counts where day between ${firstDay}::date and ${lastDay}::date`);
    await insertBucketCounts(
      tx,
      sql`(
        select x.*, (x.created at time zone 'UTC')::date as bucket_day
        from o_form_submissions x
        where x.created >= ${`${firstDay}T00:00:00Z`}::timestamptz
          and x.created < ${`${nextDay(lastDay)}T00:00:00Z`}::timestamptz
          and ${isStarted('x')}
        offset 0
      )`,
      true,
    );
    if (firstDay <= uncountedFrom) {
      await tx.execute(sql`delete from funnel_recount`);
      return { firstDay, lastDay, left: null };
    }
    const [left] = rowsOf(
      await tx.execute(sql`update funnel_recount set last_day = ${firstDay}::date - 1 returning to_char(last_day, 'YYYY-MM-DD') as last_day`),
    );
    return { firstDay, lastDay, left: { firstDay: uncountedFrom, lastDay: String(left!.last_day) } };
  });
}

export interface FunnelRecountJob {
  /** Settles when no day is left to count (by this process or another), or the job stopped or failed. */
  done: Promise<void>;
  stop(): Promise<void>;
}

/** Progress is logged at most this often. */
const PROGRESS_EVERY_MS = 10_000;

/**
 * Counts every day not counted yet, range after range, until none is left or it is stopped. Every
 * server process runs it at start; with nothing to count it is one read of an empty table.
 */
export function startFunnelRecountJob(options: { db: Db; log: Logger; rangeSubmissions?: number }): FunnelRecountJob {
  const { db, log } = options;
  let stopped = false;
  const done = (async () => {
    try {
      const first = await uncountedDays(db);
      if (!first) return;
      log.info('funnel: counting the rollup of the days before it existed', first);
      const started = performance.now();
      let lastLog = started;
      let ranges = 0;
      while (!stopped) {
        const range = await recountNextRange(db, options.rangeSubmissions);
        if (!range) break;
        ranges += 1;
        if (!range.left) {
          log.info('funnel: rollup counted', { ranges, seconds: Math.round((performance.now() - started) / 100) / 10 });
          break;
        }
        if (performance.now() - lastLog >= PROGRESS_EVERY_MS) {
          lastLog = performance.now();
          log.info('funnel: counting the rollup', { countedFrom: range.firstDay, left: range.left });
        }
        // Requests waiting for the database (PGlite's one connection) go between two ranges.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } catch (error) {
      // The days left stay in funnel_recount: reads keep counting them, and the next start goes on.
      log.error('funnel: counting the rollup failed', { error: error instanceof Error ? error.message : String(error) });
    }
  })();
  return {
    done,
    async stop() {
      stopped = true;
      await done;
    },
  };
}
