/** The audit trail read back: a page of its events, filtered by entity, record, action, actor and time. */
import { and, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { Db } from '../db/open';
import { auditEvents } from '../db/schema';
import { tablePage, type PageQuery } from '../http/list';
import { idParam, instantParam, textParam, type ParamValues } from '../http/params';
import type { ListQuery } from '../http/query';

/** The list's filters, each read as its type (a malformed value is a 400 naming it). */
export const AUDIT_EVENT_FILTERS = {
  entity: textParam("Only events of this kind of record (its API path, e.g. 'sponsors')."),
  entityId: textParam("Only events of this record (its id); with entity, one record's history."),
  action: textParam('Only events of this action.'),
  actorUserId: idParam('user', 'Only events by this user (their id).'),
  from: instantParam('from'),
  to: instantParam('to'),
};
type AuditEventSort = 'id' | 'occurredAt' | 'entity' | 'action' | 'actorUsername';

const sorts = {
  id: auditEvents.id,
  occurredAt: auditEvents.occurredAt,
  entity: auditEvents.entity,
  action: auditEvents.action,
  actorUsername: auditEvents.actorUsername,
};

function conditions(filters: ParamValues<typeof AUDIT_EVENT_FILTERS>): SQL | undefined {
  const { entity, entityId, action, actorUserId, from, to } = filters;
  return and(
    entity !== undefined ? eq(auditEvents.entity, entity) : undefined,
    entityId !== undefined ? eq(auditEvents.entityId, entityId) : undefined,
    action !== undefined ? eq(auditEvents.action, action) : undefined,
    actorUserId !== undefined ? eq(auditEvents.actorUserId, actorUserId) : undefined,
    from ? gte(auditEvents.occurredAt, from) : undefined,
    to ? lt(auditEvents.occurredAt, to) : undefined,
  );
}

export function auditEventPage(db: Db, filtered: Pick<ListQuery<AuditEventSort, typeof AUDIT_EVENT_FILTERS>, 'filters'>, page: PageQuery<AuditEventSort>) {
  return tablePage(db, auditEvents, page, { where: conditions(filtered.filters), sorts, id: auditEvents.id });
}
