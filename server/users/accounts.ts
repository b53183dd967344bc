/**
 * User management (Admin or Super User): the list's query, create and update with their role and
 * sponsor assignments, the e-mail check, and the two-factor reset. The last active Super User
 * cannot be removed: every role or activity change holds the Super User role's row and is
 * rolled back when none would be left.
 */
import { and, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Relationship } from '@core/jsonapi';
import { ROLE_TYPE, type RoleName, type USER_SORTS, type UserInput, type UserPatch } from '@core/model/user';
import type * as v from 'valibot';
import { SPONSOR_TYPE } from '@core/model/sponsor';
import { chooseFromList } from '@core/validation/chooseFromList';
import type { Db } from '../db/open';
import { roles, sponsors, userRoles, userSponsors, users } from '../db/schema';
import type { AuthUser } from '../context';
import { hasAnyRole } from '../auth/guards';
import { hashPassword } from '../auth/passwords';
import { rolesOfUsers, sponsorsOfUsers, type UserLink } from '../auth/users';
import { revokeUserTokens } from '../auth/tokens';
import { Conflict, DomainError, Forbidden, Invalid } from '../errors';
import { parseId, type ListQuery } from '../http/query';
import { ilikeAny, rethrowConstraint, valueTakenIgnoringCase } from '../http/sql';
import type { SEARCH_AND_ACTIVE } from '../http/params';
import { tablePage } from '../http/list';
import { insertedRow } from '../db/rows';

export const USER_MESSAGES = {
  usernameTaken: 'This username is already in use.',
  emailTaken: 'This e-mail address is already in use.',
  rolesRequired: 'Choose at least one role.',
  unknownRole: chooseFromList('roles'),
  unknownSponsor: chooseFromList('sponsors'),
  lastSuperUser: 'There must always be at least one active Super User: make another user a Super User first.',
  deactivateSelf: 'You cannot deactivate your own account.',
  superUserOnly: 'Only a Super User can grant or remove the Super User role.',
  currentPasswordWrong: 'Your current password is not correct.',
  samePassword: 'Choose a password different from your current one.',
  totpAlreadyOn: 'Two-factor sign-in is already on. Ask an Administrator to reset it to enrol another device.',
  totpNotStarted: 'Start the two-factor set-up first.',
  totpCodeInvalid: 'The code is not valid. Check your authenticator app and try again.',
  locked: 'Too many failed attempts. Try again in a few minutes.',
} as const;

const sortColumns = {
  username: sql`lower(${users.username})`,
  email: sql`lower(${users.email})`,
  isActive: users.isActive,
  created: users.created,
  modified: users.modified,
};

/** One page of users, with their roles and sponsors when the list includes them. */
export async function listUsers(db: Db, q: ListQuery<(typeof USER_SORTS)[number], typeof SEARCH_AND_ACTIVE>) {
  const isActive = q.filters.isActive;
  const conditions: (SQL | undefined)[] = [ilikeAny([users.username, users.email], q.filters.searchQuery)];
  if (isActive !== undefined) conditions.push(eq(users.isActive, isActive));
  const where = and(...conditions);
  const { rows, total } = await tablePage(db, users, q, { where, sorts: sortColumns, id: users.id });
  const ids = rows.map((r) => r.id);
  const links: { roles?: UserLink[]; sponsors?: UserLink[] } = {};
  if (q.include.has('roles') && ids.length) links.roles = await rolesOfUsers(db, ids);
  if (q.include.has('sponsors') && ids.length) links.sponsors = await sponsorsOfUsers(db, ids);
  return { rows, total, links };
}

