/**
 * Re-sealing after a PHI key rotation (`npm run phi:reseal`, ./reseal-cli.ts): every value a
 * previous key sealed — contacts' and leads' values, sealed answers, staff notes on referrals,
 * record systems' secrets, messages' addresses and bodies — is opened
 * and sealed again with the current key; answers still stored in clear are sealed; and contacts
 * without their keyed e-mail and phone hashes (stored before duplicates were looked for, or
 * after CONTACT_MATCH_KEY changed, with `rehash`) get them from their opened values.
 *
 * In batches, each row written only if it still holds what was read (a server running beside
 * it may write the same row; neither loses the other's work), so it is safe to run while
 * servers serve and to run again: a second run finds nothing to do.
 */
import { and, asc, eq, gt, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/open';
import { rowsOf } from '../db/rows';
import { contactFields, contacts, leads, messages, oFormFieldEntries, referralEvents, referrals, rmsProviders } from '../db/schema';
import { matchKeysOf } from '../participant';
import { sealClearAnswers } from '../participant';
import type { ContactFormField, ContactValue } from '@core/survey/contact';
import type { ContactFieldType } from '@core/model/contactField';
import type { ContactMatcher } from '../security/contactMatch';
import type { PhiCipher } from '../security/phi';

const BATCH = 500;

export interface ResealResult {
  /** Contacts whose values were sealed again with the current key. */
  contacts: number;
  /** Contacts that got their keyed e-mail and phone hashes. */
  contactHashes: number;
  /** Sealed answers sealed again with the current key. */
  answers: number;
  /** Answers that were in clear and are sealed now. */
  clearAnswers: number;
  /** Record systems' signing secrets and bearer tokens sealed again. */
  secrets: number;
  /** Leads whose values (and ZIP) were sealed again. */
  leads: number;
  /** Staff notes sealed again: referrals' reason notes and their timeline events' notes. */
  notes: number;
  /** Messages whose address (and body) were sealed again. */
  messages: number;
}

export interface ResealOptions {
  /** Recompute every contact's keyed hashes, not only the missing ones (after CONTACT_MATCH_KEY changed). */
  rehash?: boolean;
}

/**
 * A text column not sealed with the current key (null values aside). A prefix test, not LIKE: key
 * ids are base64url, and `_` in a LIKE pattern matches any character.
 */
const notCurrent = (column: PgColumn, phi: PhiCipher) => sql`not starts_with(${column}, ${phi.currentPrefix})`;

export async function resealAll(db: Db, phi: PhiCipher, matcher: ContactMatcher, options: ResealOptions = {}): Promise<ResealResult> {
  const result: ResealResult = { contacts: 0, contactHashes: 0, answers: 0, clearAnswers: 0, secrets: 0, leads: 0, notes: 0, messages: 0 };

  // The contact fields by name, as a form: which values are an e-mail address or a phone number.
  const form: ContactFormField[] = (
    await db.select({ name: contactFields.name, fieldType: contactFields.fieldType }).from(contactFields).orderBy(asc(contactFields.id))
  ).map((f) => ({ name: f.name, fieldType: f.fieldType as ContactFieldType, required: false }));

  let after = 0;
  for (;;) {
    const rows = await db
      .select({ id: contacts.id, sealed: contacts.valuesCiphertext, emailMatch: contacts.emailMatch, phoneMatch: contacts.phoneMatch })
      .from(contacts)
      .where(
        and(
          gt(contacts.id, after),
          options.rehash ? undefined : or(notCurrent(contacts.valuesCiphertext, phi), and(isNull(contacts.emailMatch), isNull(contacts.phoneMatch))),
        ),
      )
      .orderBy(asc(contacts.id))
      .limit(BATCH);
    if (rows.length === 0) break;
    after = rows.at(-1)!.id;
    for (const row of rows) {
      const values = JSON.parse(phi.open(row.sealed)) as Record<string, ContactValue>;
      const reseal = phi.keyIdOf(row.sealed) !== phi.keyId;
      const lacksHashes = row.emailMatch === null && row.phoneMatch === null;
      const keys = options.rehash || lacksHashes ? matchKeysOf(matcher, form, values) : null;
      const hashesChange = keys !== null && (keys.emailMatch !== row.emailMatch || keys.phoneMatch !== row.phoneMatch);
      if (!reseal && !hashesChange) continue;
      const updated = await db
        .update(contacts)
        .set({ ...(reseal ? { valuesCiphertext: phi.seal(JSON.stringify(values)) } : {}), ...(hashesChange ? keys : {}) })
        .where(and(eq(contacts.id, row.id), eq(contacts.valuesCiphertext, row.sealed)))
        .returning({ id: contacts.id });
      if (updated.length === 0) continue;
      if (reseal) result.contacts += 1;
      if (hashesChange) result.contactHashes += 1;
    }
  }

  after = 0;
  for (;;) {
    const rows = await db
      .select({ id: oFormFieldEntries.id, sealed: oFormFieldEntries.sealedValue })
      .from(oFormFieldEntries)
      .where(and(gt(oFormFieldEntries.id, after), isNotNull(oFormFieldEntries.sealedValue), notCurrent(oFormFieldEntries.sealedValue, phi)))
      .orderBy(asc(oFormFieldEntries.id))
      .limit(BATCH);
    if (rows.length === 0) break;
    after = rows.at(-1)!.id;
    await db.transaction(async (tx) => {
      for (const row of rows) {
        const updated = await tx
          .update(oFormFieldEntries)
          .set({ sealedValue: phi.seal(phi.open(row.sealed!)) })
          .where(and(eq(oFormFieldEntries.id, row.id), eq(oFormFieldEntries.sealedValue, row.sealed!)))
          .returning({ id: oFormFieldEntries.id });
        result.answers += updated.length;
      }
    });
  }
  result.clearAnswers = await sealClearAnswers(db, phi);

  const providers = await db
    .select({ id: rmsProviders.id, signingSecret: rmsProviders.signingSecret, bearerToken: rmsProviders.bearerToken })
    .from(rmsProviders)
    .where(
      or(
        and(isNotNull(rmsProviders.signingSecret), notCurrent(rmsProviders.signingSecret, phi)),
        and(isNotNull(rmsProviders.bearerToken), notCurrent(rmsProviders.bearerToken, phi)),
      ),
    );
  for (const p of providers) {
    // Only what a key sealed: a secret stored in clear (before sealing) is the providers' own start-up job.
    const again = (value: string | null) => (value !== null && phi.isSealed(value) && phi.keyIdOf(value) !== phi.keyId ? phi.seal(phi.open(value)) : value);
    const signingSecret = again(p.signingSecret);
    const bearerToken = again(p.bearerToken);
    const changed = Number(signingSecret !== p.signingSecret) + Number(bearerToken !== p.bearerToken);
    if (changed === 0) continue;
    const updated = await db
      .update(rmsProviders)
      .set({ signingSecret, bearerToken })
      .where(
        and(
          eq(rmsProviders.id, p.id),
          p.signingSecret === null ? isNull(rmsProviders.signingSecret) : eq(rmsProviders.signingSecret, p.signingSecret),
          p.bearerToken === null ? isNull(rmsProviders.bearerToken) : eq(rmsProviders.bearerToken, p.bearerToken),
        ),
      )
      .returning({ id: rmsProviders.id });
    if (updated.length > 0) result.secrets += changed;
  }

  result.leads += await resealColumns(db, phi, leads.id, [leads.valuesCiphertext, leads.zipCiphertext]);
  result.notes += await resealColumns(db, phi, referrals.id, [referrals.reasonNoteCiphertext]);
  result.notes += await resealColumns(db, phi, referralEvents.id, [referralEvents.noteCiphertext]);
  result.messages += await resealColumns(db, phi, messages.id, [messages.toCiphertext, messages.bodyCiphertext]);
  return result;
}

/** A sealed column's value as read by a raw statement: text, or null. */
const sealedText = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * Seals a table's `columns` again in batches: the rows after the last one read where a previous
 * key sealed any of them, each written only if it still holds every value that was read (a null
 * stays null). Answers how many rows were written.
 */
async function resealColumns(db: Db, phi: PhiCipher, id: PgColumn, columns: readonly PgColumn[]): Promise<number> {
  const stale = or(...columns.map((column) => and(isNotNull(column), notCurrent(column, phi))));
  const selected = sql.join(
    columns.map((column, i) => sql`${column} as ${sql.identifier(`c${i}`)}`),
    sql`, `,
  );
  let done = 0;
  let after = 0;
  for (;;) {
    const rows = rowsOf(
      await db.execute(sql`select ${id} as id, ${selected} from ${id.table} where ${id} > ${after} and ${stale} order by ${id} limit ${BATCH}`),
    );
    if (rows.length === 0) break;
    after = Number(rows.at(-1)!.id);
    for (const row of rows) {
      const read = columns.map((column, i) => ({ column, sealed: sealedText(row[`c${i}`]) }));
      const set = read.map(({ column, sealed }) => sql`${sql.identifier(column.name)} = ${sealed === null ? null : phi.seal(phi.open(sealed))}`);
      const unchanged = read.map(({ column, sealed }) => (sealed === null ? isNull(column) : eq(column, sealed)));
      const updated = await db.execute(
        sql`update ${id.table} set ${sql.join(set, sql`, `)} where ${id} = ${Number(row.id)} and ${and(...unchanged)} returning 1`,
      );
      done += rowsOf(updated).length;
    }
  }
  return done;
}
