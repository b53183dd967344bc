/**
 * `npm run audit:verify`: checks the audit trail's hash chain in the configured database and
 * names the first row that was changed or whose predecessor was removed. Exits 1 then.
 */
import { loadConfig } from '../config';
import { openDatabase } from '../db/open';
import { verifyAuditChain } from './trail';

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
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
