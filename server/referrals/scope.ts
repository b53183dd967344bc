/**
 * Which referrals a member of staff may see and work, in one place for every referral route
 * (and for anything else hanging off a site, such as leads): Admin and Super User all of them,
 * a User those of their sponsors' engagements.
 */
import { inArray, sql, type SQL } from 'drizzle-orm';
import type { AuthUser } from '../context';
import { engagements, referrals } from '../db/schema';
import { sponsorScope } from '../auth/guards';

/** SQL over `referrals` (the engagements table need not be joined): undefined for all. */
export function referralScope(user: AuthUser): SQL | undefined {
  const sponsors = sponsorScope(user);
  if (sponsors === null) return undefined;
  if (sponsors.length === 0) return sql`false`;
  return sql`${referrals.engagementId} in (select ${engagements.id} from ${engagements} where ${inArray(engagements.sponsorId, sponsors)})`;
}
