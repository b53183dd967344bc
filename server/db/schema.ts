/**
 * The database schema (PostgreSQL dialect, run on PGlite or PostgreSQL). Migrations in
 * ./migrations are generated from this file with `npm run db:generate` and committed.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const created = () => timestamp('created', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const modified = () => timestamp('modified', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

/** Small key-value facts about this installation (e.g. that demo data was seeded once). */
export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export const roles = pgTable('roles', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
});

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    email: text('email'),
    passwordHash: text('password_hash'),
    isActive: boolean('is_active').notNull().default(true),
    locale: text('locale').notNull().default('en'),
    totpSecret: text('totp_secret'),
    secretVerified: boolean('secret_verified').notNull().default(false),
    // The time step of the last accepted code, so a code is accepted once.
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    identityProvider: text('identity_provider'),
    created: created(),
    modified: modified(),
  },
  (t) => [
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
  ],
);

export const userRoles = pgTable(
  'user_roles',
  {
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    roleId: integer('role_id').notNull().references(() => roles.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] })],
);

export const countries = pgTable('countries', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  isoCode: text('iso_code').notNull().unique(),
});

export const sponsors = pgTable(
  'sponsors',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    identification: text('identification').notNull(),
    rmsSponsorIdentifier: text('rms_sponsor_identifier'),
    description: text('description'),
    isActive: boolean('is_active').notNull().default(true),
    businessPractice: text('business_practice'),
    countryId: integer('country_id').references(() => countries.id, { onDelete: 'set null' }),
    created: created(),
    modified: modified(),
  },
  (t) => [
    uniqueIndex('sponsors_identification_idx').on(t.identification),
    index('sponsors_active_name_idx').on(t.isActive, t.name),
    index('sponsors_name_idx').on(t.name),
  ],
);

export const userSponsors = pgTable(
  'user_sponsors',
  {
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    sponsorId: integer('sponsor_id').notNull().references(() => sponsors.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.sponsorId] }), index('user_sponsors_sponsor_idx').on(t.sponsorId)],
);

/**
 * Refresh tokens are stored as SHA-256 hashes. Each sign-in starts a family; rotating marks the
 * old token used, and presenting a used token revokes the whole family (theft detection).
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    familyId: text('family_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
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
