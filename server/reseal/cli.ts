/**
 * `npm run phi:reseal [-- --rehash]`: after a PHI key rotation (the new key in
 * PHI_ENCRYPTION_KEY, the old one in PHI_PREVIOUS_KEYS), seals again with the current key every
 * contact, answer and record-system secret a previous key sealed, seals answers still in clear,
 * and gives contacts without keyed e-mail and phone hashes their hashes (`--rehash`: every
 * contact's, after CONTACT_MATCH_KEY changed). Prints what it did; safe to run again. On the
 * embedded database it refuses (exit 2, touching nothing) while a server holds the data
 * directory: PGlite serves one process.
 */
import { loadConfig } from '../config';
import { withCommandDatabase } from '../db/command';
import { contactMatcherOf } from '../security/contactMatch';
import { phiOf } from '../security/phi';
import { resealAll } from './reseal';

const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== '--rehash');
if (unknown.length > 0) {
  console.error(`phi:reseal: unknown argument ${unknown.join(' ')} (only --rehash)`);
  process.exit(2);
}
const config = loadConfig();
await withCommandDatabase(config, 'phi:reseal: nothing done.', async (database) => {
  const deps = { config };
  const phi = phiOf(deps);
  const done = await resealAll(database.db, phi, contactMatcherOf(deps), { rehash: args.includes('--rehash') });
  console.log(
    `phi:reseal: key ${phi.keyId}; sealed again: ${done.contacts} contacts, ${done.leads} leads, ${done.notes} referral notes, ${done.answers} answers, ${done.secrets} record-system secrets, ${done.messages} messages; ` +
      `sealed from clear: ${done.clearAnswers} answers; hashes given to ${done.contactHashes} contacts`,
  );
});
