/**
 * Server processes sharing one scratch PostgreSQL database, as behind a load balancer: every
 * process has the same JWT secret (a token signed by one verifies on another) and PHI key, and
 * the participant rate limits are off (every participant in these tests comes from 127.0.0.1).
 */
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createScratchDatabase } from '../../server/db/scratch';
import { openDatabase, type Db } from '../../server/db/open';
import { startServer, type RunningServer } from './server';
import { TEST_POSTGRES_URL } from './postgres';

export interface SharedPostgres {
  /** The scratch database's URL. */
  url: string;
  /** What every process of this database starts with. */
  env: Record<string, string>;
  /** Starts one more server process on the database (`env` over the shared one). */
  start(env?: Record<string, string>): Promise<RunningServer>;
  /** Writes through a connection of the test's own (for states the product has no screen for). */
  write(fn: (db: Db) => Promise<void>): Promise<void>;
  /** Stops every process it started, removes their data directories and drops the database. */
  close(): Promise<void>;
}

export async function sharedPostgres(name: string, env: Record<string, string> = {}): Promise<SharedPostgres> {
  const scratch = await createScratchDatabase(TEST_POSTGRES_URL, name);
  const shared = {
    DATABASE_URL: scratch.url,
    DEMO_DATA: 'false',
    JWT_SECRET: randomBytes(32).toString('hex'),
    PHI_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    PARTICIPANT_SUBMISSIONS_PER_ADDRESS: '0',
    PARTICIPANT_PAGES_PER_ADDRESS: '0',
    PARTICIPANT_SUBMISSIONS_PER_CHANNEL: '0',
    PARTICIPANT_PAGES_PER_CHANNEL: '0',
    ...env,
  };
  const servers: RunningServer[] = [];
  return {
    url: scratch.url,
    env: shared,
    async start(extra = {}) {
      const server = await startServer({ env: { ...shared, ...extra } });
      servers.push(server);
      return server;
    },
    async write(fn) {
      const database = await openDatabase({ databaseUrl: scratch.url, dataDir: null });
      try {
        await fn(database.db);
      } finally {
        await database.close();
      }
    },
    async close() {
      await Promise.all(servers.map((server) => server.stop()));
      for (const server of servers) fs.rmSync(server.dataDir, { recursive: true, force: true });
      await scratch.drop();
    },
  };
}
