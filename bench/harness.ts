/**
 * What every benchmark shares: a real app on a fresh database (PGlite, or PostgreSQL when
 * BENCH_DATABASE_URL is set, in a database of its own that is dropped afterwards), and a
 * result row type for the table `npm run bench` prints.
 */
import { randomBytes } from 'node:crypto';
import { createApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase, type Database } from '../server/db/open';
import { createScratchDatabase } from '../server/db/scratch';
import { seed } from '../server/db/seed';
import { createLogger } from '../server/http/log';

export interface BenchRow {
  figure: string;
  value: number;
  unit: string;
  /** The budget, and whether a lower value is better. */
  budget: number;
  lowerIsBetter: boolean;
}

export const BENCH_PASSWORD = 'bench-admin-password';

export async function benchApp() {
  let database: Database;
  let drop = async () => {};
  const base = process.env.BENCH_DATABASE_URL;
  if (base) {
    const scratch = await createScratchDatabase(base, 'bench');
    database = await openDatabase({ databaseUrl: scratch.url, dataDir: null });
    drop = scratch.drop;
  } else {
    database = await openDatabase({ databaseUrl: null, dataDir: null });
  }
  await database.migrate();
  await seed(database.db, { adminUsername: 'admin', adminPassword: BENCH_PASSWORD, demoData: false });
  const config = loadConfig({ LOG_LEVEL: 'silent' });
  const app = createApp({ db: database.db, config, jwtSecret: randomBytes(32).toString('hex'), log: createLogger('silent') });
  const res = await app.request('/api/jwt/login?t=a', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ data: { username: 'admin', password: BENCH_PASSWORD } }),
  });
  const { access } = (await res.json()) as { access: string };
  return {
    app,
    db: database.db,
    kind: database.kind,
    token: access,
    close: async () => {
      await database.close();
      await drop();
    },
  };
}

/** Median and p95 of `runs` sequential calls, after `warmup` unmeasured ones. */
export async function measure(run: () => Promise<unknown>, runs = 30, warmup = 5) {
  for (let i = 0; i < warmup; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await run();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? NaN;
  return { p50: at(0.5), p95: at(0.95) };
}
