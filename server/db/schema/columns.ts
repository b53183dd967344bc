/** Column and index helpers every area's tables share. */
import { sql } from 'drizzle-orm';
import { boolean, integer, text, timestamp, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';

/** An instant (timestamptz), read and written as a Date. */
export const instant = <N extends string>(name: N) => timestamp(name, { withTimezone: true, mode: 'date' });
export const created = () => instant('created').notNull().defaultNow();
export const modified = () => instant('modified').notNull().defaultNow();
/** Whether a row is in use: new rows are. */
export const isActive = () => boolean('is_active').notNull().default(true);
/** Where a row stands among its siblings, lowest first. */
export const displayOrder = () => integer('display_order').notNull().default(0);
/** A required reference to the row this one belongs to: deleting that row deletes this one. */
export const belongsTo = <N extends string>(name: N, owner: () => AnyPgColumn) => integer(name).notNull().references(owner, { onDelete: 'cascade' });
/** A required reference to a row that cannot be deleted while this one names it. */
export const dependsOn = <N extends string>(name: N, owner: () => AnyPgColumn) => integer(name).notNull().references(owner, { onDelete: 'restrict' });
/** An optional reference: deleting the row it names clears it. */
export const refersTo = <N extends string>(name: N, owner: () => AnyPgColumn) => integer(name).references(owner, { onDelete: 'set null' });
/**
 * What an outbox row's attempts are claimed and scheduled by (server/messages/outbox.ts and
 * server/rms/outbox.ts lease them alike): its status, pending at first; the attempts made; when
 * the next is due; the lease of the claim in flight; when the last was made.
 */
export const leasedAttempts = () => ({
  status: text('status').notNull().default('pending'),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: instant('next_attempt_at'),
  leaseId: uuid('lease_id'),
  lastAttemptAt: instant('last_attempt_at'),
});
/**
 * An index key in the natural_sort collation (migration 0011), so the lists' name sorts
 * (server/http/sql.ts orderBy) are index ranges, not sorts of every row.
 */
export const natural = (column: AnyPgColumn) => sql`${column} collate natural_sort`;
