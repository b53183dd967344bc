/** Contact fields kept: a page of them, one, and their writes, with the machine name unique. */
import { eq, sql } from 'drizzle-orm';
import { CONTACT_FIELD_SORTS } from '@core/model/contactField';
import type { Db } from '../db/open';
import { contactFields } from '../db/schema';
import { Conflict } from '../errors';
import { sortColumnsOf, tablePage } from '../http/list';
import { searchParam } from '../http/params';
import type { ListQuery } from '../http/query';
import { ilikeAny, rethrowConstraint, valueTaken } from '../http/sql';
import { insertedRow } from '../db/rows';

export const CONTACT_FIELD_NAME_TAKEN = 'Another contact field already has this name.';

export type ContactFieldRow = typeof contactFields.$inferSelect;
type ContactFieldValues = typeof contactFields.$inferInsert;

const sortColumns = sortColumnsOf(contactFields, CONTACT_FIELD_SORTS);

const nameTaken = () => new Conflict(CONTACT_FIELD_NAME_TAKEN, '/data/attributes/name');

export async function assertNameFree(db: Db, name: string | undefined, exceptId?: number) {
  if (name !== undefined && (await valueTaken(db, contactFields.name, contactFields.id, name, exceptId))) throw nameTaken();
}

const onConstraint = (error: unknown): never => rethrowConstraint(error, { unique: nameTaken });

/** The list's filters: the search. */
export const CONTACT_FIELD_FILTERS = { searchQuery: searchParam };

export function contactFieldPage(db: Db, q: ListQuery<(typeof CONTACT_FIELD_SORTS)[number], typeof CONTACT_FIELD_FILTERS>) {
  const where = ilikeAny([contactFields.label, contactFields.name], q.filters.searchQuery);
  return tablePage(db, contactFields, q, { where, sorts: sortColumns, id: contactFields.id });
}

export async function findContactField(db: Db, id: number): Promise<ContactFieldRow | undefined> {
  const [row] = await db.select().from(contactFields).where(eq(contactFields.id, id));
  return row;
}

export async function createContactField(db: Db, values: ContactFieldValues): Promise<ContactFieldRow> {
  const row = await insertedRow(db.insert(contactFields).values(values).returning().catch(onConstraint));
  return row;
}

export async function updateContactField(db: Db, id: number, changes: Partial<ContactFieldValues>): Promise<ContactFieldRow | undefined> {
  const [row] = await db
    .update(contactFields)
    .set({ ...changes, modified: sql`now()` })
    .where(eq(contactFields.id, id))
    .returning()
    .catch(onConstraint);
  return row;
}

/** False when there was no such contact field. */
export async function deleteContactField(db: Db, id: number): Promise<boolean> {
  const deleted = await db.delete(contactFields).where(eq(contactFields.id, id)).returning({ id: contactFields.id });
  return deleted.length > 0;
}
