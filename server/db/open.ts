/**
 * Opens the database: PostgreSQL through node-postgres when a URL is given, else embedded
 * PGlite stored under `dataDir/db`, locked to this process while open (dataDirLock.ts). Both speak the PostgreSQL dialect and run the same
 * migrations, so the rest of the server sees one `Db` type.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { lockDataDir } from './dataDirLock';
import { prepareNamedOnPglite } from './pglitePrepared';
import * as schema from './schema';

/** PGlite's shared buffers when the caller names none (PGLITE_SHARED_BUFFERS_MB). */
export const DEFAULT_PGLITE_SHARED_BUFFERS_MB = 32;

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction: what `db.transaction(async (tx) => ...)` hands its callback. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** The database or a transaction on it: for reads that run either way. */
export type Conn = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  /**
   * Runs `work` (migrations, seeding) while no other server process on the same database does:
   * several processes starting together (a deploy, WORKERS=N) must not migrate twice at once.
   */
  startupLock<T>(work: () => Promise<T>): Promise<T>;
  /** PGlite only: the whole database as a tarball, which `loadDataDir` starts another from. */
  dumpDataDir?: () => Promise<Blob>;
  close(): Promise<void>;
}

/** Any fixed number, the same in every process: names the advisory lock taken for startup. */
const STARTUP_LOCK = 7_310_421_019;

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

export async function openDatabase(options: {
  databaseUrl: string | null;
  dataDir: string | null;
  loadDataDir?: Blob;
  poolSize?: number;
  /** PGlite only: megabytes of PostgreSQL shared buffers kept in the process's memory. */
  pgliteSharedBuffersMb?: number;
  /** Called with each statement sent through drizzle (tests count a call's statements with it). */
  onQuery?: (query: string) => void;
}): Promise<Database> {
  const onQuery = options.onQuery;
  const logger = onQuery && { logQuery: (query: string) => onQuery(query) };
  if (options.databaseUrl) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    // An idle client losing its connection must not take the process down.
    pool.on('error', (error) => console.error(JSON.stringify({ level: 'error', msg: 'database pool error', error: error.message })));
    const db = drizzle(pool, { schema, logger });
    return {
      db: db as unknown as Db,
      kind: 'postgres',
      migrate: () => migrate(db, { migrationsFolder }),
      startupLock: async (work) => {
        // A session lock on a connection of its own, held while `work` uses the pool's others.
        const client = await pool.connect();
        try {
          await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK]);
          try {
            return await work();
          } finally {
            await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK]);
          }
        } finally {
          client.release();
        }
      },
      close: () => pool.end(),
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  let dir: string | undefined;
  let unlock = () => {};
  if (options.dataDir) {
    dir = path.join(options.dataDir, 'db');
    fs.mkdirSync(dir, { recursive: true });
    unlock = lockDataDir(options.dataDir);
  }
  // PostgreSQL's default 128 MB of shared buffers sit in PGlite's WebAssembly memory, inside the
  // server's own process (its RSS grew by 110 MB at open); the embedded database serves small
  // deployments whose files the OS page cache holds anyway, so less is kept by default.
  const sharedBuffersMb = options.pgliteSharedBuffersMb ?? DEFAULT_PGLITE_SHARED_BUFFERS_MB;
  const startParams = [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffersMb}MB`];
  const client = new PGlite({ ...(dir ? { dataDir: dir } : options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}), startParams });
  try {
    await client.waitReady;
  } catch (error) {
    unlock();
    throw error;
  }
  const db = drizzle(client, { schema, logger });
  prepareNamedOnPglite(db, client);
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    migrate: () => migrate(db, { migrationsFolder }),
    // PGlite is one process's database: nobody else can be starting on it.
    startupLock: (work) => work(),
    dumpDataDir: () => client.dumpDataDir('none'),
    close: async () => {
      try {
        await client.close();
      } finally {
        unlock();
      }
    },
  };
}
