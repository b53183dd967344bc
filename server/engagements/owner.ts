/**
 * An engagement's owner: the staff member answerable for it, whom its overdue messages reach.
 * Only an active Admin, Super User or User may own one; the creator owns a new engagement
 * unless another owner is named.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { ENGAGEMENT_OWNER_ROLES } from '@core/model/engagement';
import { chooseFromList } from '@core/validation/chooseFromList';
import type { Db } from '../db/open';
import { roles, userRoles, users } from '../db/schema';
import { Invalid } from '../errors';

export const UNKNOWN_OWNER = chooseFromList('an active Admin, Super User or User');

/** Refuses (422) an owner who is not an active Admin, Super User or User; nothing when none is named. */
export async function assertOwner(db: Db, ownerUserId: number | null | undefined): Promise<void> {
  if (ownerUserId === null || ownerUserId === undefined) return;
  const [found] = await db
    .select({ id: users.id })
    .from(users)
    .innerJoin(userRoles, eq(userRoles.userId, users.id))
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(and(eq(users.id, ownerUserId), eq(users.isActive, true), inArray(roles.name, [...ENGAGEMENT_OWNER_ROLES])))
    .limit(1);
  if (!found) throw new Invalid([{ pointer: '/data/attributes/ownerUserId', detail: UNKNOWN_OWNER }]);
}
