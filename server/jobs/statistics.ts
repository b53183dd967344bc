/**
 * The planner's statistics, kept fresh where autovacuum does not run: PGlite is PostgreSQL in
 * single-user mode, which has no background processes at all, and a PostgreSQL server may have
 * autovacuum turned off. Without statistics a table is planned as the size it had when a
 * statement was first prepared; a connection keeps that plan, so a table that grew from a few
 * rows to many thousands is still scanned whole on every call that touches one row of it.
 *
 * Every round, each table of the schema that grew by a tenth (and at least eight pages) since
 * its last ANALYZE is analyzed again, as autovacuum's analyze threshold would; ANALYZE also
 * makes every connection plan its prepared statements afresh. The size comes from the
 * relation's file, not from the statistics collector, which single-user mode does not flush.
 * Knows no area.
 */
import { sql } from 'drizzle-orm';
import type { Database, Db } from '../db/open';
import { rowsOf } from '../db/rows';
import type { Logger } from '../log';
import { startPollingLoop, type PollingLoop } from './pollingLoop';

/** How often the tables' sizes are compared with their statistics: the check is one catalog read. */
export const STATISTICS_EVERY_MS = 10_000;

/** Analyzes the schema's tables that grew since their statistics were taken; answers their names. */
export async function refreshStatistics(db: Db): Promise<string[]> {
  const grown = rowsOf(
    await db.execute(sql`
      select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind = 'r' and n.nspname = current_schema()
        and pg_relation_size(c.oid) / current_setting('block_size')::int >= greatest(c.relpages, 0) * 1.1 + 8
      order by c.relname`),
  ).map((row) => String(row.name));
  for (const name of grown) await db.execute(sql`analyze ${sql.identifier(name)}`);
  return grown;
}

/** Whether this database needs the server to keep its statistics: PGlite always, PostgreSQL when autovacuum is off. */
export async function statisticsNeedKeeping(database: Pick<Database, 'kind' | 'db'>): Promise<boolean> {
  if (database.kind === 'pglite') return true;
  const [row] = rowsOf(await database.db.execute(sql`select current_setting('autovacuum') as autovacuum`));
  return row?.autovacuum !== 'on';
}

/** Starts the rounds where the database needs them (statisticsNeedKeeping); else a loop that does nothing. */
export async function startStatisticsJob(database: Pick<Database, 'kind' | 'db'>, log: Logger): Promise<Pick<PollingLoop, 'stop'>> {
  if (!(await statisticsNeedKeeping(database))) return { stop: async () => undefined };
  return startPollingLoop({
    name: 'statistics',
    drain: async () => {
      await refreshStatistics(database.db);
    },
    nextWaitMs: async () => STATISTICS_EVERY_MS,
    pollMs: STATISTICS_EVERY_MS,
    log,
  });
}