/** Ids named by a to-many relationship, checked against `table`; undefined when not sent. */
async function relationshipIds(
  db: Db,
  relationships: Record<string, Relationship>,
  name: 'roles' | 'sponsors',
  message: string,
): Promise<number[] | undefined> {
  const rel = relationships[name];
  if (rel === undefined) return undefined;
  const pointer = `/data/relationships/${name}`;
  const type = name === 'roles' ? ROLE_TYPE : SPONSOR_TYPE;
  if (!Array.isArray(rel.data)) throw new Invalid([{ pointer, detail: `'${name}' must be a list of ${type}.` }]);
  const ids: number[] = [];
  for (const [index, ref] of rel.data.entries()) {
    const id = parseId(ref.id);
    if (ref.type !== type || id === null) throw new Invalid([{ pointer: `${pointer}/data/${index}`, detail: message }]);
    if (!ids.includes(id)) ids.push(id);
  }
  if (ids.length > 0) {
    const table = name === 'roles' ? roles : sponsors;
    const found = await db.select({ id: table.id }).from(table).where(inArray(table.id, ids));
    if (found.length !== ids.length) throw new Invalid([{ pointer, detail: message }]);
  }
  return ids;
}

async function roleIdsByName(db: Db): Promise<Map<RoleName, number>> {
  const rows = await db.select().from(roles);
  return new Map(rows.map((r) => [r.name as RoleName, r.id]));
}

/** Refuses an address another user (other than `exceptId`) already has. */
/** Whether a user other than `exceptId` has this e-mail address (case aside, as the unique index reads it). */
export const emailInUse = (db: Db, email: string, exceptId?: number) => valueTakenIgnoringCase(db, users.email, users.id, email, exceptId);

export async function assertEmailFree(db: Db, email: string | null | undefined, exceptId?: number) {
  if (email && (await emailInUse(db, email, exceptId))) throw new Conflict(USER_MESSAGES.emailTaken, '/data/attributes/email');
}

/** A concurrent write can still hit a unique index after the checks: same answers. */
const onConstraint = (error: unknown): never =>
  rethrowConstraint(error, {
    unique: (constraint) =>
      constraint?.includes('email')
        ? new Conflict(USER_MESSAGES.emailTaken, '/data/attributes/email')
        : new Conflict(USER_MESSAGES.usernameTaken, '/data/attributes/username'),
    foreignKey: () => new Invalid([{ pointer: '/data/relationships', detail: USER_MESSAGES.unknownSponsor }]),
  });

/**
 * Inside a write: holds the Super User role's row so concurrent changes queue up, and after
 * the change refuses (rolling it back) when no active Super User would be left.
 */
async function lockSuperUsers(tx: Db, superUserRoleId: number) {
  await tx.execute(sql`select id from ${roles} where ${roles.id} = ${superUserRoleId} for update`);
}
async function assertActiveSuperUserLeft(tx: Db, superUserRoleId: number) {
  const [left] = await tx
    .select({ n: count() })
    .from(userRoles)
    .innerJoin(users, eq(users.id, userRoles.userId))
    .where(and(eq(userRoles.roleId, superUserRoleId), eq(users.isActive, true)));
  if ((left?.n ?? 0) === 0) throw new Conflict(USER_MESSAGES.lastSuperUser);
}

