import { and, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { InferOutput } from 'valibot';
import { ROLE_NAMES, type RoleName, type User, type USER } from '@core/model/user';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/open';
import { roles, sponsors, userRoles, userSiteLocations, userSponsors, users } from '../db/schema';

const isRoleName = (name: string): name is RoleName => (ROLE_NAMES as readonly string[]).includes(name);

export type UserRow = typeof users.$inferSelect;

/** A user's own attributes as the API shows them (no password, secret or roles). */
export const userAttributes = (row: UserRow): InferOutput<(typeof USER)['attributes']> => ({
  username: row.username,
  email: row.email,
  isActive: row.isActive,
  secretVerified: row.secretVerified,
  locale: row.locale,
  identityProvider: row.identityProvider,
  mustChangePassword: row.mustChangePassword,
  created: row.created.toISOString(),
  modified: row.modified.toISOString(),
});

export async function findUserByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(sql`lower(${users.username}) = lower(${username})`);
  return row;
}

/** A role or sponsor linked to a user. */
export interface UserLink {
  userId: number;
  id: number;
  name: string;
}

type IdColumn = AnyPgColumn<{ data: number; notNull: true }>;

/** A link table from users (`link`: its user and linked columns) to the named rows of `linked`. */
interface UserLinkTables {
  readonly link: { readonly table: PgTable; readonly userId: IdColumn; readonly linkedId: IdColumn };
  readonly linked: { readonly table: PgTable; readonly id: IdColumn; readonly name: AnyPgColumn<{ data: string; notNull: true }> };
}

/** The rows these users are linked to through `link`, by name. */
const linkedToUsers = (db: Db, ids: number[], { link, linked }: UserLinkTables): Promise<UserLink[]> =>
  db
    .select({ userId: link.userId, id: linked.id, name: linked.name })
    .from(link.table)
    .innerJoin(linked.table, eq(linked.id, link.linkedId))
    .where(inArray(link.userId, ids))
    .orderBy(asc(linked.name));

/** The roles of these users, by name. */
export const rolesOfUsers = (db: Db, ids: number[]) =>
  linkedToUsers(db, ids, {
    link: { table: userRoles, userId: userRoles.userId, linkedId: userRoles.roleId },
    linked: { table: roles, id: roles.id, name: roles.name },
  });

/** The sponsors these users work for, by name. */
export const sponsorsOfUsers = (db: Db, ids: number[]) =>
  linkedToUsers(db, ids, {
    link: { table: userSponsors, userId: userSponsors.userId, linkedId: userSponsors.sponsorId },
    linked: { table: sponsors, id: sponsors.id, name: sponsors.name },
  });

/** A user with their roles and sponsors, as the API and the guards need them. */
export async function loadUser(db: Db, id: number): Promise<(User & { row: UserRow }) | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  if (!row) return null;
  const roleRows = await rolesOfUsers(db, [id]);
  const sponsorRows = await sponsorsOfUsers(db, [id]);
  const { created, modified, ...account } = userAttributes(row);
  return {
    row,
    id: String(row.id),
    ...account,
    roles: roleRows.filter((r) => isRoleName(r.name)).map((r) => ({ id: String(r.id), name: r.name as RoleName })),
    sponsors: sponsorRows.map((s) => ({ id: String(s.id), name: s.name })),
    created,
    modified,
  };
}

/** The site locations a Site Coordinator is tied to. */
export async function siteLocationsOf(db: Db, userId: number): Promise<number[]> {
  const rows = await db.select({ id: userSiteLocations.siteLocationId }).from(userSiteLocations).where(eq(userSiteLocations.userId, userId));
  return rows.map((r) => r.id);
}

/** The staff member a single sign-on answer names, matched by e-mail (nobody is created here). */
export async function findUserByEmail(db: Db, email: string): Promise<{ id: number; isActive: boolean } | undefined> {
  const [user] = await db.select({ id: users.id, isActive: users.isActive }).from(users).where(sql`lower(${users.email}) = ${email}`);
  return user;
}

/** Remembers which single sign-on service a user last signed in with. */
export async function noteIdentityProvider(db: Db, userId: number, provider: string): Promise<void> {
  await db.update(users).set({ identityProvider: provider }).where(eq(users.id, userId));
}

/**
 * Claims a two-factor code's time step for the user: checking and claiming in one statement makes
 * a code single-use. False when that step (or a later one) was used already.
 */
export async function claimTotpStep(db: Db, userId: number, step: number): Promise<boolean> {
  const claimed = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id });
  return claimed.length > 0;
}
