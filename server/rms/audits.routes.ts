/**
 * The record system's audit list, staff side (Super User): every delivery attempt with its
 * contact's delivery state (rms/audits.ts). Resending is /api/resend-rms-audit.
 */
import { Hono } from 'hono';
import { RMS_AUDIT, RMS_AUDIT_DEFAULT_SORT, RMS_AUDIT_SORTS, RMS_AUDIT_TYPE } from '@core/model/rmsAudit';
import type { AppEnv, Deps } from '../context';
import { authenticate, requireRole } from '../auth/guards';
import { parseListQuery, type ListSpec } from '../http/query';
import { answerList } from '../http/listAnswer';
import { AUDIT_FILTERS, AUDIT_INCLUDE_PROVIDERS, auditResource, listAudits, providerResources } from './audits';
import { describe } from '../openapi/describe';

const listSpec: ListSpec<(typeof RMS_AUDIT_SORTS)[number], typeof AUDIT_FILTERS> = {
  type: RMS_AUDIT_TYPE,
  sorts: RMS_AUDIT_SORTS,
  defaultSort: RMS_AUDIT_DEFAULT_SORT,
  includes: [AUDIT_INCLUDE_PROVIDERS],
  filters: AUDIT_FILTERS,
  fields: RMS_AUDIT.names,
};

export function rmsAuditsRoutes(deps: Deps) {
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps), requireRole('Super User'));

  app.get('/', describe({ summary: 'List record-system deliveries (RMS audits)', list: listSpec, answer: { list: RMS_AUDIT } }), async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, listSpec);
    return answerList(c, q, async (window) => {
      const { rows, total } = await listAudits(deps.db, q.filters, { ...q, ...window });
      const withProviders = q.include.has(AUDIT_INCLUDE_PROVIDERS);
      const included = withProviders ? await providerResources(deps.db, rows) : undefined;
      return { data: rows.map((r) => auditResource(r, withProviders, q.fields)), total, included };
    });
  });

  return app;
}
