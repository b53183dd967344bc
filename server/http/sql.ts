import { asc, desc, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { SortTerm } from './query';

/**
 * Text in the `natural_sort` collation (created by migration 0011, ICU's root order with numbers
 * compared by value): "Site 2" before "Site 10", case and accents as in a dictionary, the same
 * order on PGlite and PostgreSQL. An index serves such a sort only when it is built in the same
 * collation (server/db/schema/columns.ts natural).
 */
export const naturally = (text: AnyColumn | SQL): SQL => sql`${text} collate natural_sort`;

/** Sort fields that name something: name, title, label, username, and every …Name (sponsorName). */
const NAME_FIELD = /^(?:name|title|label|username)$|Name$/;

/**
 * ORDER BY terms from a parsed sort, names in natural order, with the row's key last (its id, or
 * the columns of a composite key in order) so pages never overlap.
 */
export function orderBy<S extends string>(terms: SortTerm<S>[], columns: Record<S, AnyColumn | SQL>, id: AnyColumn | readonly AnyColumn[]): SQL[] {
  const out = terms.map((t) => {
    const column = NAME_FIELD.test(t.field) ? naturally(columns[t.field]) : columns[t.field];
    return t.desc ? desc(column) : asc(column);
  });
  for (const key of Array.isArray(id) ? id : [id]) out.push(asc(key));
  return out;
}

/** A case-insensitive "contains" pattern with LIKE's wildcards escaped. */
export const containsPattern = (text: string) => `%${text.trim().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

export const ilikeAny = (columns: (AnyColumn | SQL)[], text: string): SQL => {
  const pattern = containsPattern(text);
  return sql`(${sql.join(
    columns.map((col) => sql`${col} ilike ${pattern}`),
    sql` or `,
  )})`;
};

/**
 * A write's constraint error as the answer the caller gives it: a unique violation (23505) or a
 * foreign-key violation (23503, a row referred to was removed between the check and the write)
 * becomes that answer; anything else is thrown on as it came.
 */
export function rethrowConstraint(error: unknown, answers: { unique?: (constraint?: string) => Error; foreignKey?: (constraint?: string) => Error }): never {
  const { code, constraint } = pgErrorCode(error);
  const answer = code === '23505' ? answers.unique : code === '23503' ? answers.foreignKey : undefined;
  if (answer) throw answer(constraint);
  throw error;
}

/** The PostgreSQL error code behind a driver or Drizzle error, if any. */
export function pgErrorCode(error: unknown): { code?: string; constraint?: string } {
  let current: unknown = error;
  for (let i = 0; i < 4 && current && typeof current === 'object'; i++) {
    const e = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) {
      return { code: e.code, constraint: typeof e.constraint === 'string' ? e.constraint : undefined };
    }
    current = e.cause;
  }
  return {};
}
