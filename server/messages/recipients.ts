/**
 * Who messages go to, and how a message's row names them: staff by their account, a participant
 * never by name.
 *
 * Staff messages go to active users with an e-mail address, each once.
 * - A referral's people: the site's Site Coordinators and the Users of the engagement's sponsor
 *   (its recruiters).
 * - The engagement's owner (engagements.owner_user_id: its creator unless staff chose another),
 *   the one to hear when its service level slips.
 */
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Conn } from '../db/open';
import { engagements, roles, userRoles, userSiteLocations, userSponsors, users } from '../db/schema';
import type { NewMessage } from './outbox';

export interface StaffRecipient {
  id: number;
  username: string;
  email: string;
  locale: string;
}

const COLUMNS = { id: users.id, username: users.username, email: users.email, locale: users.locale };
const reachable = and(eq(users.isActive, true), isNotNull(users.email));

function once(...groups: { id: number; username: string; email: string | null; locale: string }[][]): StaffRecipient[] {
  const seen = new Map<number, StaffRecipient>();
  for (const u of groups.flat()) if (u.email && u.email.trim() !== '' && !seen.has(u.id)) seen.set(u.id, { ...u, email: u.email });
  return [...seen.values()];
}

/** The site's coordinators and the sponsor's recruiters. */
export async function referralStaff(db: Conn, sponsorId: number, siteLocationId: number | null): Promise<StaffRecipient[]> {
  const coordinators =
    siteLocationId === null
      ? []
      : await db
          .select(COLUMNS)
          .from(userSiteLocations)
          .innerJoin(users, eq(users.id, userSiteLocations.userId))
          .where(and(eq(userSiteLocations.siteLocationId, siteLocationId), reachable));
  const recruiters = await db
    .select(COLUMNS)
    .from(userSponsors)
    .innerJoin(users, eq(users.id, userSponsors.userId))
    .innerJoin(userRoles, eq(userRoles.userId, users.id))
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(and(eq(userSponsors.sponsorId, sponsorId), inArray(roles.name, ['User']), reachable));
  return once(coordinators, recruiters);
}

/** The engagement's owner, when there is one still active with an address. */
export async function engagementOwner(db: Conn, engagementId: number): Promise<StaffRecipient[]> {
  return once(
    await db
      .select(COLUMNS)
      .from(engagements)
      .innerJoin(users, eq(users.id, engagements.ownerUserId))
      .where(and(eq(engagements.id, engagementId), reachable)),
  );
}

/** Several groups as one list, each person once. */
export const everyone = (...groups: StaffRecipient[][]) => once(...groups);

/** A message's recipient, as its row records them. */
export type Addressee = Pick<NewMessage, 'audience' | 'recipientUserId' | 'recipientLabel' | 'language' | 'to' | 'toMatch' | 'unsubscribeToken'>;

/** A member of staff, by their account and in their language; staff mail has no unsubscribe link. */
export const addressedToStaff = (person: StaffRecipient): Addressee => ({
  audience: 'staff',
  recipientUserId: person.id,
  recipientLabel: person.username,
  language: person.locale,
  to: person.email,
  toMatch: null,
  unsubscribeToken: null,
});

/** A participant: labelled only 'participant', so no list or log names them. */
export const addressedToParticipant = (address: Pick<NewMessage, 'language' | 'to' | 'toMatch' | 'unsubscribeToken'>): Addressee => ({
  audience: 'participant',
  recipientUserId: null,
  recipientLabel: 'participant',
  ...address,
});
