import { count, type AnyColumn, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/open';
import type { ListQuery } from './query';
import { orderBy } from './sql';

/**
 * One page of a single table's rows in the parsed sort, with the number of rows `where`
 * matches: the list route of every resource that needs no join.
 */
export async function tablePage<T extends PgTable, S extends string>(
  db: Db,
  table: T,
  q: Pick<ListQuery<S, string>, 'sort' | 'limit' | 'offset'>,
  options: { where?: SQL; sorts: Record<S, AnyColumn | SQL>; id: AnyColumn },
): Promise<{ rows: T['$inferSelect'][]; total: number }> {
  const from = table as PgTable;
  const [total] = await db.select({ n: count() }).from(from).where(options.where);
  const rows = await db
    .select()
    .from(from)
    .where(options.where)
    .orderBy(...orderBy(q.sort, options.sorts, options.id))
    .limit(q.limit)
    .offset(q.offset);
  return { rows: rows as T['$inferSelect'][], total: total?.n ?? 0 };
}
