/**
 * The planner's statistics kept by the server where autovacuum does not run
 * (server/jobs/statistics.ts), on the real database: a table that grew is analyzed, one that did
 * not is left alone, and the job runs where the database needs it.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rowsOf } from '../../../server/db/rows';
import { refreshStatistics, startStatisticsJob, statisticsNeedKeeping } from '../../../server/jobs/statistics';
import { createLogger } from '../../../server/log';
import { createHarness, type Harness } from '../harness';

const kind = process.env.TEST_DB_KIND === 'postgres' ? 'postgres' : 'pglite';

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
});

afterAll(async () => {
  await h.close();
});

/** What the planner believes of rate_limits: its row count as of its last ANALYZE (-1: never). */
async function plannedRows(): Promise<number> {
  const [row] = rowsOf(await h.db.execute(sql`select reltuples from pg_class where relname = 'rate_limits' and relnamespace = current_schema()::regnamespace`));
  return Number(row!.reltuples);
}

const grow = (from: number, rows: number) =>
  h.db.execute(sql`
    insert into rate_limits (key, window_start, count)
    select 'statistics-' || g, '2026-11-30T06:00:00Z'::timestamptz, 1 from generate_series(${from}::int, ${from + rows - 1}::int) g`);

describe('statistics kept fresh', () => {
  it('analyzes a table that grew, and then nothing until one grows again', async () => {
    await refreshStatistics(h.db);
    await grow(1, 20_000);
    expect(await refreshStatistics(h.db)).toContain('rate_limits');
    expect(await plannedRows()).toBeGreaterThan(15_000);
    expect(await refreshStatistics(h.db)).toEqual([]);
    // A few rows more: under a tenth of the table, not worth an ANALYZE.
    await grow(20_001, 100);
    expect(await refreshStatistics(h.db)).toEqual([]);
    await grow(30_001, 10_000);
    expect(await refreshStatistics(h.db)).toEqual(['rate_limits']);
    expect(await plannedRows()).toBeGreaterThan(25_000);
  });

  it('runs where autovacuum does not: PGlite always, PostgreSQL when it is off', async () => {
    const [setting] = rowsOf(await h.db.execute(sql`select current_setting('autovacuum') as autovacuum`));
    const needs = await statisticsNeedKeeping({ kind, db: h.db });
    expect(needs).toBe(kind === 'pglite' || setting!.autovacuum !== 'on');
  });

  it('its first round comes at the start where the database needs it; elsewhere it leaves the tables to autovacuum', async () => {
    await grow(50_001, 20_000);
    const before = await plannedRows();
    const needs = await statisticsNeedKeeping({ kind, db: h.db });
    const job = await startStatisticsJob({ kind, db: h.db }, createLogger('error'));
    try {
      if (needs) await vi.waitFor(async () => expect(await plannedRows()).toBeGreaterThan(40_000), { timeout: 10_000, interval: 50 });
      else {
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(await plannedRows()).toBe(before);
      }
    } finally {
      await job.stop();
    }
  });
});
