/** The runner's generic messages kept: a page of them, one, and a change to one. */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type * as v from 'valibot';
import { MESSAGE_TYPES, GENERIC_MESSAGE_SORTS, type GenericMessagePatch } from '@core/model/genericMessage';
import type { Db } from '../db/open';
import { genericMessages } from '../db/schema';
import { sortColumnsOf, tablePage } from '../http/list';
import type { ListQuery } from '../http/query';
import { choiceParam, searchParam } from '../http/params';
import { ilikeAny } from '../http/sql';

export type GenericMessageRow = typeof genericMessages.$inferSelect;

const sortColumns = sortColumnsOf(genericMessages, GENERIC_MESSAGE_SORTS);

/** What the generic messages list narrows by. */
export const GENERIC_MESSAGE_FILTERS = { searchQuery: searchParam, messageType: choiceParam(MESSAGE_TYPES) };

/** A page of the messages, of one type when given. */
export function genericMessagePage(db: Db, q: ListQuery<(typeof GENERIC_MESSAGE_SORTS)[number], typeof GENERIC_MESSAGE_FILTERS>) {
  const conditions: (SQL | undefined)[] = [ilikeAny([genericMessages.keyName, genericMessages.message], q.filters.searchQuery)];
  if (q.filters.messageType !== undefined) conditions.push(eq(genericMessages.messageType, q.filters.messageType));
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
