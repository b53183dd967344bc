/**
 * Retention of answers: the answers of a submission that never completed (no contact left) are
 * deleted once it has been untouched for PARTICIPANT_RETENTION_DAYS. Only the answers go: the
 * submission, its outcome and its page entries stay, so the funnel and the channel's figures
 * (counted as they happened, server/participant/channelFigures.ts) keep their numbers.
 *
 * Every server process runs the job (server/retention.ts), on start and daily; a transaction-scoped advisory lock lets
 * one of them delete at a time (the others find it taken and leave the work to it), and rows a
 * participant's request holds are skipped (SKIP LOCKED), left for the next run.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/open';
import { rowsOf } from '../db/rows';
import { DAY_MS } from '@core/time';

/** Any fixed number, the same in every process: names the advisory lock of this job. */
const RETENTION_LOCK = 7_310_421_016;
const BATCH = 200;

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
