/**
 * Route guards (SPEC section 6, decided on the server): a valid bearer access token of an
 * active user, then roles, then the sponsor scope of a `User`.
 */
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { SITE_COORDINATOR, type RoleName } from '@core/model/user';
import { nowOf, type AppEnv, type AuthUser, type Deps } from '../context';
import { ApiProblem, forbidden, unauthorized } from '../http/errors';
import { accessTokenUser } from './tokens';
import { loadUser, siteLocationsOf } from './users';

/** The bearer token a request presents, if any. */
export const bearerToken = (c: Context): string | null => /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1] ?? null;

export const authenticate = (deps: Deps) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const token = bearerToken(c);
    if (!token) throw unauthorized();
    const userId = await accessTokenUser(deps.db, deps.jwtSecret, token, nowOf(deps));
    if (userId === null) throw unauthorized('Your session has expired or is not valid. Sign in again.');
    const user = await loadUser(deps.db, userId);
    if (!user || !user.isActive) throw unauthorized('Your account is not active. Sign in again.');
    if (user.row.mustChangePassword && !allowedBeforePasswordChange(c.req.method, c.req.path)) {
      throw passwordChangeRequired();
    }
    const roles = user.roles.map((r) => r.name);
    if (onlySiteCoordinator(roles) && !allowedForSiteCoordinator(c.req.method, c.req.path)) throw forbidden();
    const signedIn: AuthUser = {
      id: userId,
      username: user.username,
      roles,
      sponsorIds: user.sponsors.map((s) => Number(s.id)),
      siteLocationIds: roles.includes(SITE_COORDINATOR) ? await siteLocationsOf(deps.db, userId) : [],
    };
    c.set('user', signedIn);
    await c.var.authenticated?.(signedIn);
    await next();
  });

/**
 * A Site Coordinator and nothing more reaches only the referral work queue and the leads (both
 * keeping to their sites) and their own account; every other route (sponsors, engagements, figures, settings) is
 * a 403, so a route added later is closed to them until it is opened here on purpose.
 */
const SITE_COORDINATOR_CALLS: readonly RegExp[] = [
  /^GET \/api\/users\/me$/,
  /^POST \/api\/users\/me\/(password|totp|totp\/verify)$/,
  /^GET \/api\/referrals$/,
  /^GET \/api\/referrals\/\d+(\/timeline)?$/,
  /^PATCH \/api\/referrals\/\d+$/,
  /^POST \/api\/referrals\/\d+\/(contact-attempts|reveal)$/,
  /^GET \/api\/referral-reasons$/,
  /^GET \/api\/site-performance$/,
  // Leads matched to their sites (leads/list.ts leadScope): listed, one, revealed.
  /^GET \/api\/leads$/,
  /^GET \/api\/leads\/\d+$/,
  /^POST \/api\/leads\/\d+\/reveal$/,
];
const onlySiteCoordinator = (roles: readonly RoleName[]) => roles.length > 0 && roles.every((r) => r === SITE_COORDINATOR);
const allowedForSiteCoordinator = (method: string, path: string) => {
  const call = `${method} ${path.replace(/\/+$/, '')}`;
  return SITE_COORDINATOR_CALLS.some((allowed) => allowed.test(call));
};

/** What a user whose password an Admin set may do before choosing their own: see themselves and change it. */
const PASSWORD_CHANGE_CALLS = new Set(['GET /api/users/me', 'POST /api/users/me/password']);
const allowedBeforePasswordChange = (method: string, path: string) => PASSWORD_CHANGE_CALLS.has(`${method} ${path.replace(/\/+$/, '')}`);

export const PASSWORD_CHANGE_REQUIRED = 'Choose a new password before doing anything else.';
export const passwordChangeRequired = () =>
  new ApiProblem(403, [{ status: '403', title: 'Forbidden', detail: PASSWORD_CHANGE_REQUIRED, meta: { code: 'password_change_required' } }]);

export const hasAnyRole = (user: AuthUser, names: readonly RoleName[]) => user.roles.some((r) => names.includes(r));

export const requireRole = (...names: RoleName[]) =>
  createMiddleware<AppEnv>(async (c, next) => {
    if (!hasAnyRole(c.get('user'), names)) throw forbidden();
    await next();
  });

export const STAFF_ADMIN_ROLES: readonly RoleName[] = ['Admin', 'Super User'];

/** The sponsors a user may see: null for all (Admin, Super User), else their assigned ones. */
export const sponsorScope = (user: AuthUser): number[] | null => (hasAnyRole(user, STAFF_ADMIN_ROLES) ? null : user.sponsorIds);
