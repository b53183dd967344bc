/**
 * Languages kept: a page of them, one, and their writes, with the iso code unique whatever its
 * case. Renaming a code moves the translations stored under it, in the same transaction; the
 * default language is never deleted here.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type * as v from 'valibot';
import { LANGUAGE_SORTS, type LanguageInput, type LanguagePatch } from '@core/model/language';
import type { Db } from '../db/open';
import { contactFields, genericMessages, languages } from '../db/schema';
import { Conflict } from '../errors';
import { sortColumnsOf, tablePage } from '../http/list';
import type { ListQuery } from '../http/query';
import type { SEARCH_AND_ACTIVE } from '../http/params';
import { ilikeAny, rethrowConstraint, valueTakenIgnoringCase } from '../http/sql';
import { LANGUAGE_MESSAGES } from './translations';
import { insertedRow } from '../db/rows';

export type LanguageRow = typeof languages.$inferSelect;

const sortColumns = sortColumnsOf(languages, LANGUAGE_SORTS);

const isoCodeTaken = () => new Conflict(LANGUAGE_MESSAGES.isoCodeTaken, '/data/attributes/isoCode');

export async function assertIsoCodeFree(db: Db, isoCode: string | undefined, exceptId?: number) {
  if (isoCode !== undefined && (await valueTakenIgnoringCase(db, languages.isoCode, languages.id, isoCode, exceptId))) throw isoCodeTaken();
}

const onConstraint = (error: unknown): never => rethrowConstraint(error, { unique: isoCodeTaken });

/** Moves every translation stored under `from` to `to` (a language's code changed). */
async function renameTranslations(tx: Db, from: string, to: string) {
  for (const table of [genericMessages, contactFields]) {
    await tx
      .update(table)
      .set({
        translations: sql`(${table.translations} - ${from}::text) || jsonb_build_object(${to}::text, ${table.translations} -> ${from}::text)`,
      })
      .where(sql`${table.translations} ? ${from}::text`);
  }
}

export function languagePage(db: Db, q: ListQuery<(typeof LANGUAGE_SORTS)[number], typeof SEARCH_AND_ACTIVE>) {
  const isActive = q.filters.isActive;
  const conditions: (SQL | undefined)[] = [ilikeAny([languages.name, languages.description, languages.isoCode], q.filters.searchQuery)];
  if (isActive !== undefined) conditions.push(eq(languages.isActive, isActive));
  return tablePage(db, languages, q, { where: and(...conditions), sorts: sortColumns, id: languages.id });
}

export async function findLanguage(db: Db, id: number | null): Promise<LanguageRow | undefined> {
  const [row] = id === null ? [] : await db.select().from(languages).where(eq(languages.id, id));
  return row;
}

export async function createLanguage(db: Db, attributes: v.InferOutput<typeof LanguageInput>): Promise<LanguageRow> {
  await assertIsoCodeFree(db, attributes.isoCode);
  const row = await insertedRow(db.insert(languages).values(attributes).returning().catch(onConstraint));
  return row;
}

/** The language changed; a new code takes the translations stored under the old one along. */
export async function updateLanguage(db: Db, existing: LanguageRow, attributes: v.InferOutput<typeof LanguagePatch>): Promise<LanguageRow> {
  const recoded = attributes.isoCode !== undefined && attributes.isoCode !== existing.isoCode;
  await assertIsoCodeFree(db, attributes.isoCode, existing.id);
  const [row] = await db
    .transaction(async (tx) => {
      const updated = await tx
        .update(languages)
        .set({ ...attributes, modified: sql`now()` })
        .where(eq(languages.id, existing.id))
        .returning();
      if (recoded && attributes.isoCode) await renameTranslations(tx, existing.isoCode, attributes.isoCode);
      return updated;
    })
    .catch(onConstraint);
  return row as LanguageRow;
}

/**
 * Deleting keeps the translations stored under the code: they are unused while no language
 * has it, and come back if the language is added again.
 */
export async function deleteLanguage(db: Db, id: number) {
  await db.delete(languages).where(and(eq(languages.id, id), eq(languages.isDefault, false)));
}
