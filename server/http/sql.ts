import { and, asc, Column, desc, eq, is, ne, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Conn } from '../db/open';
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

/** One key of a list's order: what is compared, its direction, and whether it can be NULL. */
export interface OrderKey {
  key: AnyColumn | SQL;
  desc: boolean;
  /** False only for a NOT NULL column of the table read (a left join's columns can be NULL). */
  nullable: boolean;
}

/**
 * A list's order from a parsed sort: names in natural order, with the row's key last (its id, or
 * the columns of a composite key in order; descending with `idDesc`) so pages never overlap.
 * `lead` goes ahead of it all.
 */
export function orderKeys<S extends string>(
  terms: SortTerm<S>[],
  columns: Record<S, AnyColumn | SQL>,
  id: AnyColumn | readonly AnyColumn[],
  options: { lead?: OrderKey; notNullColumns?: boolean; idDesc?: boolean } = {},
): OrderKey[] {
  const nullable = (key: AnyColumn | SQL) => !(options.notNullColumns && is(key, Column) && key.notNull);
  const out = options.lead ? [options.lead] : [];
  for (const t of terms) {
    const column = columns[t.field];
    out.push({ key: NAME_FIELD.test(t.field) ? naturally(column) : column, desc: t.desc, nullable: nullable(column) });
  }
  for (const key of Array.isArray(id) ? id : [id]) out.push({ key, desc: options.idDesc === true, nullable: nullable(key) });
  return out;
}

/** ORDER BY terms of a list's order: PostgreSQL's default NULL order, last ascending and first descending. */
export const orderByKeys = (keys: readonly OrderKey[]): SQL[] => keys.map((k) => (k.desc ? desc(k.key) : asc(k.key)));

/** ORDER BY terms from a parsed sort (orderKeys). */
export function orderBy<S extends string>(terms: SortTerm<S>[], columns: Record<S, AnyColumn | SQL>, id: AnyColumn | readonly AnyColumn[]): SQL[] {
  return orderByKeys(orderKeys(terms, columns, id));
}

/**
 * A row's place in a list's order: each key's value as text (exact, a timestamp's microseconds
 * included), null for NULL. Read beside the row (`seekValues`) and given back to `seekAfter`,
 * where each value is an untyped parameter that PostgreSQL reads as its key's type.
 */
export type SeekPosition = readonly (string | null)[];

/** The selection that reads a row's SeekPosition, one field a key. */
export function seekValues(keys: readonly OrderKey[]): Record<string, SQL<string | null>> {
  return Object.fromEntries(keys.map((k, i) => [`k${i}`, sql<string | null>`(${k.key})::text`]));
}

/** The SeekPosition read through seekValues' selection. */
export const seekPosition = (keys: readonly OrderKey[], values: Record<string, string | null>): SeekPosition => keys.map((_, i) => values[`k${i}`] ?? null);

/**
 * The rows after `after` in the order of `keys` (orderByKeys), so that a page read from there
 * continues the one before it whatever was inserted or deleted elsewhere in the order meanwhile:
 * some key is past its value with every key before it equal. Past a value is greater ascending,
 * NULL included (NULLS LAST), and smaller descending; past a NULL is nothing ascending and every
 * value descending (NULLS FIRST). The first key's bound is repeated alone, for an index to range over.
 */
export function seekAfter(keys: readonly OrderKey[], after: SeekPosition): SQL {
  if (after.length !== keys.length) throw new Error(`a seek position of ${after.length} keys in an order of ${keys.length}`);
  const past = (k: OrderKey, value: string | null): SQL | undefined => {
    if (value === null) return k.desc ? sql`${k.key} is not null` : undefined;
    if (k.desc) return sql`${k.key} < ${value}`;
    return k.nullable ? sql`(${k.key} > ${value} or ${k.key} is null)` : sql`${k.key} > ${value}`;
  };
  const same = (k: OrderKey, value: string | null): SQL => (value === null ? sql`${k.key} is null` : sql`${k.key} = ${value}`);
  const branches: SQL[] = [];
  const equal: SQL[] = [];
  keys.forEach((k, i) => {
    const value = after[i] ?? null;
    const beyond = past(k, value);
    if (beyond) branches.push(equal.length ? sql`(${sql.join([...equal, beyond], sql` and `)})` : beyond);
    equal.push(same(k, value));
  });
  const [first] = keys;
  const firstValue = after[0] ?? null;
  const bound =
    !first || (firstValue === null && first.desc)
      ? undefined
      : firstValue === null
        ? sql`${first.key} is null`
        : first.desc
          ? sql`${first.key} <= ${firstValue}`
          : first.nullable
            ? sql`(${first.key} >= ${firstValue} or ${first.key} is null)`
            : sql`${first.key} >= ${firstValue}`;
  const any = branches.length ? sql`(${sql.join(branches, sql` or `)})` : sql`false`;
  return bound ? sql`(${bound} and ${any})` : any;
}

/**
 * Whether a row other than `exceptId` already holds `value` in `column`: the check before a save
 * that a unique index would refuse, for a precise answer.
 */
export const valueTaken = (db: Conn, column: PgColumn, id: PgColumn, value: string, exceptId?: number) => heldElsewhere(db, id, eq(column, value), exceptId);

/** valueTaken, case aside: for a unique index on lower(column). */
export const valueTakenIgnoringCase = (db: Conn, column: PgColumn, id: PgColumn, value: string, exceptId?: number) =>
  heldElsewhere(db, id, sql`lower(${column}) = lower(${value})`, exceptId);

async function heldElsewhere(db: Conn, id: PgColumn, holds: SQL, exceptId: number | undefined): Promise<boolean> {
  const [taken] = await db
    .select({ id })
    .from(id.table)
    .where(and(holds, exceptId ? ne(id, exceptId) : undefined));
  return taken !== undefined;
}

/** A case-insensitive "contains" pattern with LIKE's wildcards escaped. */
export const containsPattern = (text: string) => `%${text.trim().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/** A list's search: rows where any of `columns` contains the text; none for a blank search, which matches every row. */
export const ilikeAny = (columns: (AnyColumn | SQL)[], text: string | undefined): SQL | undefined => {
  if (!text?.trim()) return undefined;
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
