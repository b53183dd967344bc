/**
 * Which screeners a member of staff may see: those of the sponsors they may see. Everything
 * hanging off a screener (its media channels, contact fields, surveys) is read through here,
 * and only a screener that is not locked may be changed.
 */
import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import { SCREENER_LOCKED } from '@core/model/screener';
import type { AuthUser } from '../context';
import type { Db } from '../db/open';
import { rowWithId } from '../db/rows';
import { screeners, sponsors } from '../db/schema';
import { sponsorScope } from '../auth/guards';
import { Conflict, NotFound } from '../errors';

export const screenerScope = (user: AuthUser): SQL | undefined => {
  const scope = sponsorScope(user);
  if (scope === null) return undefined;
  return scope.length ? inArray(screeners.sponsorId, scope) : sql`false`;
};

/** A screener with its sponsor's name, as every screener route reads it. */
export const screenerColumns = {
  id: screeners.id,
  title: screeners.title,
  description: screeners.description,
  sponsorId: screeners.sponsorId,
  sponsorName: sponsors.name,
  userId: screeners.userId,
  screenerType: screeners.screenerType,
  isActive: screeners.isActive,
  isLocked: screeners.isLocked,
  isTest: screeners.isTest,
  isInterestVisible: screeners.isInterestVisible,
  translations: screeners.translations,
  styles: screeners.styles,
  clonedFromId: screeners.clonedFromId,
  created: screeners.created,
  modified: screeners.modified,
};
export type ScreenerRow = {
  [K in keyof typeof screenerColumns]: (typeof screenerColumns)[K]['_']['notNull'] extends true
    ? (typeof screenerColumns)[K]['_']['data']
    : (typeof screenerColumns)[K]['_']['data'] | null;
};

export const selectScreeners = (db: Db) => db.select(screenerColumns).from(screeners).innerJoin(sponsors, eq(sponsors.id, screeners.sponsorId));

export async function findScreener(db: Db, id: number | null, user: AuthUser): Promise<ScreenerRow | undefined> {
  return (await rowWithId(selectScreeners(db), screeners.id, id, screenerScope(user))) as ScreenerRow | undefined;
}

export const lockedProblem = () => new Conflict(SCREENER_LOCKED, undefined, { meta: { code: 'screener_locked' } });

/** A screener the user may see and that is not locked (else 404 or 409). */
export async function editableScreener(db: Db, id: number | null, user: AuthUser): Promise<ScreenerRow> {
  const row = await findScreener(db, id, user);
  if (!row) throw new NotFound('screener');
  if (row.isLocked) throw lockedProblem();
  return row;
}
