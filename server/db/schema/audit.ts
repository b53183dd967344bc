/**
 * The audit trail (server/audit/).
 */
import { bigserial, index, jsonb, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { instant } from './columns';

/**
 * Append-only audit trail (21 CFR Part 11): who did what to which record, when, from where,
 * with old and new values. Each row carries the hash of the previous one, so a changed or
 * removed row breaks the chain.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    occurredAt: instant('occurred_at').notNull().defaultNow(),
    actorUserId: integer('actor_user_id'),
    actorUsername: text('actor_username'),
    clientAddress: text('client_address'),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    action: text('action').notNull(),
    changes: jsonb('changes').$type<Record<string, { old: unknown; new: unknown }>>().notNull().default({}),
    meta: jsonb('meta').$type<Record<string, unknown>>().notNull().default({}),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [
    index('audit_events_entity_idx').on(t.entity, t.entityId),
    index('audit_events_actor_idx').on(t.actorUserId),
    index('audit_events_occurred_idx').on(t.occurredAt),
  ],
);
