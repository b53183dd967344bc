/** Column and index helpers every area's tables share. */
import { sql } from 'drizzle-orm';
import { integer, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';

export const created = () => timestamp('created', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
export const modified = () => timestamp('modified', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
/** A required reference to the row this one belongs to: deleting that row deletes this one. */
export const belongsTo = <N extends string>(name: N, owner: () => AnyPgColumn) => integer(name).notNull().references(owner, { onDelete: 'cascade' });
/**
 * An index key in the natural_sort collation (migration 0011), so the lists' name sorts
 * (server/http/sql.ts orderBy) are index ranges, not sorts of every row.
 */
export const natural = (column: AnyPgColumn) => sql`${column} collate natural_sort`;
