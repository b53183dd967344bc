/**
 * Staff sign-in, token refresh and sign-out (SPEC sections 4, 6, 7). These answer the SPEC's
 * `{success, access, refresh, data}` shape rather than JSON:API documents.
 */
import { Hono, type Context } from 'hono';
import * as v from 'valibot';
import { LoginInput, SsoServices } from '@core/model/user';
import { nowOf, type AppEnv, type Deps } from '../context';
import { choiceParam, parseParams, textParam } from '../http/params';
import { clientAddress } from '../http/clientAddress';
import { dummyPasswordHash, verifyPassword } from './passwords';
import { bearerToken } from './guards';
import { lockedUntil, recordAttempt } from './lockout';
import { issueAccessToken, revokeFamily, revokeRefreshToken, rotateRefreshToken, startSession, verifyAccessToken } from './tokens';
import { verifyTotp } from './totp';
import { claimTotpStep, findUserByUsername, loadUser, noteIdentityProvider } from './users';
import { claimHandoff } from './ssoHandoff';
import { recordAudit } from '../audit/trail';
import { describe, type JsonSchema } from '../openapi/describe';
import { jsonSchemaOf } from '../http/jsonSchema';

export const LOGIN_MESSAGES = {
  invalid: 'Invalid username or password.',
  inactive: 'Your account is inactive. Contact your Administrator.',
  codeNeeded: 'Enter the 6-digit code from your authenticator app.',
  codeInvalid: 'The code is not valid. Check your authenticator app and try again.',
  codeReused: 'This code has already been used. Wait for the next code and try again.',
  locked: (minutes: number) => `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  badRequest: 'Enter your username and password.',
  ssoUnavailable: (service: string) => `Single sign-on through '${service}' is not configured on this server.`,
  ssoIncomplete: 'Single sign-on did not complete. Sign in with DUO again.',
  sessionEnded: 'Your session has ended. Sign in again.',
} as const;

export const LOGOUT_MESSAGES = {
  needed: 'Send the refresh_token, or the access token as a Bearer, to sign out.',
} as const;

type Status = 200 | 400 | 401 | 415 | 422 | 429;
const answer = (c: Context, status: Status, body: object) => c.json(body, status);
const refused = (c: Context, status: Status, message: string, extra: Record<string, unknown> = {}) =>
  answer(c, status, { success: false, data: { message, ...extra } });

const LoginBody = v.object({ data: LoginInput });

/** What sign-in answers: plain JSON (not JSON:API), refusals included, as the admin's session code reads it. */
const REFUSAL: JsonSchema = {
  type: 'object',
  required: ['success', 'data'],
  properties: {
    success: { const: false },
    data: {
      type: 'object',
      required: ['message'],
      properties: { message: { type: 'string' }, secret_verified: { type: 'boolean', description: 'A two-factor code is needed (or was wrong).' } },
    },
    errors: { type: 'array', items: { type: 'object' }, description: "A 422's JSON:API-style error objects, each with its source.pointer." },
  },
};
const TOKENS = {
  access: { type: 'string', description: 'The access token: send it as a bearer token.' },
  refresh: { type: 'string', description: 'The refresh token, for POST /api/jwt/refresh.' },
};
const SIGNED_IN: JsonSchema = {
  type: 'object',
  description: 'Signed in; or, with success false and data.secret_verified, a two-factor code is needed.',
  oneOf: [
    {
      type: 'object',
      required: ['success', 'access', 'refresh', 'data'],
      properties: {
        success: { const: true },
        ...TOKENS,
        data: { type: 'object', required: ['user'], properties: { user: { type: 'object', description: 'The signed-in user, with roles and sponsors.' } } },
      },
    },
    REFUSAL,
  ],
};
const refusals = (statuses: Record<string, string>) => ({ schema: REFUSAL, statuses });
const RefreshBody = v.object({ refresh_token: v.pipe(v.string(), v.nonEmpty(), v.maxLength(512)) });
const LogoutBody = v.object({ refresh_token: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(512)))) });

/** Sign-in's one parameter: a single sign-on service to complete the sign-in of. */
const LOGIN_QUERY = {
  // SPEC's sign-in address carries t=a, so clients written to it send it; it selects nothing.
  t: choiceParam(['a'], 'The sign-in marker clients send (t=a); it changes nothing.'),
  auth_service: textParam("A single sign-on service's name: completes that sign-in (after its callback) instead."),
};

export function authRoutes(deps: Deps) {
  const { db, config } = deps;
  const app = new Hono<AppEnv>();

  const tokensFor = (userId: number, now: Date) => startSession(db, deps.jwtSecret, config, userId, now);

  /**
   * Every sign-in attempt counts for the lockout and goes into the audit trail: success, or the
   * reason it failed. A failure for an unknown username has no actor, only the name tried.
   */
  const attempt = async (c: Context, now: Date, username: string, userId: number | null, failure: string | null, via?: string) => {
    const address = clientAddress(c);
    await recordAttempt(db, username, failure === null, address, now);
    await recordAudit(db, {
      occurredAt: now,
      actor: failure === null && userId !== null ? { id: userId, username } : null,
      clientAddress: address,
      entity: 'users',
      entityId: userId,
      action: failure === null ? 'sign_in' : 'sign_in_failed',
      meta: { username, ...(failure ? { reason: failure } : {}), ...(via ? { via } : {}) },
    });
  };

  /** Back from the identity provider: the hand-off cookie left by the assertion consumer names the user. */
  const signInWithSso = async (c: Context, name: string) => {
    const service = config.ssoServices[name.toLowerCase()];
    if (!service) return refused(c, 400, LOGIN_MESSAGES.ssoUnavailable(name.slice(0, 40)));
    const now = nowOf(deps);
    const userId = await claimHandoff(c, db, service.name, now);
    const user = userId === null ? null : await loadUser(db, userId);
    if (!user || !user.isActive) return refused(c, 401, LOGIN_MESSAGES.ssoIncomplete);
    await noteIdentityProvider(db, user.row.id, service.name);
    await attempt(c, now, user.username, user.row.id, null, service.name);
    const { row: _row, ...publicUser } = user;
    return answer(c, 200, { success: true, ...(await tokensFor(user.row.id, now)), data: { user: { ...publicUser, identityProvider: service.name } } });
  };

  app.post(
    '/login',
    describe({
      summary: 'Sign in (username, password, and a two-factor code when enrolled)',
      access: 'public',
      query: LOGIN_QUERY,
      body: { json: LoginBody },
      answer: {
        json: SIGNED_IN,
        description: 'Signed in (tokens and the user), or a two-factor code is needed (success false, secret_verified true).',
        refusals: refusals({
          '401': 'Wrong username or password, an inactive user, or a wrong or reused two-factor code.',
          '422': 'The body is not a sign-in.',
          '429': 'Too many failed attempts: locked for a while (Retry-After).',
        }),
      },
    }),
    async (c) => {
      const { auth_service: authService } = parseParams(LOGIN_QUERY, (name) => c.req.query(name));
      if (authService !== undefined) return signInWithSso(c, authService);

      const parsed = await c.var.body.read();
      if (!parsed.success) {
        const issue = parsed.issues[0];
        const field = issue?.path?.map((p) => String(p.key)).join('/');
        return answer(c, 422, {
          success: false,
          data: { message: field === 'data/code' ? issue?.message : LOGIN_MESSAGES.badRequest },
          errors: parsed.issues.map((i) => ({
            status: '422',
            title: 'Invalid Attribute',
            detail: i.message,
            source: { pointer: `/${(i.path ?? []).map((p) => String(p.key)).join('/')}` },
          })),
        });
      }
      const { username, password, code } = parsed.output.data;

      const now = nowOf(deps);
      const until = await lockedUntil(db, username, now);
      if (until) {
        const minutes = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
        c.header('Retry-After', String(minutes * 60));
        return refused(c, 429, LOGIN_MESSAGES.locked(minutes));
      }

      const row = await findUserByUsername(db, username);
      const passwordOk = await verifyPassword(password, row?.passwordHash ?? (await dummyPasswordHash()));
      if (!row || !row.passwordHash || !passwordOk) {
        await attempt(c, now, username, null, 'invalid_credentials');
        return refused(c, 401, LOGIN_MESSAGES.invalid);
      }
      if (!row.isActive) {
        await attempt(c, now, username, row.id, 'inactive');
        return refused(c, 401, LOGIN_MESSAGES.inactive);
      }

      if (row.secretVerified && row.totpSecret) {
        if (!code) return refused(c, 200, LOGIN_MESSAGES.codeNeeded, { secret_verified: true });
        const step = verifyTotp(code, row.totpSecret, now);
        if (step === null) {
          await attempt(c, now, username, row.id, 'code_invalid');
          return refused(c, 401, LOGIN_MESSAGES.codeInvalid, { secret_verified: true });
        }
        if (!(await claimTotpStep(db, row.id, step))) {
          await attempt(c, now, username, row.id, 'code_reused');
          return refused(c, 401, LOGIN_MESSAGES.codeReused, { secret_verified: true });
        }
      }

      await attempt(c, now, row.username, row.id, null);
      const user = await loadUser(db, row.id);
      if (!user) return refused(c, 401, LOGIN_MESSAGES.invalid);
      const { row: _row, ...publicUser } = user;
      return answer(c, 200, { success: true, ...(await tokensFor(row.id, now)), data: { user: publicUser } });
    },
  );

  app.post(
    '/refresh',
    describe({
      summary: 'Trade a refresh token for new tokens',
      access: 'public',
      body: { json: RefreshBody },
      answer: {
        json: { type: 'object', required: ['success', 'access', 'refresh'], properties: { success: { const: true }, ...TOKENS } },
        description: 'New tokens; the refresh token sent is used up.',
        refusals: refusals({ '401': 'The session has ended (a used, revoked or expired refresh token, or an inactive user).', '422': 'No refresh_token.' }),
      },
    }),
    async (c) => {
      const parsed = await c.var.body.read();
      if (!parsed.success) return refused(c, 422, 'Send the refresh_token to renew the session.');
      const now = nowOf(deps);
      const result = await rotateRefreshToken(db, parsed.output.refresh_token, config.session, now);
      if (!result.ok) return refused(c, 401, LOGIN_MESSAGES.sessionEnded);
      const user = await loadUser(db, result.userId);
      if (!user?.isActive) return refused(c, 401, LOGIN_MESSAGES.sessionEnded);
      const access = await issueAccessToken(deps.jwtSecret, result.userId, result.sessionId, config.accessTokenTtlSeconds, now);
      return answer(c, 200, { success: true, access, refresh: result.refresh });
    },
  );

  /**
   * Ends one sign-in: the one the refresh token belongs to, or else the one of the bearer access
   * token. Success means a sign-in of this server was ended, never that nothing was named.
   */
  app.get(
    '/sso-services',
    describe({
      summary: 'The single sign-on services sign-in may offer',
      access: 'public',
      answer: { json: jsonSchemaOf(SsoServices), description: 'The configured services, by name.' },
    }),
    (c) => {
      const answer: SsoServices = { services: Object.keys(config.ssoServices).sort() };
      return c.json(answer);
    },
  );

  app.post(
    '/logout',
    describe({
      summary: 'Sign out: revoke a refresh token',
      access: 'public',
      body: { json: LogoutBody },
      answer: {
        json: { type: 'object', required: ['success'], properties: { success: { const: true } } },
        description: 'The sign-in is ended.',
        refusals: refusals({
          '400': 'Neither a refresh token nor a bearer token of a session.',
          '401': 'The session had already ended.',
          '422': 'The body is not understood.',
        }),
      },
    }),
    async (c) => {
      const parsed = await c.var.body.read();
      if (!parsed.success) return refused(c, 422, LOGOUT_MESSAGES.needed);
      const refresh = parsed.output.refresh_token;
      if (refresh) {
        if (await revokeRefreshToken(db, refresh)) return answer(c, 200, { success: true });
        return refused(c, 401, LOGIN_MESSAGES.sessionEnded);
      }
      const bearer = bearerToken(c);
      if (!bearer) return refused(c, 400, LOGOUT_MESSAGES.needed);
      const claims = await verifyAccessToken(deps.jwtSecret, bearer, nowOf(deps));
      if (!claims) return refused(c, 401, LOGIN_MESSAGES.sessionEnded);
      if (claims.sessionId === null) return refused(c, 400, LOGOUT_MESSAGES.needed);
      await revokeFamily(db, claims.sessionId);
      return answer(c, 200, { success: true });
    },
  );

  return app;
}
