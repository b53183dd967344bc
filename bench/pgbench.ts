/**
 * The machine's PostgreSQL transaction ceiling: pgbench's TPC-B-like script with the same
 * client count and duration as the load it is compared with, run in the same `npm run bench`
 * (shared machines are noisy, so a ratio measured in one run is what a budget can rest on).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

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
