import { eq } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Conn } from '../../server/db/open';

/**
 * The rows of `column`'s table that hold `value` in it: what a test reads back to see that a
 * call wrote them, or left or removed none (their count and their whole, not their fields).
 */
export function rowsWhere(db: Conn, column: PgColumn, value: unknown): Promise<unknown[]> {
  return db.select().from(column.table).where(eq(column, value));
}
