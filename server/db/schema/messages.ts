/**
 * Messages (server/messages/): the e-mail and text outbox, its templates, settings and opt-outs.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, serial, text, uniqueIndex, type PgColumnBuilderBase } from 'drizzle-orm/pg-core';
import { belongsTo, created, instant, leasedAttempts, modified, refersTo } from './columns';
import { engagements } from './engagements';
import { referrals } from './referrals';
import { users } from './users';

/**
 * The message outbox: one row per e-mail, written in the transaction of what caused it (a new
 * referral). The address and the body are sealed like contact values; the subject names no
 * health data. `message_id` is the RFC 5322 Message-ID, the same on every attempt, so a retry
 * after a crash is the same message to the receiving side. `status` is pending (first attempt
 * due at next_attempt_at), waiting (no mail server configured), retrying, sent, failed (every
 * attempt of the schedule failed, or the server said never) or cancelled (not to be sent any
 * more: unsubscribed, or what it reminded of was done).
 */
export const messages = pgTable(
  'messages',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    /** 'email' or 'sms' (a text through SMS_PROVIDER; `to` is then a phone number, the body's text part is sent). */
    channel: text('channel').notNull().default('email'),
    engagementId: integer('engagement_id').references(() => engagements.id, { onDelete: 'cascade' }),
    referralId: integer('referral_id').references(() => referrals.id, { onDelete: 'cascade' }),
    /** 'staff' or 'participant'. */
    audience: text('audience').notNull(),
    recipientUserId: refersTo('recipient_user_id', () => users.id),
    /** What the admin shows in place of the address: a staff username, or "participant". */
    recipientLabel: text('recipient_label').notNull(),
    language: text('language').notNull().default('en'),
    toCiphertext: text('to_ciphertext').notNull(),
    /** Keyed hash of a participant's address (security/contactMatch.ts): opt-outs go by it. */
    toMatch: text('to_match'),
    subject: text('subject').notNull(),
    /** Sealed JSON { text, html }; null once MESSAGE_RETENTION_DAYS purged a sent body. */
    bodyCiphertext: text('body_ciphertext'),
    messageId: text('message_id').notNull(),
    unsubscribeToken: text('unsubscribe_token'),
    ...leasedAttempts(),
    lastError: text('last_error'),
    sentAt: instant('sent_at'),
    purgedAt: instant('purged_at'),
    created: created(),
  },
  (t) => [
    uniqueIndex('messages_message_id_idx').on(t.messageId),
    uniqueIndex('messages_unsubscribe_token_idx').on(t.unsubscribeToken).where(sql`${t.unsubscribeToken} is not null`),
    index('messages_due_idx').on(t.nextAttemptAt).where(sql`${t.status} in ('pending', 'waiting', 'retrying')`),
    index('messages_referral_idx').on(t.referralId),
    index('messages_created_idx').on(t.created, t.id),
    index('messages_to_match_idx').on(t.toMatch).where(sql`${t.toMatch} is not null`),
    check('messages_status_check', sql`${t.status} in ('pending', 'waiting', 'retrying', 'sent', 'failed', 'cancelled')`),
    check('messages_audience_check', sql`${t.audience} in ('staff', 'participant')`),
    check('messages_channel_check', sql`${t.channel} in ('email', 'sms')`),
  ],
);

/** Which messages an engagement sends, each after its delay (no row: off). */
export const engagementMessageSettings = pgTable(
  'engagement_message_settings',
  {
    engagementId: belongsTo('engagement_id', () => engagements.id),
    kind: text('kind').notNull(),
    isEnabled: boolean('is_enabled').notNull().default(true),
    delayMinutes: integer('delay_minutes').notNull().default(0),
    modified: modified(),
  },
  (t) => [primaryKey({ columns: [t.engagementId, t.kind] }), check('engagement_message_settings_delay_check', sql`${t.delayMinutes} between 0 and 43200`)],
);

/**
 * A message kind's template in one language as staff edited it (no row: the shipped default),
 * made of the parts `body` names.
 */
const editedTemplates = <T extends string, B extends Record<string, PgColumnBuilderBase>>(name: T, body: B) =>
  pgTable(
    name,
    {
      kind: text('kind').notNull(),
      language: text('language').notNull(),
      ...body,
      modifiedBy: refersTo('modified_by', () => users.id),
      modified: modified(),
    },
    (t) => [primaryKey({ columns: [t.kind, t.language] })],
  );

/** The e-mail templates. */
export const messageTemplates = editedTemplates('message_templates', {
  subject: text('subject').notNull(),
  html: text('html').notNull(),
  text: text('text').notNull(),
});

/** Staff's text (SMS) templates, per kind that is texted and language. */
export const smsTemplates = editedTemplates('sms_templates', { text: text('text').notNull() });

/** Participant addresses (keyed hashes) that unsubscribed: no participant mail goes to them again. */
export const messageOptOuts = pgTable('message_opt_outs', {
  toMatch: text('to_match').primaryKey(),
  created: created(),
});

/** Phone numbers (keyed hashes, as contact duplicates are found) that texted STOP: no text goes to them again, for any engagement. */
export const smsOptOuts = pgTable('sms_opt_outs', {
  toMatch: text('to_match').primaryKey(),
  created: created(),
});
