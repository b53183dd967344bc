/**
 * The database as a server process or a one-off command (`npm run audit:verify`, `npm run
 * phi:reseal`) opens it: from the configuration, migrated. A command on the embedded database
 * refuses (exit 2, touching nothing) while a server holds the data directory: PGlite serves one
 * process.
 */
import { DataDirInUse } from './dataDirLock';
import { openDatabase, type Database } from './open';

/** The settings of the configuration that say which database to open and how. */
export interface DatabaseSettings {
  databaseUrl: string | null;
  dataDir: string;
  databasePoolSize: number;
  pgliteSharedBuffersMb: number;
}

/** The configuration's database, opened with its settings. */
export const openConfiguredDatabase = (config: DatabaseSettings): Promise<Database> =>
  openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    pgliteSharedBuffersMb: config.pgliteSharedBuffersMb,
  });

/**
 * Runs a command's `work` on the configured database, migrated, and closes it. When a server
 * holds the embedded database it prints `refused` with the reason and exits 2.
 */
export async function withCommandDatabase<T>(config: DatabaseSettings, refused: string, work: (database: Database) => Promise<T>): Promise<T> {
  let database: Database;
  try {
    database = await openConfiguredDatabase(config);
  } catch (error) {
    if (!(error instanceof DataDirInUse)) throw error;
    console.error(`${refused} ${error.message}`);
    process.exit(2);
  }
  try {
    await database.migrate();
    return await work(database);
  } finally {
    await database.close();
  }
}
