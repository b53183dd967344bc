/** An event of the audit trail as the API lists it (who, when, what, old and new values). */
export const AUDIT_EVENT_TYPE = 'audit-events';

export interface AuditChange {
  old: unknown;
  new: unknown;
}

export interface AuditEvent {
  id: string;
  occurredAt: string;
  actorUserId: number | null;
  actorUsername: string | null;
  clientAddress: string | null;
  entity: string;
  entityId: string | null;
  /** create, update, delete, export, sign_in... or 'METHOD /path' for other actions. */
  action: string;
  changes: Record<string, AuditChange>;
  meta: Record<string, unknown>;
}
