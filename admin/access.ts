/**
 * Who may open what. Route guards and the side navigation both read these rules, so a menu
 * item is shown exactly when its screen would let the user in (SPEC section 6). The server
 * decides for real; this only mirrors it.
 */
import { hasRole, type RoleName, type User } from '@core/model/user';

export type AuthStatus = 'checking' | 'signedIn' | 'signedOut';

export type Access =
  /** Anyone, signed in or not. */
  | { kind: 'public' }
  /** Only visitors who are not signed in (the login page). */
  | { kind: 'anonymous' }
  /** Signed-in users, holding one of `roles` when given. */
  | { kind: 'signedIn'; roles?: readonly RoleName[] };

export const PUBLIC: Access = { kind: 'public' };
export const ANONYMOUS: Access = { kind: 'anonymous' };
export const SIGNED_IN: Access = { kind: 'signedIn' };
export const ADMIN_OR_SUPER_USER: Access = { kind: 'signedIn', roles: ['Admin', 'Super User'] };
export const SUPER_USER: Access = { kind: 'signedIn', roles: ['Super User'] };
/** Staff who work with sponsors and their studies: everyone signed in but a Site Coordinator with no other role. */
export const STAFF: Access = { kind: 'signedIn', roles: ['Admin', 'Super User', 'User'] };

/** A Site Coordinator and nothing more: the server opens them only the referral queue, its figures and their account. */
export const onlySiteCoordinator = (user: User | null): boolean => !!user && user.roles.length > 0 && user.roles.every((r) => r.name === 'Site Coordinator');

/** Where `/` leads: the work queue for a Site Coordinator, the sponsors for everyone else. */
export const homePathOf = (user: User | null): string => (onlySiteCoordinator(user) ? '/referrals' : '/sponsors');

export type AccessDecision = 'allow' | 'wait' | 'signIn' | 'forbidden' | 'leave';

/** What a guard does for this visitor: show the screen, wait for the session, or send them away. */
export function decideAccess(access: Access, status: AuthStatus, user: User | null): AccessDecision {
  if (access.kind === 'public') return 'allow';
  if (status === 'checking') return 'wait';
  if (access.kind === 'anonymous') return status === 'signedIn' ? 'leave' : 'allow';
  if (status !== 'signedIn' || !user) return 'signIn';
  if (access.roles && !hasRole(user, ...access.roles)) return 'forbidden';
  return 'allow';
}

export const canSee = (access: Access, status: AuthStatus, user: User | null): boolean => decideAccess(access, status, user) === 'allow';
