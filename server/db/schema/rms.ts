/**
 * The record-system push (server/rms/): its outbox, its audits and the callbacks already applied.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, serial, text, uuid } from 'drizzle-orm/pg-core';
import { belongsTo, created, instant, leasedAttempts, natural, refersTo } from './columns';
import { contacts } from './participant';
import { rmsProviders } from './rms-providers';

/**
 * The record-system outbox: one row per contact to deliver, written in the contact's own
 * transaction (server/rms/outbox.ts). `status` is pending (first attempt due), retrying,
 * delivered or undelivered; `next_attempt_at` is when the next attempt is due while pending or
 * retrying, and `lease_id` names the attempt a process has claimed and not yet finished.
 */
export const rmsDeliveries = pgTable(
  'rms_deliveries',
  {
    contactId: integer('contact_id')
      .primaryKey()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    /** The referral's idempotency key: `referralId` of every push and its webhook-id. */
    referralKey: uuid('referral_key').notNull().defaultRandom().unique(),
    /** `attempts` counts the current round (a resend of a failed delivery starts a new round). */
    ...leasedAttempts(),
    /** When the record system first accepted it; kept when it is sent again. */
    deliveredAt: instant('delivered_at'),
    created: created(),
  },
  (t) => [
    index('rms_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} in ('pending', 'retrying')`),
    index('rms_deliveries_status_idx').on(t.status),
    check('rms_deliveries_status_check', sql`${t.status} in ('pending', 'retrying', 'delivered', 'undelivered')`),
  ],
);

/** One row per attempt to push a contact to its record system (SPEC: record-system audit). */
export const rmsAudits = pgTable(
  'rms_audits',
  {
    id: serial('id').primaryKey(),
    contactId: belongsTo('contact_id', () => contacts.id),
    rmsProviderId: refersTo('rms_provider_id', () => rmsProviders.id),
    rmsProviderName: text('rms_provider_name').notNull(),
    succeeded: boolean('succeeded').notNull().default(false),
    attempt: integer('attempt').notNull().default(1),
    responseMessage: text('response_message').notNull().default(''),
    responseBody: text('response_body').notNull().default(''),
    created: created(),
  },
  (t) => [
    index('rms_audits_created_idx').on(t.created),
    index('rms_audits_contact_idx').on(t.contactId),
    index('rms_audits_provider_name_idx').on(natural(t.rmsProviderName), t.id),
  ],
);

/**
 * The signed record-system callbacks already applied, by the contact they were for and their
 * `webhook-id` (Standard Webhooks' idempotency key): a replay within the signature's tolerance
 * changes nothing. Kept a little longer than that tolerance, after which a replay's signature
 * is refused anyway.
 */
export const rmsCallbackMessages = pgTable(
  'rms_callback_messages',
  {
    contactId: integer('contact_id').notNull(),
    webhookId: text('webhook_id').notNull(),
    receivedAt: instant('received_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.contactId, t.webhookId] }), index('rms_callback_messages_received_at_idx').on(t.receivedAt)],
);
