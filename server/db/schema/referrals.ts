/**
 * Referrals, the reasons they close with and their history (server/referrals/).
 */
import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, index, integer, pgTable, serial, text, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { belongsTo, created, instant, isActive, refersTo } from './columns';
import { engagements } from './engagements';
import { contacts } from './participant';
import { engagementSiteLocations } from './sites';
import { users } from './users';

/**
 * A qualified participant referred to an engagement (created by the participant runtime), then
 * worked up its status ladder (core/model/referral.ts) by staff and record systems. is_screened
 * and is_randomized are the milestones the ladder reached, kept when a referral later withdraws.
 */
export const referrals = pgTable(
  'referrals',
  {
    id: serial('id').primaryKey(),
    engagementId: belongsTo('engagement_id', () => engagements.id),
    engagementSiteLocationId: refersTo('engagement_site_location_id', () => engagementSiteLocations.id),
    isScreened: boolean('is_screened').notNull().default(false),
    isRandomized: boolean('is_randomized').notNull().default(false),
    /** The participant contact this referral counts (null for referrals recorded before contacts). */
    contactId: integer('contact_id').references((): AnyPgColumn => contacts.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('new'),
    reasonId: integer('reason_id').references((): AnyPgColumn => referralReasons.id, { onDelete: 'restrict' }),
    /** Sealed (security/phi.ts): staff may write what a participant told them. */
    reasonNoteCiphertext: text('reason_note_ciphertext'),
    /** The last change of status (null: never changed since the referral was made). */
    statusChanged: instant('status_changed'),
    /** When the site first reached the person (a reached attempt or a status of contacted or beyond). */
    firstContactAt: instant('first_contact_at'),
    attempts: integer('attempts').notNull().default(0),
    lastAttemptAt: instant('last_attempt_at'),
    nextAttemptDue: instant('next_attempt_due'),
    created: created(),
  },
  (t) => [
    index('referrals_engagement_idx').on(t.engagementId, t.created),
    uniqueIndex('referrals_contact_idx').on(t.contactId),
    index('referrals_site_status_idx').on(t.engagementSiteLocationId, t.status),
    check(
      'referrals_status_check',
      sql`${t.status} in ('new', 'attempting-contact', 'contacted', 'scheduled', 'in-screening', 'screen-failed', 'eligible', 'enrolled', 'withdrawn', 'not-reachable')`,
    ),
  ],
);

/** Why referrals close at screen-failed, withdrawn or not-reachable: a list staff keep. */
export const referralReasons = pgTable(
  'referral_reasons',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    status: text('status').notNull(),
    isActive: isActive(),
    created: created(),
  },
  (t) => [uniqueIndex('referral_reasons_name_idx').on(t.status, sql`lower(${t.name})`)],
);

/**
 * A referral's history: every change of status (who or which record system, when, from, to,
 * why) and every contact attempt, in the order they happened; the referral's timeline.
 */
export const referralEvents = pgTable(
  'referral_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    referralId: belongsTo('referral_id', () => referrals.id),
    occurredAt: instant('occurred_at').notNull(),
    /** 'status' or 'attempt'. */
    kind: text('kind').notNull(),
    actorUserId: refersTo('actor_user_id', () => users.id),
    /** The staff username or the record system's name, kept as it was. */
    actorName: text('actor_name').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status'),
    reasonId: refersTo('reason_id', () => referralReasons.id),
    channel: text('channel'),
    result: text('result'),
    /** Sealed like the referral's reason note. */
    noteCiphertext: text('note_ciphertext'),
  },
  (t) => [index('referral_events_referral_idx').on(t.referralId, t.occurredAt)],
);
