import * as v from 'valibot';
import { message } from '../validation/messages';
import { isTotpCode } from '../validation/rules';

export const ROLE_NAMES = ['Admin', 'Super User', 'User'] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

export interface User {
  id: string;
  username: string;
  email: string | null;
  isActive: boolean;
  secretVerified: boolean;
  locale: string;
  identityProvider: string | null;
  roles: { id: string; name: RoleName }[];
  sponsors: { id: string; name: string }[];
}

/** The sign-in body's `data` member (SPEC section 7). `code` is the authenticator code. */
export const LoginInput = v.object({
  username: v.pipe(v.string(message('required')), v.trim(), v.nonEmpty(message('required')), v.maxLength(255)),
  password: v.pipe(v.string(message('required')), v.nonEmpty(message('required')), v.maxLength(1024)),
  code: v.optional(v.nullable(v.union([v.literal(''), v.pipe(v.string(), v.check(isTotpCode, message('code')))]))),
  lang: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(16)))),
});
export type LoginInput = v.InferInput<typeof LoginInput>;

/** The shape of every answer of POST /api/jwt/login. */
export interface LoginResult {
  success: boolean;
  access?: string;
  refresh?: string;
  data?: { message?: string; secret_verified?: boolean; user?: User };
}

export const hasRole = (user: Pick<User, 'roles'> | null | undefined, ...names: RoleName[]): boolean =>
  !!user && user.roles.some((r) => names.includes(r.name));
