/**
 * The audit trail for Super Users: a filtered, paged list and a CSV export. Admins read one
 * record's history (both `entity` and `entityId` given), which the History panels show. There
 * is no route that changes or deletes an event (and the database refuses it too).
 */
import { Hono } from 'hono';
import { nowOf, type AppEnv, type Deps } from '../context';
import { STAFF_ADMIN_ROLES, authenticate, hasAnyRole, requireRole } from '../auth/guards';
import { forbidden } from '../http/errors';
import { csvRow } from '../http/csv';
import { AUDIT_EVENT_FILTERS as FILTERS, auditEventPage } from '../audit/events';
import { parseListQuery, parseSort, sortParam, type ListSpec } from '../http/query';
import { answerList } from '../http/listAnswer';
import { plain, toResource } from '../http/serialize';
import { describe } from '../openapi/describe';
import { AUDIT_EVENT, AUDIT_EVENT_TYPE } from '@core/model/auditEvent';

export { AUDIT_EVENT_TYPE };
// By id is by the chain's order: events written in the same millisecond keep theirs.
const listSpec: ListSpec<'id' | 'occurredAt' | 'entity' | 'action' | 'actorUsername', typeof FILTERS> = {
  type: AUDIT_EVENT_TYPE,
  sorts: ['id', 'occurredAt', 'entity', 'action', 'actorUsername'],
  defaultSort: '-occurredAt',
  filters: FILTERS,
};
const EXPORT_LIMIT = 100_000;
/** The export's query: the list's filters and order; it answers every row, so no page. */
const EXPORT_QUERY = { ...FILTERS, sort: sortParam(listSpec.sorts, listSpec.defaultSort) };

export function auditEventsRoutes(deps: Deps) {
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  app.get('/', describe({ summary: 'List audit events', list: listSpec, answer: { list: AUDIT_EVENT } }), async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, listSpec);
    const oneRecord = !!q.filters.entity && !!q.filters.entityId;
    if (!hasAnyRole(c.get('user'), oneRecord ? STAFF_ADMIN_ROLES : ['Super User'])) throw forbidden();
    return answerList(c, q, async (window) => {
      const { rows, total } = await auditEventPage(deps.db, q, { ...q, ...window });
      return { data: rows.map(({ id, ...row }) => toResource(AUDIT_EVENT_TYPE, id, plain(row))), total };
    });
  });

  app.get(
    '/export',
    describe({ summary: 'Export the audit trail, verified, as CSV', query: EXPORT_QUERY, answer: { media: 'text/csv' } }),
    requireRole('Super User'),
    async (c) => {
      const params = new URL(c.req.url).searchParams;
      const { sort = parseSort(listSpec.defaultSort, listSpec.sorts), ...parsed } = c.var.query;
      const { rows } = await auditEventPage(deps.db, { filters: parsed }, { sort, limit: EXPORT_LIMIT, offset: 0 });
      const header = ['id', 'occurredAt', 'actorUserId', 'actorUsername', 'clientAddress', 'entity', 'entityId', 'action', 'changes', 'meta', 'hash'];
      // The filters as the query gave them (text, as the trail keeps it), not their parsed values.
      const filters = Object.fromEntries([...params].filter(([name]) => Object.hasOwn(FILTERS, name)));
      c.set('audit', { entity: 'audit-events', entityId: null, action: 'export', meta: { format: 'csv', rows: rows.length, filters } });
      const lines = [
        csvRow(header),
        ...rows.map((r) =>
          csvRow([
            r.id,
            r.occurredAt.toISOString(),
            r.actorUserId,
            r.actorUsername,
            r.clientAddress,
            r.entity,
            r.entityId,
            r.action,
            r.changes,
            r.meta,
            r.hash,
          ]),
        ),
      ];
      return c.body(`${lines.join('\r\n')}\r\n`, 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="audit-events-${nowOf(deps).toISOString().slice(0, 10)}.csv"`,
      });
    },
  );

  return app;
}
