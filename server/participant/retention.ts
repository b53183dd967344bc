/**
 * Retention of answers: the answers of a submission that never completed (no contact left) are
 * deleted once it has been untouched for PARTICIPANT_RETENTION_DAYS. Only the answers go: the
 * submission, its outcome and its page entries stay, so the funnel and the channel's figures
 * (counted as they happened, server/participant/channelFigures.ts) keep their numbers.
 *
 * Every server process runs the job, on start and daily; a transaction-scoped advisory lock lets
 * one of them delete at a time (the others find it taken and leave the work to it), and rows a
 * participant's request holds are skipped (SKIP LOCKED), left for the next run.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/open';
import { rowsOf } from '../db/rows';
import type { Logger } from '../http/log';
import { deleteExpiredLeads } from '../leads';

/** Any fixed number, the same in every process: names the advisory lock of this job. */
const RETENTION_LOCK = 7_310_421_016;
const BATCH = 200;
const DAY_MS = 24 * 3600 * 1000;

export interface RetentionResult {
  /** Submissions whose answers were deleted. */
  submissions: number;
  answers: number;
}

/**
 * Deletes the answers of submissions not completed and untouched since `days` before `now`, in
 * batches. Answers nothing deleted when another process holds the job's lock.
 */
export async function deleteExpiredAnswers(db: Db, now: Date, days: number): Promise<RetentionResult> {
  const cutoff = new Date(now.getTime() - days * DAY_MS).toISOString();
  const total: RetentionResult = { submissions: 0, answers: 0 };
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      const [lock] = rowsOf(await tx.execute(sql`select pg_try_advisory_xact_lock(${RETENTION_LOCK}) as taken`));
      if (lock?.taken !== true) return null;
      const [row] = rowsOf(
        await tx.execute(sql`
          with expired as (
            select s.id from o_form_submissions s
            where s.status <> 'completed' and s.modified < ${cutoff}::timestamptz
              and exists (select 1 from o_form_container_entries e join o_form_field_entries f on f.container_entry_id = e.id where e.submission_id = s.id)
            order by s.id
            limit ${BATCH}
            for update of s skip locked
          ), gone as (
            delete from o_form_field_entries f using o_form_container_entries e, expired x
            where f.container_entry_id = e.id and e.submission_id = x.id
            returning f.id
          )
          select (select count(*) from expired)::int as submissions, (select count(*) from gone)::int as answers`),
      );
      return { submissions: Number(row?.submissions ?? 0), answers: Number(row?.answers ?? 0) };
    });
    if (batch === null || batch.submissions === 0) return total;
    total.submissions += batch.submissions;
    total.answers += batch.answers;
  }
}

export interface RetentionJob {
  stop(): Promise<void>;
}

/**
 * Runs deleteExpiredAnswers (and, with `leadDays`, the leads' purge, leads/retention.ts) now and
 * then every `everyMs` (a day) until stopped; nothing when both are 0 (keep).
 */
export function startRetentionJob(options: { db: Db; clock: () => Date; days: number; leadDays?: number; log: Logger }, everyMs = DAY_MS): RetentionJob {
  const leadDays = options.leadDays ?? 0;
  if (options.days === 0 && leadDays === 0) return { stop: async () => undefined };
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  const run = () => {
    running = (async () => {
      try {
        const result = options.days === 0 ? { submissions: 0, answers: 0 } : await deleteExpiredAnswers(options.db, options.clock(), options.days);
        if (result.submissions > 0) options.log.info('retention: deleted expired answers', { ...result, days: options.days });
      } catch (error) {
        options.log.error('retention: deleting expired answers failed', { error: error instanceof Error ? error.message : String(error) });
      }
      try {
        const leads = await deleteExpiredLeads(options.db, options.clock(), leadDays);
        if (leads > 0) options.log.info('retention: deleted expired leads', { leads, days: leadDays });
      } catch (error) {
        options.log.error('retention: deleting expired leads failed', { error: error instanceof Error ? error.message : String(error) });
      }
      if (!stopped) {
        timer = setTimeout(run, everyMs);
        timer.unref();
      }
    })();
  };
  timer = setTimeout(run, 0);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
