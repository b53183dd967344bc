/**
 * Staff users, their roles and the sponsors they may see (server/users/).
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { created, isActive, modified } from './columns';
import { linkTable } from './linkTable';
import { sponsors } from './sponsors';

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
    isActive: isActive(),
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
  (t) => [uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`), uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`)],
);

export const userRoles = linkTable('user_roles', ['userId', 'user_id', () => users.id], ['roleId', 'role_id', () => roles.id]);

export const userSponsors = linkTable(
  'user_sponsors',
  ['userId', 'user_id', () => users.id],
  ['sponsorId', 'sponsor_id', () => sponsors.id],
  'user_sponsors_sponsor_idx',
);
