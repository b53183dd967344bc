/**
 * A survey version's row as staff read it (with its engagement and sponsor), found in the
 * user's sponsor scope or listed there a page at a time, and the lock every write to a version takes: approved versions never
 * change (SPEC section 4), so each write locks the version's row and refuses an approved one.
 */
import { and, eq, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { APPROVED_IMMUTABLE, type OFORM_SORTS } from '@core/model/surveyDoc';
import type { AuthUser } from '../context';
import type { Conn, Tx } from '../db/open';
import { rowWithId } from '../db/rows';
import { engagements, oForms, sponsors } from '../db/schema';
import { engagementScope } from '../engagements';
import { Conflict, NotFound } from '../errors';
import { booleanFilter, filterConditions, idFilter } from '../http/filters';
import { booleanParam, searchParam, textParam } from '../http/params';
import { countOf, joinedPage } from '../http/list';
import type { ListQuery } from '../http/query';
import { ilikeAny } from '../http/sql';

const formColumns = {
  id: oForms.id,
  identity: oForms.identity,
  version: oForms.version,
  title: oForms.title,
  isActive: oForms.isActive,
  isApproved: oForms.isApproved,
  approvedAt: oForms.approvedAt,
  engagementId: oForms.engagementId,
  engagementName: engagements.name,
  sponsorId: engagements.sponsorId,
  sponsorName: sponsors.name,
  containerCount: oForms.containerCount,
  created: oForms.created,
  modified: oForms.modified,
};

export type FormRow = {
  id: number;
  identity: string;
  version: number;
  title: string;
  isActive: boolean;
  isApproved: boolean;
  approvedAt: Date | null;
  engagementId: number;
  engagementName: string;
  sponsorId: number;
  sponsorName: string;
  containerCount: number;
  created: Date;
  modified: Date;
};

/** Versions with their engagement and sponsor: add the conditions (and the user's scope). */
export const selectForms = (db: Conn) =>
  db
    .select(formColumns)
    .from(oForms)
    .innerJoin(engagements, eq(engagements.id, oForms.engagementId))
    .innerJoin(sponsors, eq(sponsors.id, engagements.sponsorId));

/**
 * The version that stands for a survey identity where staff pick or read a survey by name: the
 * approved one (what participants get), else the latest. Null when the identity has no version.
 */
export const currentVersionId = (identity: SQLWrapper) =>
  sql<number | null>`(select cv.id from ${oForms} cv where cv.identity = ${identity} order by cv.is_approved desc, cv.version desc limit 1)`;

/** The naming columns of the current version (left-joined as `oForms`): null without a version. */
export const namingColumns = { title: oForms.title, version: oForms.version, isApproved: oForms.isApproved };

/** A version the user may reach, or undefined (another sponsor's answers as unknown). */
export async function findForm(db: Conn, id: number | null, user: AuthUser): Promise<FormRow | undefined> {
  return rowWithId(selectForms(db), oForms.id, id, engagementScope(user));
}

/**
 * Locks the version's row for the rest of the transaction (so an approval cannot slip in
 * between the check and the write) and refuses to touch an approved one; marks it modified.
 */
export async function lockEditable(tx: Tx, formId: number) {
  const [row] = await tx.select({ approvedAt: oForms.approvedAt }).from(oForms).where(eq(oForms.id, formId)).for('update');
  if (!row) throw new NotFound('survey');
  if (row.approvedAt !== null) throw new Conflict(APPROVED_IMMUTABLE);
  await tx.update(oForms).set({ modified: sql`now()` }).where(eq(oForms.id, formId));
}

const FORM_FILTERS = {
  engagementId: idFilter(oForms.engagementId, 'engagement'),
  sponsorId: idFilter(engagements.sponsorId, 'sponsor'),
  isActive: booleanFilter(oForms.isActive),
};
/** The versions list's filters: FORM_FILTERS, one survey's versions, only approved or current ones, the search. */
export const FORM_LIST_FILTERS = {
  ...FORM_FILTERS,
  identity: textParam("Only this survey's versions (its identity)."),
  approvedOnly: booleanParam,
  currentOnly: booleanParam,
  searchQuery: searchParam,
};
export type FormFilter = typeof FORM_LIST_FILTERS;

const formSortColumns = {
  title: oForms.title,
  version: oForms.version,
  isActive: oForms.isActive,
  isApproved: oForms.isApproved,
  engagementName: engagements.name,
  sponsorName: sponsors.name,
  created: oForms.created,
  modified: oForms.modified,
};

/** A page of the versions in the user's sponsor scope, filtered as the list asks. */
export function formPage(db: Conn, user: AuthUser, q: ListQuery<(typeof OFORM_SORTS)[number], FormFilter>) {
  const conditions: (SQL | undefined)[] = [engagementScope(user), ...filterConditions(q.filters, FORM_FILTERS)];
  if (q.filters.identity !== undefined) conditions.push(eq(oForms.identity, q.filters.identity));
  if (q.filters.approvedOnly) conditions.push(eq(oForms.isApproved, true));
  // One row per survey: the version that stands for it (for picking a survey by its title).
  if (q.filters.currentOnly) conditions.push(eq(oForms.id, currentVersionId(oForms.identity)));
  conditions.push(ilikeAny([oForms.title, oForms.identity, engagements.name, sponsors.name], q.filters.searchQuery));
  const where = and(...conditions);
  const counted = countOf(db, oForms)
    .innerJoin(engagements, eq(engagements.id, oForms.engagementId))
    .innerJoin(sponsors, eq(sponsors.id, engagements.sponsorId))
    .$dynamic();
  return joinedPage(selectForms(db).$dynamic(), counted, q, { where, sorts: formSortColumns, id: oForms.id });
}
