/**
 * The machine's PostgreSQL transaction ceiling: pgbench's TPC-B-like script with the same
 * client count and duration as the load it is compared with, run in the same `npm run bench`
 * (shared machines are noisy, so a ratio measured in one run is what a budget can rest on).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { cpuMilliseconds } from './harness';

const run = promisify(execFile);

/** Transactions per second; the pgbench_* tables go into `databaseUrl` (a scratch database). */
export async function pgbenchTps(databaseUrl: string, clients: number, seconds: number): Promise<number> {
  await run('pgbench', ['--initialize', '--scale=1', '--quiet', databaseUrl]);
  const { stdout } = await run('pgbench', [`--client=${clients}`, '--jobs=2', `--time=${seconds}`, '--no-vacuum', databaseUrl], {
    maxBuffer: 1024 * 1024,
  });
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout);
  if (!tps) throw new Error(`pgbench printed no tps:\n${stdout}`);
  return Number(tps[1]);
}

/**
 * The CPU time (ms, by /proc) that the PostgreSQL backends serving `databaseUrl`'s database have
 * used so far, by process id: read before and after a load (databaseCpuSince), what the load cost
 * the database on this machine.
 */
export async function databaseCpu(databaseUrl: string): Promise<Map<number, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
    return new Map(rows.map((r) => [r.pid, cpuMilliseconds(r.pid)]));
  } finally {
    await client.end();
  }
}

/** The CPU the backends used since `before` (databaseCpu), counting backends started since in full. */
export async function databaseCpuSince(databaseUrl: string, before: Map<number, number>): Promise<number> {
  let total = 0;
  for (const [pid, ms] of await databaseCpu(databaseUrl)) total += ms - (before.get(pid) ?? 0);
  return total;
}
