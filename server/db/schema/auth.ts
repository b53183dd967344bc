/**
 * Sign-in (server/auth/): refresh tokens, login attempts and single sign-on (SAML).
 */
import { boolean, index, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { belongsTo, created, instant } from './columns';
import { users } from './users';

/**
 * Refresh tokens are stored as SHA-256 hashes. Each sign-in starts a family; rotating marks the
 * old token used, and presenting a used token revokes the whole family (theft detection).
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: serial('id').primaryKey(),
    userId: belongsTo('user_id', () => users.id),
    tokenHash: text('token_hash').notNull().unique(),
    familyId: text('family_id').notNull(),
    expiresAt: instant('expires_at').notNull(),
    usedAt: instant('used_at'),
    revokedAt: instant('revoked_at'),
    created: created(),
  },
  (t) => [index('refresh_tokens_family_idx').on(t.familyId), index('refresh_tokens_user_idx').on(t.userId)],
);

/** Every sign-in attempt, for the lockout rule (counters live here, not in process memory). */
export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    succeeded: boolean('succeeded').notNull(),
    clientAddress: text('client_address'),
    created: created(),
  },
  (t) => [index('login_attempts_username_created_idx').on(t.username, t.created)],
);

/** AuthnRequests we sent, so a response's InResponseTo must name one of ours (and only once). */
export const ssoRequests = pgTable('sso_requests', {
  id: text('id').primaryKey(),
  service: text('service').notNull(),
  created: created(),
});

/** Assertion ids already accepted: each assertion signs in once (replay protection). */
export const ssoAssertions = pgTable('sso_assertions', {
  id: text('id').primaryKey(),
  service: text('service').notNull(),
  created: created(),
});

/**
 * The short-lived proof, kept in an httpOnly cookie, that a browser just came back from the
 * identity provider; the login call exchanges it once for the usual tokens.
 */
export const ssoHandoffs = pgTable('sso_handoffs', {
  tokenHash: text('token_hash').primaryKey(),
  userId: belongsTo('user_id', () => users.id),
  service: text('service').notNull(),
  expiresAt: instant('expires_at').notNull(),
  usedAt: instant('used_at'),
  created: created(),
});
