/**
 * Users (SPEC sections 3, 6, 7): the current user and their own password and two-factor
 * enrolment (everyone signed in), and user management (Admin or Super User): list, read,
 * create with an initial password, update, e-mail check, two-factor reset.
 */
import { Hono, type Context } from 'hono';
import * as v from 'valibot';
import type { Relationship, Resource } from '@core/jsonapi';
import { toFieldIssues } from '@core/model/fields';
import {
  ChangePasswordInput,
  ROLE_TYPE,
  TOTP_ENROLMENT,
  TOTP_TYPE,
  TotpCodeInput,
  USER,
  USER_DEFAULT_SORT,
  USER_SORTS,
  USER_TYPE,
  UserInput,
  UserPatch,
  ValidateEmailInput,
  type User,
} from '@core/model/user';
import { SPONSOR_TYPE } from '@core/model/sponsor';
import { message as formMessage } from '@core/validation/messages';
import { isEmail } from '@core/validation/rules';
import { nowOf, type AppEnv, type Deps } from '../context';
import type { Db } from '../db/open';
import { STAFF_ADMIN_ROLES, authenticate, requireRole } from '../auth/guards';
import { startSession } from '../auth/tokens';
import { otpauthUri } from '../auth/totp';
import { loadUser, userAttributes } from '../auth/users';
import { invalid, notFound } from '../http/errors';
import { parseId, parseListQuery, type ListSpec } from '../http/query';
import { rowAtPath } from '../http/pathRow';
import { memberRead } from '../http/memberRead';
import { answerList } from '../http/listAnswer';
import { SEARCH_AND_ACTIVE } from '../http/params';
import { sendDocument, sendResource, toResource } from '../http/serialize';
import { describe } from '../openapi/describe';
import { resourceCreation, resourceUpdate } from '../http/resourceWrites';
import { USER_MESSAGES, emailInUse, createUser, findUser, listUsers, resetTwoFactor, updateUser } from './accounts';
import { changeOwnPassword, startTwoFactor, verifyTwoFactor } from './ownAccount';

export { USER_TYPE, USER_MESSAGES };
/** The name authenticator apps show above the code. */
export const TOTP_ISSUER = 'Trial Recruit';

const listSpec: ListSpec<(typeof USER_SORTS)[number], typeof SEARCH_AND_ACTIVE> = {
  type: USER_TYPE,
  sorts: USER_SORTS,
  defaultSort: USER_DEFAULT_SORT,
  filters: SEARCH_AND_ACTIVE,
  fields: USER.names,
  includes: ['roles', 'sponsors'],
};

/** A user as a JSON:API resource with its roles and sponsors included. */
/** A user's read: its roles and sponsors may be included. */
const READ_SPEC = { type: USER_TYPE, includes: ['roles', 'sponsors'], fields: [] } as const;

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

/** A user's document (its roles and sponsors always included), or null when there is none. */
async function readUser(db: Db, id: number) {
  const user = await loadUser(db, id);
  if (!user) return null;
  const { row: _row, ...publicUser } = user;
  return userDocument(publicUser);
}

async function sendUser(c: Context, db: Db, id: number, status: 200 | 201 = 200, meta?: Record<string, unknown>) {
  const doc = await readUser(db, id);
  if (!doc) throw notFound('user');
  if (meta) return sendDocument(c, { data: doc.data, included: doc.included, meta }, status);
  return sendResource(c, doc.data, status, doc.included);
}

const ValidateEmailBody = v.object({ data: ValidateEmailInput });

type UserPage = Awaited<ReturnType<typeof listUsers>>;

/** A page of users as resources, with their roles and sponsors (when included) by name. */
function userResources(rows: UserPage['rows'], links: UserPage['links'], fields: Set<string> | null): { data: Resource[]; included: Resource[] } {
  const ids = rows.map((r) => r.id);
  const included: Resource[] = [];
  const relationships = new Map<number, Record<string, Relationship>>(ids.map((id) => [id, {}]));
  /** Each user's `name` relationship to the `type` rows `list` links, and each of those rows included once, by name. */
  const relate = (name: keyof UserPage['links'], type: string, list: UserPage['links'][typeof name]) => {
    if (!list) return;
    for (const id of ids) relationships.get(id)![name] = { data: [] };
    const seen = new Set<number>();
    for (const link of list) {
      (relationships.get(link.userId)![name]!.data as { type: string; id: string }[]).push({ type, id: String(link.id) });
      if (!seen.has(link.id)) included.push(toResource(type, link.id, { name: link.name }));
      seen.add(link.id);
    }
  };
  relate('roles', ROLE_TYPE, links.roles);
  relate('sponsors', SPONSOR_TYPE, links.sponsors);
  const data = rows.map((row) => {
    const rel = relationships.get(row.id) ?? {};
    return toResource(USER_TYPE, row.id, userAttributes(row), {
      fields,
      relationships: Object.keys(rel).length ? rel : undefined,
    });
  });
  return { data, included };
}

