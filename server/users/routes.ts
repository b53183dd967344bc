/**
 * Users (SPEC sections 3, 6, 7): the current user and their own password and two-factor
 * enrolment (everyone signed in), and user management (Admin or Super User): list, read,
 * create with an initial password, update, e-mail check, two-factor reset.
 */
import { Hono, type Context } from 'hono';
import { and, asc, count, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import * as v from 'valibot';
import type { Relationship, Resource } from '@core/jsonapi';
import { toFieldIssues } from '@core/model/fields';
import {
  ChangePasswordInput,
  ROLE_TYPE,
  TotpCodeInput,
  USER_DEFAULT_SORT,
  USER_SORTS,
  USER_TYPE,
  UserInput,
  UserPatch,
  ValidateEmailInput,
  type RoleName,
  type User,
} from '@core/model/user';
import { SPONSOR_TYPE } from '@core/model/sponsor';
import { message as formMessage } from '@core/validation/messages';
import { isEmail } from '@core/validation/rules';
import { nowOf, type AppEnv, type Deps } from '../context';
import type { Db } from '../db/open';
import { roles, sponsors, userRoles, userSponsors, users } from '../db/schema';
import { STAFF_ADMIN_ROLES, authenticate, hasAnyRole, requireRole } from '../auth/guards';
import { lockedUntil, recordAttempt } from '../auth/lockout';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { revokeUserTokens, startSession } from '../auth/tokens';
import { generateTotpSecret, otpauthUri, verifyTotp } from '../auth/totp';
import { loadUser, userAttributes } from '../auth/users';
import { readJson, readResource } from '../http/body';
import { ApiProblem, conflict, forbidden, invalid, notFound, unauthorized } from '../http/errors';
import { parseId, parseListQuery, parseReadQuery, type ListSpec } from '../http/query';
import { sendDocument, sendList, sendResource, toResource } from '../http/serialize';
import { ilikeAny, parseBooleanFilter, rethrowConstraint } from '../http/sql';
import { tablePage } from '../http/list';
import { describe } from '../openapi/describe';
import { chooseFromList } from '@core/validation/chooseFromList';

export { USER_TYPE };
export const TOTP_TYPE = 'totp-enrolments';
/** The name authenticator apps show above the code. */
export const TOTP_ISSUER = 'Trial Recruit';

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

const ATTRIBUTES = [
  'username',
  'email',
  'isActive',
  'secretVerified',
  'locale',
  'identityProvider',
  'mustChangePassword',
  'created',
  'modified',
] as const;

const listSpec: ListSpec<(typeof USER_SORTS)[number], 'searchQuery' | 'isActive'> = {
  type: USER_TYPE,
  sorts: USER_SORTS,
  defaultSort: USER_DEFAULT_SORT,
  filters: ['searchQuery', 'isActive'],
  fields: ATTRIBUTES,
  includes: ['roles', 'sponsors'],
};

const sortColumns = {
  username: sql`lower(${users.username})`,
  email: sql`lower(${users.email})`,
  isActive: users.isActive,
  created: users.created,
  modified: users.modified,
};


/** A user as a JSON:API resource with its roles and sponsors included. */
export function userDocument(user: User) {
  const { roles: roleList, sponsors: sponsorList, id, ...attributes } = user;
  const data = toResource(USER_TYPE, id, attributes, {
    relationships: {
      roles: { data: roleList.map((r) => ({ type: ROLE_TYPE, id: r.id })) },
      sponsors: { data: sponsorList.map((s) => ({ type: SPONSOR_TYPE, id: s.id })) },
    },
  });
  const included = [
    ...roleList.map((r) => toResource(ROLE_TYPE, r.id, { name: r.name })),
    ...sponsorList.map((s) => toResource(SPONSOR_TYPE, s.id, { name: s.name })),
  ];
  return { data, included };
}

async function sendUser(c: Context, db: Db, id: number, status: 200 | 201 = 200, meta?: Record<string, unknown>) {
  const user = await loadUser(db, id);
  if (!user) throw notFound('user');
  const { row: _row, ...publicUser } = user;
  const doc = userDocument(publicUser);
  if (meta) return sendDocument(c, { data: doc.data, included: doc.included, meta }, status);
  return sendResource(c, doc.data, status, doc.included);
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
  if (!Array.isArray(rel.data)) throw invalid([{ pointer, detail: `'${name}' must be a list of ${type}.` }]);
  const ids: number[] = [];
  for (const [index, ref] of rel.data.entries()) {
    const id = parseId(ref.id);
    if (ref.type !== type || id === null) throw invalid([{ pointer: `${pointer}/data/${index}`, detail: message }]);
    if (!ids.includes(id)) ids.push(id);
  }
  if (ids.length > 0) {
    const table = name === 'roles' ? roles : sponsors;
    const found = await db.select({ id: table.id }).from(table).where(inArray(table.id, ids));
    if (found.length !== ids.length) throw invalid([{ pointer, detail: message }]);
  }
  return ids;
}

async function roleIdsByName(db: Db): Promise<Map<RoleName, number>> {
  const rows = await db.select().from(roles);
  return new Map(rows.map((r) => [r.name as RoleName, r.id]));
}

async function assertEmailFree(db: Db, email: string | null | undefined, exceptId?: number) {
  if (!email) return;
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = lower(${email})`, exceptId ? ne(users.id, exceptId) : undefined));
  if (taken) throw conflict(USER_MESSAGES.emailTaken, '/data/attributes/email');
}

/** A concurrent write can still hit a unique index after the checks: same answers. */
const onConstraint = (error: unknown): never =>
  rethrowConstraint(error, {
    unique: (constraint) => (constraint?.includes('email') ? conflict(USER_MESSAGES.emailTaken, '/data/attributes/email') : conflict(USER_MESSAGES.usernameTaken, '/data/attributes/username')),
    foreignKey: () => invalid([{ pointer: '/data/relationships', detail: USER_MESSAGES.unknownSponsor }]),
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
  if ((left?.n ?? 0) === 0) throw conflict(USER_MESSAGES.lastSuperUser);
}


const ValidateEmailBody = v.object({ data: ValidateEmailInput });

export function usersRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  const staffAdmin = requireRole(...STAFF_ADMIN_ROLES);
  app.use('*', authenticate(deps));

  // ---- the signed-in user -------------------------------------------------------------------

  app.get('/me', describe({ summary: 'The signed-in user' }), async (c) => sendUser(c, db, c.get('user').id));

  /** Changes the own password; ends every other session and answers fresh tokens in `meta`. */
  app.post('/me/password', describe({ summary: "Change one's own password", body: { resource: USER_TYPE, attributes: ChangePasswordInput }, answer: { resource: USER_TYPE } }), async (c) => {
    const me = c.get('user');
    const { attributes } = await readResource(c, ChangePasswordInput, { type: USER_TYPE });
    const now = nowOf(deps);
    if (await lockedUntil(db, me.username, now)) throw new ApiProblem(429, [{ status: '429', title: 'Too Many Requests', detail: USER_MESSAGES.locked }]);
    const [row] = await db.select().from(users).where(eq(users.id, me.id));
    if (!row) throw unauthorized();
    if (!row.passwordHash || !(await verifyPassword(attributes.currentPassword, row.passwordHash))) {
      await recordAttempt(db, me.username, false, null, now);
      throw invalid([{ pointer: '/data/attributes/currentPassword', detail: USER_MESSAGES.currentPasswordWrong }]);
    }
    if (attributes.password === attributes.currentPassword) {
      throw invalid([{ pointer: '/data/attributes/password', detail: USER_MESSAGES.samePassword }]);
    }
    const passwordHash = await hashPassword(attributes.password);
    await db.transaction(async (tx) => {
      await tx.update(users).set({ passwordHash, mustChangePassword: false, modified: sql`now()` }).where(eq(users.id, me.id));
      await revokeUserTokens(tx, me.id);
    });
    return sendUser(c, db, me.id, 200, await startSession(db, deps.jwtSecret, deps.config, me.id, now));
  });

  /** Starts (or restarts) two-factor enrolment: a new, unverified secret. */
  app.post('/me/totp', describe({ summary: 'Start two-factor enrolment (secret and QR code)', answer: { resource: null, status: 201 } }), async (c) => {
    const me = c.get('user');
    const secret = generateTotpSecret();
    const [updated] = await db
      .update(users)
      .set({ totpSecret: secret, secretVerified: false, totpLastStep: null, modified: sql`now()` })
      .where(and(eq(users.id, me.id), eq(users.secretVerified, false)))
      .returning({ id: users.id });
    if (!updated) throw conflict(USER_MESSAGES.totpAlreadyOn);
    return sendResource(
      c,
      toResource(TOTP_TYPE, me.id, { secret, otpauthUri: otpauthUri(me.username, TOTP_ISSUER, secret) }),
      201,
    );
  });

  /** Verifies the pending secret with a code from the app: from then on sign-in asks for a code. */
  app.post('/me/totp/verify', describe({ summary: 'Finish two-factor enrolment with a code', body: { resource: TOTP_TYPE, attributes: TotpCodeInput }, answer: { resource: TOTP_TYPE } }), async (c) => {
    const me = c.get('user');
    const { attributes } = await readResource(c, TotpCodeInput, { type: TOTP_TYPE });
    const [row] = await db.select().from(users).where(eq(users.id, me.id));
    if (!row) throw unauthorized();
    if (row.secretVerified) throw conflict(USER_MESSAGES.totpAlreadyOn);
    if (!row.totpSecret) throw conflict(USER_MESSAGES.totpNotStarted);
    const step = verifyTotp(attributes.code, row.totpSecret, nowOf(deps));
    if (step === null) throw invalid([{ pointer: '/data/attributes/code', detail: USER_MESSAGES.totpCodeInvalid }]);
    // Only the secret that was checked, and only once: a restart in between makes this miss.
    const [verified] = await db
      .update(users)
      .set({ secretVerified: true, totpLastStep: step, modified: sql`now()` })
      .where(and(eq(users.id, me.id), eq(users.totpSecret, row.totpSecret), eq(users.secretVerified, false)))
      .returning({ id: users.id });
    if (!verified) throw conflict(USER_MESSAGES.totpNotStarted);
    return sendUser(c, db, me.id);
  });

  // ---- user management (Admin or Super User) ------------------------------------------------

  app.get('/', describe({ summary: 'List users', list: listSpec, answer: { list: listSpec.type } }), staffAdmin, async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, listSpec);
    const isActive = parseBooleanFilter(q.filters.isActive, 'isActive');
    const conditions: (SQL | undefined)[] = [];
    if (q.filters.searchQuery?.trim()) conditions.push(ilikeAny([users.username, users.email], q.filters.searchQuery));
    if (isActive !== undefined) conditions.push(eq(users.isActive, isActive));
    const where = and(...conditions);
    const { rows, total } = await tablePage(db, users, q, { where, sorts: sortColumns, id: users.id });

    const ids = rows.map((r) => r.id);
    const included: Resource[] = [];
    const relationships = new Map<number, Record<string, Relationship>>(ids.map((id) => [id, {}]));
    if (q.include.has('roles') && ids.length) {
      const links = await db
        .select({ userId: userRoles.userId, id: roles.id, name: roles.name })
        .from(userRoles)
        .innerJoin(roles, eq(roles.id, userRoles.roleId))
        .where(inArray(userRoles.userId, ids))
        .orderBy(asc(roles.name));
      for (const id of ids) relationships.get(id)!.roles = { data: [] };
      const seen = new Set<number>();
      for (const link of links) {
        (relationships.get(link.userId)!.roles!.data as { type: string; id: string }[]).push({ type: ROLE_TYPE, id: String(link.id) });
        if (!seen.has(link.id)) included.push(toResource(ROLE_TYPE, link.id, { name: link.name }));
        seen.add(link.id);
      }
    }
    if (q.include.has('sponsors') && ids.length) {
      const links = await db
        .select({ userId: userSponsors.userId, id: sponsors.id, name: sponsors.name })
        .from(userSponsors)
        .innerJoin(sponsors, eq(sponsors.id, userSponsors.sponsorId))
        .where(inArray(userSponsors.userId, ids))
        .orderBy(asc(sponsors.name));
      for (const id of ids) relationships.get(id)!.sponsors = { data: [] };
      const seen = new Set<number>();
      for (const link of links) {
        (relationships.get(link.userId)!.sponsors!.data as { type: string; id: string }[]).push({ type: SPONSOR_TYPE, id: String(link.id) });
        if (!seen.has(link.id)) included.push(toResource(SPONSOR_TYPE, link.id, { name: link.name }));
        seen.add(link.id);
      }
    }
    const data = rows.map((row) => {
      const rel = relationships.get(row.id) ?? {};
      return toResource(USER_TYPE, row.id, userAttributes(row), {
        fields: q.fields,
        relationships: Object.keys(rel).length ? rel : undefined,
      });
    });
    return sendList(c, data, { total, page: q.page, limit: q.limit }, included);
  });

  /** `data.is_valid`: the address is well formed and no other user has it. */
  app.post('/validate-email', describe({
      summary: 'Check whether an e-mail address is free',
      body: { json: ValidateEmailBody },
      answer: {
        json: {
          type: 'object',
          required: ['data'],
          properties: { data: { type: 'object', required: ['is_valid'], properties: { is_valid: { type: 'boolean' }, message: { type: 'string', description: 'Why not, when it is not.' } } } },
        },
        mediaType: 'application/vnd.api+json',
        description: 'Whether the address is well formed and no other user has it.',
      },
    }), staffAdmin, async (c) => {
    const parsed = v.safeParse(ValidateEmailBody, await readJson(c));
    if (!parsed.success) throw invalid(toFieldIssues(parsed.issues, ''));
    const email = parsed.output.data.email.trim();
    const exceptId = parsed.output.data.id === undefined || parsed.output.data.id === null ? undefined : parseId(String(parsed.output.data.id)) ?? undefined;
    let message: string | null = null;
    if (!isEmail(email)) message = formMessage('email');
    else {
      try {
        await assertEmailFree(db, email, exceptId);
      } catch {
        message = USER_MESSAGES.emailTaken;
      }
    }
    return sendDocument(c, { data: { is_valid: message === null, ...(message ? { message } : {}) } });
  });

  app.get('/:id', describe({ summary: 'Read a user' }), staffAdmin, async (c) => {
    parseReadQuery(new URL(c.req.url).searchParams, { type: USER_TYPE, includes: ['roles', 'sponsors'], fields: [] });
    const id = parseId(c.req.param('id'));
    if (id === null) throw notFound('user');
    return sendUser(c, db, id);
  });

  app.post('/', describe({ summary: 'Create a user', body: { resource: USER_TYPE, attributes: UserInput }, answer: { resource: USER_TYPE, status: 201 } }), staffAdmin, async (c) => {
    const me = c.get('user');
    const { attributes, relationships } = await readResource(c, UserInput, { type: USER_TYPE });
    const roleIds = await relationshipIds(db, relationships, 'roles', USER_MESSAGES.unknownRole);
    if (!roleIds?.length) throw invalid([{ pointer: '/data/relationships/roles', detail: USER_MESSAGES.rolesRequired }]);
    const sponsorIds = (await relationshipIds(db, relationships, 'sponsors', USER_MESSAGES.unknownSponsor)) ?? [];
    const superUserId = (await roleIdsByName(db)).get('Super User');
    if (superUserId !== undefined && roleIds.includes(superUserId) && !hasAnyRole(me, ['Super User'])) {
      throw forbidden(USER_MESSAGES.superUserOnly);
    }
    const [taken] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.username}) = lower(${attributes.username})`);
    if (taken) throw conflict(USER_MESSAGES.usernameTaken, '/data/attributes/username');
    await assertEmailFree(db, attributes.email);

    const { password, ...values } = attributes;
    const passwordHash = await hashPassword(password);
    const id = await db
      .transaction(async (tx) => {
        const [created] = await tx
          .insert(users)
          .values({ ...values, passwordHash, mustChangePassword: true })
          .returning({ id: users.id });
        if (!created) throw new Error('insert returned no row');
        await tx.insert(userRoles).values(roleIds.map((roleId) => ({ userId: created.id, roleId })));
        if (sponsorIds.length) await tx.insert(userSponsors).values(sponsorIds.map((sponsorId) => ({ userId: created.id, sponsorId })));
        return created.id;
      })
      .catch(onConstraint);
    return sendUser(c, db, id, 201);
  });

  app.patch('/:id', describe({ summary: 'Update a user', body: { resource: USER_TYPE, attributes: UserPatch }, answer: { resource: USER_TYPE } }), staffAdmin, async (c) => {
    const me = c.get('user');
    const id = parseId(c.req.param('id'));
    const [existing] = id === null ? [] : await db.select().from(users).where(eq(users.id, id));
    if (!existing || id === null) throw notFound('user');
    const { attributes, relationships } = await readResource(c, UserPatch, { type: USER_TYPE, id });
    const roleIds = await relationshipIds(db, relationships, 'roles', USER_MESSAGES.unknownRole);
    if (roleIds !== undefined && roleIds.length === 0) {
      throw invalid([{ pointer: '/data/relationships/roles', detail: USER_MESSAGES.rolesRequired }]);
    }
    const sponsorIds = await relationshipIds(db, relationships, 'sponsors', USER_MESSAGES.unknownSponsor);
    if (id === me.id && attributes.isActive === false) {
      throw invalid([{ pointer: '/data/attributes/isActive', detail: USER_MESSAGES.deactivateSelf }]);
    }
    const superUserId = (await roleIdsByName(db)).get('Super User') ?? -1;
    if (roleIds !== undefined && !hasAnyRole(me, ['Super User'])) {
      const [held] = await db
        .select({ n: count() })
        .from(userRoles)
        .where(and(eq(userRoles.userId, id), eq(userRoles.roleId, superUserId)));
      if (roleIds.includes(superUserId) !== (held?.n ?? 0) > 0) throw forbidden(USER_MESSAGES.superUserOnly);
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
          await tx.update(users).set({ ...changes, modified: sql`now()` }).where(eq(users.id, id));
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
        if (error instanceof ApiProblem) throw error;
        onConstraint(error);
      });
    return sendUser(c, db, id);
  });

  /** Turns another user's two-factor off, e.g. after a lost phone; they can enrol again. */
  app.delete('/:id/totp', describe({ summary: "Reset a user's two-factor authentication", answer: { empty: true } }), staffAdmin, async (c) => {
    const id = parseId(c.req.param('id'));
    const updated =
      id === null
        ? []
        : await db
            .update(users)
            .set({ totpSecret: null, secretVerified: false, totpLastStep: null, modified: sql`now()` })
            .where(eq(users.id, id))
            .returning({ id: users.id });
    if (updated.length === 0) throw notFound('user');
    return c.body(null, 204);
  });

  return app;
}
