/**
 * The rows of files attached to engagements, in the user's engagement scope: a page of them, one,
 * and a file's row added and removed (its bytes live in the file storage, under the row's key).
 */
import { and, eq, type SQL } from 'drizzle-orm';
import { ENGAGEMENT_FILE_SORTS } from '@core/model/engagementFile';
import type { AuthUser } from '../context';
import type { Db } from '../db/open';
import { rowWithId } from '../db/rows';
import { engagementFiles, engagements } from '../db/schema';
import { countOf, joinedPage, sortColumnsOf } from '../http/list';
import { idParam } from '../http/params';
import type { ListQuery } from '../http/query';
import { engagementScope } from './access';

const columns = {
  id: engagementFiles.id,
  engagementId: engagementFiles.engagementId,
  filename: engagementFiles.filename,
  mime: engagementFiles.mime,
  size: engagementFiles.size,
  storageKey: engagementFiles.storageKey,
  created: engagementFiles.created,
};
const sortColumns = sortColumnsOf(engagementFiles, ENGAGEMENT_FILE_SORTS);
export type EngagementFileRow = { id: number; engagementId: number; filename: string; mime: string; size: number; storageKey: string; created: Date };

const selectFiles = (db: Db) => db.select(columns).from(engagementFiles).innerJoin(engagements, eq(engagements.id, engagementFiles.engagementId));

/** The list's filters: one engagement's files. */
export const ENGAGEMENT_FILE_FILTERS = { engagementId: idParam('engagement') };

/** A page of the files the user may see, of one engagement when given. */
export function engagementFilePage(db: Db, user: AuthUser, q: ListQuery<(typeof ENGAGEMENT_FILE_SORTS)[number], typeof ENGAGEMENT_FILE_FILTERS>) {
  const { engagementId } = q.filters;
  const conditions: (SQL | undefined)[] = [engagementScope(user)];
  if (engagementId !== undefined) conditions.push(eq(engagementFiles.engagementId, engagementId));
  const where = and(...conditions);
  const counted = countOf(db, engagementFiles).innerJoin(engagements, eq(engagements.id, engagementFiles.engagementId)).$dynamic();
  return joinedPage(selectFiles(db).$dynamic(), counted, q, { where, sorts: sortColumns, id: engagementFiles.id });
}

export async function findEngagementFile(db: Db, id: number | null, user: AuthUser): Promise<EngagementFileRow | undefined> {
  return rowWithId(selectFiles(db), engagementFiles.id, id, engagementScope(user));
}

export async function addEngagementFile(db: Db, values: Omit<typeof engagementFiles.$inferInsert, 'id' | 'created'>): Promise<EngagementFileRow> {
  const [row] = await db.insert(engagementFiles).values(values).returning(columns);
  return row as EngagementFileRow;
}

export async function removeEngagementFile(db: Db, id: number) {
  await db.delete(engagementFiles).where(eq(engagementFiles.id, id));
}
