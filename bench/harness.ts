/**
 * What every benchmark shares: a real app on a fresh database (PGlite always, and PostgreSQL
 * too when BENCH_DATABASE_URL is set, in a database of its own that is dropped afterwards),
 * the real server process for loads over HTTP, and a result row type for the table `npm run
 * bench` prints.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../server/app';
import { loadConfig } from '../server/config';
import { phiCipher } from '../server/security/phi';
import { openDatabase, type Database } from '../server/db/open';
import { createScratchDatabase } from '../server/db/scratch';
import { seed } from '../server/seed';
import { createLogger } from '../server/log';
import { startServer } from '../tests/e2e/server';

export interface BenchRow {
  figure: string;
  value: number;
  unit: string;
  /** The budget, and whether a lower value is better. */
  budget: number;
  lowerIsBetter: boolean;
  /** Reported for comparison, with no budget: never SHORT (the budget is then NaN). */
  informational?: boolean;
}

export const BENCH_PASSWORD = 'bench-admin-password';

export type BenchKind = 'pglite' | 'postgres';

/** The databases every benchmark runs on: PGlite, and PostgreSQL when BENCH_DATABASE_URL names a server. */
export const benchKinds = (): BenchKind[] => {
  const kinds: BenchKind[] = process.env.BENCH_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
  // BENCH_ONLY=postgres (or pglite): one database, for a figure that takes long to seed on both.
  const only = process.env.BENCH_ONLY;
  if (only === undefined || only === '') return kinds;
  if (only !== 'pglite' && only !== 'postgres') throw new Error(`BENCH_ONLY must be pglite or postgres, got "${only}"`);
  if (!kinds.includes(only)) throw new Error(`BENCH_ONLY=${only} needs BENCH_DATABASE_URL`);
  return [only];
};

/** A benchmark's rows on each database of benchKinds(), one database after the other. */
export async function onEachDatabase(measure: (kind: BenchKind) => Promise<BenchRow[]>): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const kind of benchKinds()) rows.push(...(await measure(kind)));
  return rows;
}

/** A fresh, migrated and seeded database of `kind`; PGlite in memory unless `dataDir` is given. */
export async function benchDatabase(kind: BenchKind, dataDir: string | null = null) {
  let database: Database;
  let url: string | null = null;
  let drop = async () => {};
  if (kind === 'postgres') {
    const base = process.env.BENCH_DATABASE_URL;
    if (!base) throw new Error('BENCH_DATABASE_URL is not set');
    const scratch = await createScratchDatabase(base, 'bench');
    database = await openDatabase({ databaseUrl: scratch.url, dataDir: null });
    url = scratch.url;
    drop = scratch.drop;
  } else {
    database = await openDatabase({ databaseUrl: null, dataDir });
  }
  await database.migrate();
  await seed(database.db, { adminUsername: 'admin', adminPassword: BENCH_PASSWORD, demoData: false });
  return { database, url, drop };
}

/**
 * The real server process (as `npm start` runs it) on 127.0.0.1, over a database that
 * `generate` filled first: loads then go through HTTP, the load generator in this process and
 * the server in its own. PGlite's data is written before the server opens it (one process at a
 * time). `close()` stops the server and removes its data.
 */
export async function benchServer(kind: BenchKind, generate: (db: Database['db']) => Promise<void> = async () => {}, env: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-server-'));
  const { database, url, drop } = await benchDatabase(kind, kind === 'pglite' ? dataDir : null);
  try {
    await generate(database.db);
  } finally {
    await database.close();
  }
  const server = await startServer({
    dataDir,
    env: {
      ADMIN_PASSWORD: BENCH_PASSWORD,
      DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      JWT_SECRET: randomBytes(32).toString('hex'),
      ...(url ? { DATABASE_URL: url } : {}),
      ...env,
    },
  });
  const res = await fetch(`${server.url}/api/jwt/login?t=a`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ data: { username: 'admin', password: BENCH_PASSWORD } }),
  });
  const { access } = (await res.json()) as { access: string };
  return {
    url: server.url,
    kind,
    token: access,
    /** The server process, for figures read off it (its resident memory). */
    pid: server.pid,
    /** The database's URL for side tools (pgbench); null for PGlite. */
    databaseUrl: url,
    close: async () => {
      await server.stop();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The app in this process; PGlite in memory, or in `dataDir` (for data larger than memory should hold). */
export async function benchApp(kind: BenchKind = benchKinds()[benchKinds().length - 1]!, dataDir: string | null = null) {
  const { database, drop } = await benchDatabase(kind, kind === 'pglite' ? dataDir : null);
  const config = loadConfig({ LOG_LEVEL: 'silent' });
  // The app's own PHI cipher, for benchmarks that seed sealed contact values.
  const phi = phiCipher(randomBytes(32));
  const app = createApp({ db: database.db, config, jwtSecret: randomBytes(32).toString('hex'), log: createLogger('silent'), phi });
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
    phi,
    close: async () => {
      await database.close();
      await drop();
    },
  };
}

/** A bench app: the app with its database, the admin's token and the PHI cipher; `close()` removes it. */
export type BenchApp = Awaited<ReturnType<typeof benchApp>>;

/** `measure` on a fresh bench app of each database kind in turn, each app removed once measured. */
export function onEachBenchApp(measure: (b: BenchApp) => Promise<BenchRow[]>): Promise<BenchRow[]> {
  return onEachDatabase(async (kind) => {
    const b = await benchApp(kind);
    try {
      return await measure(b);
    } finally {
      await b.close();
    }
  });
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

/** Resident memory of a process, in MB, read from /proc (Linux); NaN where there is no /proc. */
/**
 * The CPU time a process has used so far (user and system, from /proc/<pid>/stat, in clock ticks
 * of 10 ms), in milliseconds; NaN where /proc is not. Unlike rates, a difference of two readings
 * per request hardly moves with the machine's other load.
 */
export function cpuMilliseconds(pid: number): number {
  try {
    // The fields after the command's closing parenthesis; utime and stime are the 12th and 13th of them.
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

export function residentMegabytes(pid: number): number {
  try {
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? NaN : Number(kb) / 1024;
  } catch {
    return NaN;
  }
}
