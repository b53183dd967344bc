/**
 * Which referrals a member of staff may see and work, in one place for every referral route:
 * Admin and Super User all of them; a User those of their sponsors' engagements; a Site
 * Coordinator those sent to their site locations (either, for someone who holds both roles).
 * Leads and anything else that hangs off a site can adopt `siteScope` the same way.
 */
import { inArray, or, sql, type SQL } from 'drizzle-orm';
import { SITE_COORDINATOR } from '@core/model/user';
import type { AuthUser } from '../context';
import { engagementSiteLocations, engagements, referrals } from '../db/schema';
import { hasAnyRole, sponsorScope } from '../auth/guards';

/** The site locations a user may see the referrals of: null for all sites (Admin, Super User). */
export function siteScope(user: AuthUser): number[] | null {
  if (sponsorScope(user) === null) return null;
  return hasAnyRole(user, [SITE_COORDINATOR]) ? user.siteLocationIds : [];
}

/** SQL over `referrals` (nothing else need be joined): undefined for all. */
export function referralScope(user: AuthUser): SQL | undefined {
  const sponsors = sponsorScope(user);
  if (sponsors === null) return undefined;
  const sites = siteScope(user) ?? [];
  const bySponsor = sponsors.length
    ? sql`${referrals.engagementId} in (select ${engagements.id} from ${engagements} where ${inArray(engagements.sponsorId, sponsors)})`
    : undefined;
  const bySite = sites.length
    ? sql`${referrals.engagementSiteLocationId} in (select ${engagementSiteLocations.id} from ${engagementSiteLocations} where ${inArray(engagementSiteLocations.siteLocationId, sites)})`
    : undefined;
  return bySponsor || bySite ? or(bySponsor, bySite) : sql`false`;
}
