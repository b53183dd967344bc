/**
 * Which engagements a member of staff may see: all for Admin and Super User, else those of
 * their sponsors. Everything hanging off an engagement (files, site links, referral counts)
 * goes through here, and answers 404 outside the scope.
 */
import { inArray, sql, type SQL } from 'drizzle-orm';
import type { AuthUser } from '../context';
import type { Db } from '../db/open';
import { rowWithId } from '../db/rows';
import { engagements } from '../db/schema';
import { sponsorScope } from '../auth/guards';
import { chooseFromList } from '@core/validation/chooseFromList';

/** A create or update naming an engagement outside the user's reach (or none that exists). */
export const UNKNOWN_ENGAGEMENT = chooseFromList('an engagement');

export const engagementScope = (user: AuthUser): SQL | undefined => {
  const scope = sponsorScope(user);
  if (scope === null) return undefined;
  return scope.length ? inArray(engagements.sponsorId, scope) : sql`false`;
};

export async function findAccessibleEngagement(db: Db, id: number | null, user: AuthUser) {
  const fields = { id: engagements.id, sponsorId: engagements.sponsorId, radius: engagements.radius };
  return rowWithId(db.select(fields).from(engagements), engagements.id, id, engagementScope(user));
}
