/**
 * `npm run audit:verify`: checks the audit trail's hash chain in the configured database and
 * names the first row that was changed or whose predecessor was removed. Exits 1 then. On the
 * embedded database it refuses (exit 2, touching nothing) while a server holds the data
 * directory: PGlite serves one process.
 */
import { loadConfig } from '../config';
import { DataDirInUse } from '../db/dataDirLock';
import { openDatabase, type Database } from '../db/open';
import { verifyAuditChain } from './trail';

const config = loadConfig();
let database: Database;
try {
  database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, pgliteSharedBuffersMb: config.pgliteSharedBuffersMb });
} catch (error) {
  if (!(error instanceof DataDirInUse)) throw error;
  console.error(`audit: not checked. ${error.message}`);
  process.exit(2);
}
try {
  await database.migrate();
  const result = await verifyAuditChain(database.db);
  if (result.ok) {
    console.log(`audit: ${result.rows} events, chain intact`);
  } else {
    console.error(`audit: row ${result.badId} fails: ${result.reason} (checked ${result.rows} events)`);
    process.exitCode = 1;
  }
} finally {
  await database.close();
}
