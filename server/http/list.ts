import { count, type AnyColumn, type SQL } from 'drizzle-orm';
import type { PgSelect, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/open';
import type { ListQuery } from './query';
import { orderBy } from './sql';

/**
 * Whether to count every row a list matches: `count: false` for the pages of a CSV, which carry
 * no total (http/listAnswer.ts); the total is then null.
 */
export interface Counting {
  count?: boolean;
}

/** Which page to read, in the parsed sort. */
export type PageQuery<S extends string> = Pick<ListQuery<S>, 'sort' | 'limit' | 'offset'> & Counting;

/**
 * One page of a single table's rows in the parsed sort, with the number of rows `where`
 * matches: the list route of every resource that needs no join.
 */
export async function tablePage<T extends PgTable, S extends string>(
  db: Db,
  table: T,
  q: PageQuery<S>,
  options: { where?: SQL; sorts: Record<S, AnyColumn | SQL>; id: AnyColumn },
): Promise<{ rows: T['$inferSelect'][]; total: number | null }> {
  const from = table as PgTable;
  const [total] = q.count === false ? [] : await db.select({ n: count() }).from(from).where(options.where);
  const rows = await db
    .select()
    .from(from)
    .where(options.where)
    .orderBy(...orderBy(q.sort, options.sorts, options.id))
    .limit(q.limit)
    .offset(q.offset);
  return { rows: rows as T['$inferSelect'][], total: q.count === false ? null : (total?.n ?? 0) };
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
    lead?: SQL;
  },
): Promise<{ rows: Awaited<T>; total: number | null }> {
  const order = orderBy(q.sort, options.sorts, options.id);
  const [[total], rows] = await Promise.all([
    q.count === false ? [] : counted.where(options.where),
    select
      .where(options.where)
      .orderBy(...(options.lead ? [options.lead, ...order] : order))
      .limit(q.limit)
      .offset(q.offset),
  ]);
  return { rows, total: q.count === false ? null : (total?.n ?? 0) };
}
