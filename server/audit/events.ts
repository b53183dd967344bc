/** The audit trail read back: a page of its events, filtered by entity, record, action, actor and time. */
import { and, eq, gte, lte, type SQL } from 'drizzle-orm';
import type { Db } from '../db/open';
import { auditEvents } from '../db/schema';
import { badRequest } from '../http/errors';
import { tablePage } from '../http/list';
import type { ListQuery } from '../http/query';

export const AUDIT_EVENT_FILTERS = ['entity', 'entityId', 'action', 'actorUserId', 'from', 'to'] as const;
type AuditEventSort = 'id' | 'occurredAt' | 'entity' | 'action' | 'actorUsername';

const sorts = {
  id: auditEvents.id,
  occurredAt: auditEvents.occurredAt,
  entity: auditEvents.entity,
  action: auditEvents.action,
  actorUsername: auditEvents.actorUsername,
};

function instant(value: string | undefined, name: string): Date | undefined {
  if (value === undefined || value === '') return undefined;
  const date = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime())) {
    throw badRequest(`'${name}' must be a date such as 2026-11-22 or 2026-11-22T10:00:00Z.`, name);
  }
  return date;
}

function conditions(filters: Partial<Record<(typeof AUDIT_EVENT_FILTERS)[number], string>>): SQL | undefined {
  const actor = filters.actorUserId;
  if (actor !== undefined && !/^\d{1,9}$/.test(actor)) throw badRequest("'actorUserId' must be a user id.", 'actorUserId');
  const from = instant(filters.from, 'from');
  const to = instant(filters.to, 'to');
  return and(
    filters.entity ? eq(auditEvents.entity, filters.entity) : undefined,
    filters.entityId ? eq(auditEvents.entityId, filters.entityId) : undefined,
    filters.action ? eq(auditEvents.action, filters.action) : undefined,
    actor ? eq(auditEvents.actorUserId, Number(actor)) : undefined,
    from ? gte(auditEvents.occurredAt, from) : undefined,
    to ? lte(auditEvents.occurredAt, to) : undefined,
  );
}

export function auditEventPage(
  db: Db,
  filtered: Pick<ListQuery<AuditEventSort, (typeof AUDIT_EVENT_FILTERS)[number]>, 'filters'>,
  page: Pick<ListQuery<AuditEventSort>, 'sort' | 'limit' | 'offset'>,
) {
  return tablePage(db, auditEvents, page, { where: conditions(filtered.filters), sorts, id: auditEvents.id });
}