/** A user's row, or undefined. */
export async function findUser(db: Db, id: number) {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

/** Creates a user with an initial password (to be replaced at first sign-in); answers the id. */
export async function createUser(
  db: Db,
  me: AuthUser,
  attributes: v.InferOutput<typeof UserInput>,
  relationships: Record<string, Relationship>,
): Promise<number> {
  const roleIds = await relationshipIds(db, relationships, 'roles', USER_MESSAGES.unknownRole);
  if (!roleIds?.length) throw new Invalid([{ pointer: '/data/relationships/roles', detail: USER_MESSAGES.rolesRequired }]);
  const sponsorIds = (await relationshipIds(db, relationships, 'sponsors', USER_MESSAGES.unknownSponsor)) ?? [];
  const superUserId = (await roleIdsByName(db)).get('Super User');
  if (superUserId !== undefined && roleIds.includes(superUserId) && !hasAnyRole(me, ['Super User'])) {
    throw new Forbidden(USER_MESSAGES.superUserOnly);
  }
  const [taken] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.username}) = lower(${attributes.username})`);
  if (taken) throw new Conflict(USER_MESSAGES.usernameTaken, '/data/attributes/username');
  await assertEmailFree(db, attributes.email);

  const { password, ...values } = attributes;
  const passwordHash = await hashPassword(password);
  return db
    .transaction(async (tx) => {
      const created = await insertedRow(
        tx
          .insert(users)
          .values({ ...values, passwordHash, mustChangePassword: true })
          .returning({ id: users.id }),
      );
      await tx.insert(userRoles).values(roleIds.map((roleId) => ({ userId: created.id, roleId })));
      if (sponsorIds.length) await tx.insert(userSponsors).values(sponsorIds.map((sponsorId) => ({ userId: created.id, sponsorId })));
      return created.id;
    })
    .catch(onConstraint);
}

/**
 * Updates a user's attributes and, when sent, their roles and sponsors. A new password set by an
 * Admin is an initial one again; a new password or a deactivation ends the user's sessions.
 */
export async function updateUser(
  db: Db,
  me: AuthUser,
  existing: NonNullable<Awaited<ReturnType<typeof findUser>>>,
  attributes: v.InferOutput<typeof UserPatch>,
  relationships: Record<string, Relationship>,
): Promise<void> {
  const id = existing.id;
  const roleIds = await relationshipIds(db, relationships, 'roles', USER_MESSAGES.unknownRole);
  if (roleIds !== undefined && roleIds.length === 0) {
    throw new Invalid([{ pointer: '/data/relationships/roles', detail: USER_MESSAGES.rolesRequired }]);
  }
  const sponsorIds = await relationshipIds(db, relationships, 'sponsors', USER_MESSAGES.unknownSponsor);
  if (id === me.id && attributes.isActive === false) {
    throw new Invalid([{ pointer: '/data/attributes/isActive', detail: USER_MESSAGES.deactivateSelf }]);
  }
  const superUserId = (await roleIdsByName(db)).get('Super User') ?? -1;
  if (roleIds !== undefined && !hasAnyRole(me, ['Super User'])) {
    const [held] = await db
      .select({ n: count() })
      .from(userRoles)
      .where(and(eq(userRoles.userId, id), eq(userRoles.roleId, superUserId)));
    if (roleIds.includes(superUserId) !== (held?.n ?? 0) > 0) throw new Forbidden(USER_MESSAGES.superUserOnly);
  }
  await assertEmailFree(db, attributes.email, id);

  const { password, ...values } = attributes;
  const changes: Partial<typeof users.$inferInsert> = { ...values };
  if (password !== undefined) {
    // An Admin's new password is an initial one again: the user must replace it.
    changes.passwordHash = await hashPassword(password);
    changes.mustChangePassword = true;
  }
  const endSessions = password !== undefined || (values.isActive === false && existing.isActive);
  await db
    .transaction(async (tx) => {
      await lockSuperUsers(tx, superUserId);
      if (Object.keys(changes).length > 0) {
        await tx
          .update(users)
          .set({ ...changes, modified: sql`now()` })
          .where(eq(users.id, id));
      }
      if (roleIds !== undefined) {
        await tx.delete(userRoles).where(eq(userRoles.userId, id));
        await tx.insert(userRoles).values(roleIds.map((roleId) => ({ userId: id, roleId })));
      }
      if (sponsorIds !== undefined) {
        await tx.delete(userSponsors).where(eq(userSponsors.userId, id));
        if (sponsorIds.length) await tx.insert(userSponsors).values(sponsorIds.map((sponsorId) => ({ userId: id, sponsorId })));
      }
      await assertActiveSuperUserLeft(tx, superUserId);
      if (endSessions) await revokeUserTokens(tx, id);
    })
    .catch((error: unknown) => {
      if (error instanceof DomainError) throw error;
      onConstraint(error);
    });
}

/** Turns a user's two-factor off (they can enrol again); false when there is no such user. */
export async function resetTwoFactor(db: Db, id: number): Promise<boolean> {
  const updated = await db
    .update(users)
    .set({ totpSecret: null, secretVerified: false, totpLastStep: null, modified: sql`now()` })
    .where(eq(users.id, id))
    .returning({ id: users.id });
  return updated.length > 0;
}
