/**
 * The lookup lists pickers read (SPEC sections 3 and 7), each with its table: a page of one, an
 * entry, and a new entry for the lists that take them (indications and tags).
 */
import { and, eq, type AnyColumn } from 'drizzle-orm';
import type { PgTableWithColumns } from 'drizzle-orm/pg-core';
import * as v from 'valibot';
import { IndicationInput, LOOKUP_NAME_TAKEN, LOOKUP_SORTS, LOOKUP_TYPES, TagInput, type LookupType } from '@core/model/lookup';
import type { Db } from '../db/open';
import { campaignTypes, indications, questionCategories, roles, tags, targetGroups, therapeuticAreas } from '../db/schema';
import { Conflict } from '../errors';
import { tablePage } from '../http/list';
import type { SEARCH_AND_ACTIVE } from '../http/params';
import type { ListQuery } from '../http/query';
import { ilikeAny, rethrowConstraint } from '../http/sql';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type LookupTable = PgTableWithColumns<any> & { id: AnyColumn; name: AnyColumn };

export interface LookupList {
  type: LookupType;
  table: LookupTable;
  /** Indications carry isActive. */
  withActive?: boolean;
  /** The schema of a POST, when the list accepts new entries. */
  input?: v.GenericSchema<unknown, { name: string; isActive?: boolean }>;
}

export const LOOKUP_LISTS: LookupList[] = [
  { type: LOOKUP_TYPES.campaignTypes, table: campaignTypes as LookupTable },
  { type: LOOKUP_TYPES.roles, table: roles as LookupTable },
  { type: LOOKUP_TYPES.questionCategories, table: questionCategories as LookupTable },
  { type: LOOKUP_TYPES.targetGroups, table: targetGroups as LookupTable },
  { type: LOOKUP_TYPES.therapeuticAreas, table: therapeuticAreas as LookupTable },
  { type: LOOKUP_TYPES.indications, table: indications as LookupTable, withActive: true, input: IndicationInput },
  { type: LOOKUP_TYPES.tags, table: tags as LookupTable, input: TagInput },
];

/** A lookup list's filters: the search, and the active switch on a list whose entries have one. */
export type LookupFilters = Partial<typeof SEARCH_AND_ACTIVE>;

export function lookupPage(db: Db, { table }: LookupList, q: ListQuery<(typeof LOOKUP_SORTS)[number], LookupFilters>) {
  const { isActive } = q.filters;
  const where = and(ilikeAny([table.name], q.filters.searchQuery), isActive !== undefined ? eq(table.isActive as AnyColumn, isActive) : undefined);
  return tablePage(db, table, q, { where, sorts: { name: table.name, id: table.id }, id: table.id });
}

export async function findLookupEntry(db: Db, { table }: LookupList, id: number | null) {
  const [row] = id === null ? [] : ((await db.select().from(table).where(eq(table.id, id))) as Record<string, unknown>[]);
  return row;
}

/** The new entry; a name the list already has is a conflict. */
export async function addLookupEntry(db: Db, { table }: LookupList, values: { name: string; isActive?: boolean }) {
  const [row] = (await db
    .insert(table)
    .values(values)
    .returning()
    .catch((error: unknown) => rethrowConstraint(error, { unique: () => new Conflict(LOOKUP_NAME_TAKEN, '/data/attributes/name') }))) as Record<
    string,
    unknown
  >[];
  return row as Record<string, unknown>;
}