export function usersRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  const staffAdmin = requireRole(...STAFF_ADMIN_ROLES);
  app.use('*', authenticate(deps));

  // ---- the signed-in user -------------------------------------------------------------------

  app.get('/me', describe({ summary: 'The signed-in user', answer: { resource: USER } }), async (c) => sendUser(c, db, c.get('user').id));

  /** Changes the own password; ends every other session and answers fresh tokens in `meta`. */
  app.post('/me/password', describe(resourceUpdate("Change one's own password", USER, ChangePasswordInput)), async (c) => {
    const me = c.get('user');
    const { attributes } = await c.var.body.read();
    const now = nowOf(deps);
    await changeOwnPassword(db, me, attributes, now);
    return sendUser(c, db, me.id, 200, await startSession(db, deps.jwtSecret, deps.config, me.id, now));
  });

  /** Starts (or restarts) two-factor enrolment: a new, unverified secret. */
  app.post(
    '/me/totp',
    describe({ summary: 'Start two-factor enrolment (secret and QR code)', answer: { resource: TOTP_ENROLMENT, status: 201 } }),
    async (c) => {
      const me = c.get('user');
      const secret = await startTwoFactor(db, me);
      return sendResource(c, toResource(TOTP_TYPE, me.id, { secret, otpauthUri: otpauthUri(me.username, TOTP_ISSUER, secret) }), 201);
    },
  );

  /** Verifies the pending secret with a code from the app: from then on sign-in asks for a code. */
  app.post(
    '/me/totp/verify',
    describe({ summary: 'Finish two-factor enrolment with a code', body: { resource: TOTP_TYPE, attributes: TotpCodeInput }, answer: { resource: USER } }),
    async (c) => {
      const me = c.get('user');
      const { attributes } = await c.var.body.read();
      await verifyTwoFactor(db, me, attributes.code, nowOf(deps));
      return sendUser(c, db, me.id);
    },
  );

  // ---- user management (Admin or Super User) ------------------------------------------------

  app.get('/', describe({ summary: 'List users', list: listSpec, answer: { list: USER } }), staffAdmin, async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, listSpec);
    return answerList(c, q, async (window) => {
      const { rows, total, links } = await listUsers(db, { ...q, ...window });
      return { ...userResources(rows, links, q.fields), total };
    });
  });

  /** `data.is_valid`: the address is well formed and no other user has it. */
  app.post(
    '/validate-email',
    describe({
      summary: 'Check whether an e-mail address is free',
      body: { json: ValidateEmailBody },
      answer: {
        json: {
          type: 'object',
          required: ['data'],
          properties: {
            data: {
              type: 'object',
              required: ['is_valid'],
              properties: { is_valid: { type: 'boolean' }, message: { type: 'string', description: 'Why not, when it is not.' } },
            },
          },
        },
        mediaType: 'application/vnd.api+json',
        description: 'Whether the address is well formed and no other user has it.',
      },
    }),
    staffAdmin,
    async (c) => {
      const parsed = await c.var.body.read();
      if (!parsed.success) throw invalid(toFieldIssues(parsed.issues, ''));
      const email = parsed.output.data.email.trim();
      const exceptId =
        parsed.output.data.id === undefined || parsed.output.data.id === null ? undefined : (parseId(String(parsed.output.data.id)) ?? undefined);
      const message = !isEmail(email) ? formMessage('email') : (await emailInUse(db, email, exceptId)) ? USER_MESSAGES.emailTaken : null;
      return sendDocument(c, { data: { is_valid: message === null, ...(message ? { message } : {}) } });
    },
  );

  app.get(
    '/:id',
    describe({ summary: 'Read a user', read: READ_SPEC, answer: { resource: USER } }),
    staffAdmin,
    memberRead(READ_SPEC, 'user', (id) => readUser(db, id)),
  );

  app.post('/', describe(resourceCreation('Create a user', USER, UserInput)), staffAdmin, async (c) => {
    const me = c.get('user');
    const { attributes, relationships } = await c.var.body.read();
    const id = await createUser(db, me, attributes, relationships);
    return sendUser(c, db, id, 201);
  });

  app.patch('/:id', describe(resourceUpdate('Update a user', USER, UserPatch)), staffAdmin, async (c) => {
    const me = c.get('user');
    const { id, row: existing } = await rowAtPath(c, 'user', (id) => findUser(db, id));
    const { attributes, relationships } = await c.var.body.read({ id });
    await updateUser(db, me, existing, attributes, relationships);
    return sendUser(c, db, id);
  });

  /** Turns another user's two-factor off, e.g. after a lost phone; they can enrol again. */
  app.delete('/:id/totp', describe({ summary: "Reset a user's two-factor authentication", answer: { empty: true } }), staffAdmin, async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null || !(await resetTwoFactor(db, id))) throw notFound('user');
    return c.body(null, 204);
  });

  return app;
}
