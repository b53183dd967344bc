import * as v from 'valibot';
import { instant, nullableText, recordId, resourceAnswer, type Answered } from './answers';

/** An event of the audit trail as the API lists it (who, when, what, old and new values). */
export const AUDIT_EVENT_TYPE = 'audit-events';

const change = v.object({ old: v.unknown(), new: v.unknown() });
export type AuditChange = v.InferOutput<typeof change>;

/** An event as the API answers it: the one description of its attributes. */
export const AUDIT_EVENT = resourceAnswer(
  AUDIT_EVENT_TYPE,
  v.object({
    occurredAt: instant(),
    actorUserId: v.nullable(recordId()),
    actorUsername: nullableText(),
    clientAddress: nullableText(),
    entity: v.string(),
    entityId: nullableText(),
    action: v.pipe(v.string(), v.description("create, update, delete, export, sign_in… or 'METHOD /path' for other actions.")),
    changes: v.pipe(v.record(v.string(), change), v.description('Old and new value by attribute.')),
    meta: v.record(v.string(), v.unknown()),
    prevHash: v.pipe(v.string(), v.description("The previous event's hash: the events form a chain the export verifies.")),
    hash: v.pipe(v.string(), v.description('SHA-256 over this event and prevHash (hex).')),
  }),
);

export type AuditEvent = Answered<typeof AUDIT_EVENT>;
