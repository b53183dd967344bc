/** The runner's generic messages kept: a page of them, one, and a change to one. */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type * as v from 'valibot';
import type { GENERIC_MESSAGE_SORTS, GenericMessagePatch } from '@core/model/genericMessage';
import type { Db } from '../db/open';
import { genericMessages } from '../db/schema';
import { tablePage } from '../http/list';
import type { ListQuery } from '../http/query';
import { ilikeAny } from '../http/sql';

export type GenericMessageRow = typeof genericMessages.$inferSelect;

const sortColumns = {
  keyName: genericMessages.keyName,
  message: genericMessages.message,
  messageType: genericMessages.messageType,
  modified: genericMessages.modified,
};

/** A page of the messages, of one type when given (already checked to be one). */
export function genericMessagePage(db: Db, q: ListQuery<(typeof GENERIC_MESSAGE_SORTS)[number], 'searchQuery' | 'messageType'>, messageType: string | undefined) {
  const conditions: (SQL | undefined)[] = [];
  if (messageType !== undefined) conditions.push(eq(genericMessages.messageType, messageType));
  if (q.filters.searchQuery?.trim()) {
    conditions.push(ilikeAny([genericMessages.keyName, genericMessages.message], q.filters.searchQuery));
  }
  return tablePage(db, genericMessages, q, { where: and(...conditions), sorts: sortColumns, id: genericMessages.id });
}

export async function findGenericMessage(db: Db, id: number | null): Promise<GenericMessageRow | undefined> {
  const [row] = id === null ? [] : await db.select().from(genericMessages).where(eq(genericMessages.id, id));
  return row;
}

export async function updateGenericMessage(db: Db, id: number, change: v.InferOutput<typeof GenericMessagePatch>): Promise<GenericMessageRow> {
  const [row] = await db
    .update(genericMessages)
    .set({ ...change, modified: sql`now()` })
    .where(eq(genericMessages.id, id))
    .returning();
  return row as GenericMessageRow;
}
