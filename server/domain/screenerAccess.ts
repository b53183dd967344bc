/**
 * Which screeners a member of staff may see: those of the sponsors they may see. Everything
 * hanging off a screener (its media channels, contact fields, surveys) is read through here.
 */
import { inArray, sql, type SQL } from 'drizzle-orm';
import type { AuthUser } from '../context';
import { screeners } from '../db/schema';
import { sponsorScope } from '../auth/guards';

export const screenerScope = (user: AuthUser): SQL | undefined => {
  const scope = sponsorScope(user);
  if (scope === null) return undefined;
  return scope.length ? inArray(screeners.sponsorId, scope) : sql`false`;
};
