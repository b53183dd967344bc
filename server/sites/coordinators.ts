/** Which Site Coordinators work which site locations: kept by Admins and Super Users on the site view. */
import { and, asc, eq } from 'drizzle-orm';
import { NOT_A_SITE_COORDINATOR, SITE_COORDINATOR } from '@core/model/user';
import type { Db } from '../db/open';
import { roles, siteLocations, userRoles, userSiteLocations, users } from '../db/schema';

export class CoordinatorRefused extends Error {
  readonly attribute: 'userId' | 'siteLocationId';
  constructor(attribute: 'userId' | 'siteLocationId', detail: string) {
    super(detail);
    this.attribute = attribute;
  }
}

export const UNKNOWN_SITE = 'Choose a site location from the list.';

export async function coordinatorsOf(db: Db, siteLocationId: number) {
  return db
    .select({ userId: users.id, username: users.username, email: users.email, isActive: users.isActive, siteLocationId: userSiteLocations.siteLocationId })
    .from(userSiteLocations)
    .innerJoin(users, eq(users.id, userSiteLocations.userId))
    .where(eq(userSiteLocations.siteLocationId, siteLocationId))
    .orderBy(asc(users.username));
}

/** Ties user `userId` (who must hold the role) to the site; tying them again changes nothing. */
export async function tieCoordinator(db: Db, userId: number, siteLocationId: number): Promise<void> {
  const [site] = await db.select({ id: siteLocations.id }).from(siteLocations).where(eq(siteLocations.id, siteLocationId));
  if (!site) throw new CoordinatorRefused('siteLocationId', UNKNOWN_SITE);
  const [holder] = await db
    .select({ id: userRoles.userId })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(and(eq(userRoles.userId, userId), eq(roles.name, SITE_COORDINATOR)));
  if (!holder) throw new CoordinatorRefused('userId', NOT_A_SITE_COORDINATOR);
  await db.insert(userSiteLocations).values({ userId, siteLocationId }).onConflictDoNothing();
}

/** Unties the coordinator from the site; false when they were not tied. */
export async function untieCoordinator(db: Db, userId: number, siteLocationId: number): Promise<boolean> {
  const gone = await db
    .delete(userSiteLocations)
    .where(and(eq(userSiteLocations.userId, userId), eq(userSiteLocations.siteLocationId, siteLocationId)))
    .returning({ userId: userSiteLocations.userId });
  return gone.length > 0;
}
