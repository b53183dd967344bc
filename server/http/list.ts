import { count, getTableColumns, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { PgSelect, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/open';
import type { ListQuery } from './query';
import { orderByKeys, orderKeys, seekAfter, seekPosition, seekValues, type OrderKey, type SeekPosition } from './sql';

/**
 * Whether to count every row a list matches: `count: false` for the pages of a CSV, which carry
 * no total (http/listAnswer.ts); the total is then null.
 */
export interface Counting {
  count?: boolean;
}

/**
 * Reading a list by keyset rather than by offset (the pages of a CSV, http/listAnswer.ts): the
 * page starts after `after`, the place of the previous page's last row in the list's order (the
 * offset is then 0), and tablePage and joinedPage leave in `next` the place of this page's last
 * row, or nothing when the page is empty. A list function that reads through neither leaves
 * `next` unset, and its reader goes on by offset.
 */
export interface Keyset {
  after?: SeekPosition;
  next?: SeekPosition;
}

/** Which page to read, in the parsed sort. */
export type PageQuery<S extends string> = Pick<ListQuery<S>, 'sort' | 'limit' | 'offset'> & Counting & { keyset?: Keyset };

/** The page's condition: the list's `where`, and past the keyset's place when there is one. */
const pageWhere = (where: SQL | undefined, keys: readonly OrderKey[], keyset: Keyset | undefined): SQL | undefined => {
  const after = keyset?.after;
  if (!after) return where;
  const seek = seekAfter(keys, after);
  return where ? sql`(${where}) and ${seek}` : seek;
};

/** Notes the place of the last row read, where the next page continues. */
function noteNext(keyset: Keyset, keys: readonly OrderKey[], last: Record<string, string | null> | undefined) {
  keyset.next = last ? seekPosition(keys, last) : undefined;
}

/**
 * A list's sort columns where each sort field (core's `…_SORTS`) is the table's column of that
 * name: a sort field the table has no column for does not type-check.
 */
export function sortColumnsOf<T extends PgTable, S extends keyof T['_']['columns'] & string>(table: T, sorts: readonly S[]): Record<S, AnyColumn> {
  const columns: Record<string, AnyColumn> = getTableColumns(table);
  return Object.fromEntries(sorts.map((sort) => [sort, columns[sort]])) as Record<S, AnyColumn>;
}

/**
 * One page of a single table's rows in the parsed sort, with the number of rows `where`
 * matches: the list route of every resource that needs no join.
 */
export async function tablePage<T extends PgTable, S extends string>(
  db: Db,
  table: T,
  q: PageQuery<S>,
  options: {
    where?: SQL;
    sorts: Record<S, AnyColumn | SQL>;
    id: AnyColumn;
    /** The id tie-break descending (the newest first among equals). */
    idDesc?: boolean;
  },
): Promise<{ rows: T['$inferSelect'][]; total: number | null }> {
  const from = table as PgTable;
  const [total] = q.count === false ? [] : await db.select({ n: count() }).from(from).where(options.where);
  const counted = q.count === false ? null : (total?.n ?? 0);
  const keys = orderKeys(q.sort, options.sorts, options.id, { notNullColumns: true, idDesc: options.idDesc });
  const { keyset } = q;
  if (!keyset) {
    const rows = await db
      .select()
      .from(from)
      .where(options.where)
      .orderBy(...orderByKeys(keys))
      .limit(q.limit)
      .offset(q.offset);
    return { rows: rows as T['$inferSelect'][], total: counted };
  }
  const read = await db
    .select({ row: getTableColumns(from), seek: seekValues(keys) })
    .from(from)
    .where(pageWhere(options.where, keys, keyset))
    .orderBy(...orderByKeys(keys))
    .limit(q.limit)
    .offset(keyset.after ? 0 : q.offset);
  noteNext(keyset, keys, read.at(-1)?.seek);
  return { rows: read.map((r) => r.row) as T['$inferSelect'][], total: counted };
}

/**
 * The count of a joined list, from `table`: joinedPage's `counted`, to which the caller adds the
 * joins its `where` reads (and `$dynamic()`).
 */
export const countOf = (db: Db, table: PgTable) => db.select({ n: count() }).from(table);

/** The key under which joinedPage reads a row's place in the order beside the route's selection. */
const SEEK = '__seek';

/**
 * Adds the fields of a row's place to a select the route built. Drizzle has no public way to
 * widen a built select, so this extends the selection its query and its result mapping both read
 * (the builder's `config.fields`); a Drizzle whose builder keeps it elsewhere fails here, loudly.
 */
function selectSeekToo(select: PgSelect, fields: Record<string, SQL>) {
  const config = (select as unknown as { config?: { fields?: Record<string, unknown> } }).config;
  if (!config?.fields || typeof config.fields !== 'object')
    throw new Error('joinedPage: this Drizzle select keeps its fields elsewhere; cannot read by keyset');
  config.fields = { ...config.fields, [SEEK]: fields };
}

/**
 * One page of a joined select in the parsed sort, with the number of rows `where` matches: the
 * list route of a resource read through joins. Both selects come `$dynamic()` from the route,
 * the count joining only what `where` reads. The count reads every matching row where the page
 * is often an index range, so it runs beside the page (on a connection of its own under
 * PostgreSQL) rather than before it.
 */
export async function joinedPage<T extends PgSelect, S extends string>(
  select: T,
  counted: PgSelect<string, { n: SQL<number> }>,
  q: PageQuery<S>,
  options: {
    where?: SQL;
    sorts: Record<S, AnyColumn | SQL>;
    /** The tie-break: the id, or the columns of a composite key in order. */
    id: AnyColumn | readonly AnyColumn[];
    /** An order ahead of the parsed sort (rows linked to something first). */
    lead?: { key: SQL; desc: boolean };
  },
): Promise<{ rows: Awaited<T>; total: number | null }> {
  // Any key may be NULL here, a left join's columns included.
  const keys = orderKeys(q.sort, options.sorts, options.id, { lead: options.lead && { ...options.lead, nullable: true } });
  const { keyset } = q;
  if (keyset) selectSeekToo(select, seekValues(keys));
  const [[total], rows] = await Promise.all([
    q.count === false ? [] : counted.where(options.where),
    select
      .where(pageWhere(options.where, keys, keyset))
      .orderBy(...orderByKeys(keys))
      .limit(q.limit)
      .offset(keyset?.after ? 0 : q.offset),
  ]);
  if (keyset) {
    const read = rows as unknown as Record<string, unknown>[];
    noteNext(keyset, keys, read.at(-1)?.[SEEK] as Record<string, string | null> | undefined);
    for (const row of read) delete row[SEEK];
  }
  return { rows, total: q.count === false ? null : (total?.n ?? 0) };
}
