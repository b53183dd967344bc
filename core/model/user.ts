import * as v from 'valibot';
import { message } from '../validation/messages';
import { isTotpCode } from '../validation/rules';
import { isoCode } from './language';
import { email, flag, idNumber, lengthText } from './fields';
import { answered, instant, nullableText, recordId, resourceAnswer, type Answered } from './answers';

/**
 * A Site Coordinator works the referrals of the site locations they are tied to, and sees
 * nothing else of the product (no sponsors, engagements or other sites).
 */
export const ROLE_NAMES = ['Admin', 'Super User', 'User', 'Site Coordinator'] as const;
export const SITE_COORDINATOR: RoleName = 'Site Coordinator';
export type RoleName = (typeof ROLE_NAMES)[number];

export const USER_TYPE = 'users';
export const ROLE_TYPE = 'roles';

export const Role = v.object({ id: v.string(), name: v.picklist(ROLE_NAMES) });
export type Role = v.InferOutput<typeof Role>;

/** A user as the API answers one: the one description of its attributes. */
export const USER = resourceAnswer(
  USER_TYPE,
  v.object({
    username: v.string(),
    email: nullableText(),
    isActive: v.boolean(),
    secretVerified: v.boolean(),
    locale: v.string(),
    identityProvider: nullableText(),
    mustChangePassword: v.pipe(v.boolean(), v.description("Set by an Admin's new or reset password: nothing but a password change is allowed until done.")),
    created: instant(),
    modified: instant(),
  }),
);

/** A user as core's readers flatten one: its attributes, with its roles and sponsors included. */
export const User = v.object({
  id: v.string(),
  ...USER.attributes.entries,
  roles: v.array(Role),
  sponsors: v.array(v.object({ id: v.string(), name: v.string() })),
});
export type User = v.InferOutput<typeof User>;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 1024;
export const USERNAME_FORMAT = 'Use 3 to 64 letters, digits or . _ @ -';

const password = () => lengthText(PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH);
const optionalEmail = () =>
  v.optional(
    v.nullable(
      v.union(
        [
          v.pipe(
            v.literal(''),
            v.transform(() => null),
          ),
          email(),
        ],
        message('email'),
      ),
    ),
  );

/**
 * A new member of staff. The Admin sets an initial password, which the user must change at
 * their first sign-in; roles and sponsors come as relationships.
 */
export const UserInput = v.strictObject({
  username: v.pipe(v.string(message('required')), v.trim(), v.regex(/^[\w.@-]{3,64}$/, USERNAME_FORMAT)),
  email: optionalEmail(),
  password: password(),
  isActive: v.optional(flag(), true),
  locale: v.optional(isoCode(), 'en'),
});

/** An update: any of these; a password here is a reset, which the user must change again. */
export const UserPatch = v.partial(
  v.strictObject({
    email: optionalEmail(),
    password: password(),
    isActive: flag(),
    locale: isoCode(),
  }),
);

export type UserInput = v.InferInput<typeof UserInput>;
export type UserPatch = v.InferInput<typeof UserPatch>;

/** POST /api/users/me/password. */
export const ChangePasswordInput = v.strictObject({
  currentPassword: v.pipe(v.string(message('required')), v.nonEmpty(message('required')), v.maxLength(PASSWORD_MAX_LENGTH)),
  password: password(),
});
export type ChangePasswordInput = v.InferInput<typeof ChangePasswordInput>;

/** POST /api/users/me/totp/verify: the first code from the authenticator app. */
export const TotpCodeInput = v.strictObject({
  code: v.pipe(v.string(message('code')), v.trim(), v.check(isTotpCode, message('code'))),
});

/** POST /api/users/validate-email: `id` is the user being edited (their own address is fine). */
export const ValidateEmailInput = v.object({
  email: v.pipe(v.string(message('required')), v.maxLength(320, message('max', { length: 320 }))),
  id: v.optional(v.nullable(v.union([v.string(), v.number()]))),
});

/** Two-factor enrolment's JSON:API type (POST /api/users/me/totp and …/verify); its id is the user's. */
export const TOTP_TYPE = 'totp-enrolments';

/** A secret being enrolled: shown once as a QR code (the otpauth URI) and as text. */
export const TOTP_ENROLMENT = resourceAnswer(
  TOTP_TYPE,
  v.object({
    secret: v.pipe(v.string(), v.description('The new, unverified secret (base32), for typing into an authenticator app; answered only here.')),
    otpauthUri: v.pipe(v.string(), v.description('The same secret as an otpauth:// URI (issuer and username with it), for the QR code.')),
  }),
);
export const TotpEnrolment = answered(TOTP_ENROLMENT);
export type TotpEnrolment = v.InferOutput<typeof TotpEnrolment>;

export const USER_SORTS = ['username', 'email', 'isActive', 'created', 'modified'] as const;
export const USER_DEFAULT_SORT = 'username';

/** The sign-in body's `data` member (SPEC section 7). `code` is the authenticator code. */
/** The single sign-on services this server is configured for (lower-case names), so sign-in offers only those. */
export const SsoServices = v.object({ services: v.array(v.pipe(v.string(), v.maxLength(40))) });
export type SsoServices = v.InferOutput<typeof SsoServices>;

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

export const SITE_COORDINATOR_TYPE = 'site-coordinators';
/** Ties a Site Coordinator to a site location (the site view's coordinators). */
export const SiteCoordinatorInput = v.strictObject({
  userId: idNumber(),
  siteLocationId: idNumber(),
});
/** A Site Coordinator tied to a site location (id: `{siteLocationId}-{userId}`). */
export const SITE_COORDINATOR_TIE = resourceAnswer(
  SITE_COORDINATOR_TYPE,
  v.object({ userId: recordId(), username: v.string(), email: nullableText(), isActive: v.boolean(), siteLocationId: recordId() }),
);
export type SiteCoordinatorRow = Answered<typeof SITE_COORDINATOR_TIE>;
export const NOT_A_SITE_COORDINATOR = 'Choose a user who holds the role Site Coordinator.';
