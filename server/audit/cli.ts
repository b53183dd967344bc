/**
 * `npm run audit:verify`: checks the audit trail's hash chain in the configured database and
 * names the first row that was changed or whose predecessor was removed. Exits 1 then. On the
 * embedded database it refuses (exit 2, touching nothing) while a server holds the data
 * directory: PGlite serves one process.
 */
import { loadConfig } from '../config';
import { withCommandDatabase } from '../db/command';
import { verifyAuditChain } from './trail';

await withCommandDatabase(loadConfig(), 'audit: not checked.', async (database) => {
  const result = await verifyAuditChain(database.db);
  if (result.ok) {
    console.log(`audit: ${result.rows} events, chain intact`);
  } else {
    console.error(`audit: row ${result.badId} fails: ${result.reason} (checked ${result.rows} events)`);
    process.exitCode = 1;
  }
});
