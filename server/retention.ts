/**
 * The daily purges of what is kept only for a while: the answers of runs that never completed
 * (participant/retention.ts, PARTICIPANT_RETENTION_DAYS) and the leads past LEAD_RETENTION_DAYS
 * (leads/retention.ts). Composed here, above both areas, as the start composes the app.
 */
import type { Db } from './db/open';
import type { Logger } from './log';
import { deleteExpiredLeads } from './leads';
import { deleteExpiredAnswers } from './participant/retention';
import { DAY_MS } from '@core/time';

export interface RetentionJob {
  stop(): Promise<void>;
}

/**
 * Runs deleteExpiredAnswers (and, with `leadDays`, the leads' purge) now and
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
