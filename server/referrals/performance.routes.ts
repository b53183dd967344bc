/**
 * GET /api/site-performance: per site location, how its referrals were worked over a date range
 * (performance.ts), within the caller's referral scope (a Site Coordinator sees their sites only,
 * a sponsor's User their sponsors' engagements). Any member of staff; CSV like every list.
 */
import { Hono } from 'hono';
import { and } from 'drizzle-orm';
import { SITE_PERFORMANCE, SITE_PERFORMANCE_SORTS, SITE_PERFORMANCE_TYPE } from '@core/model/sitePerformance';
import { nowOf, type AppEnv, type Deps } from '../context';
import { authenticate } from '../auth/guards';
import { filterConditions } from '../http/filters';
import { parseListQuery, type ListSpec } from '../http/query';
import { answerList } from '../http/listAnswer';
import { toResource } from '../http/serialize';
import { describe } from '../openapi/describe';
import { SITE_PERFORMANCE_LIST_FILTERS, sitePerformance } from './performance';
import { referralScope } from './scope';

const listSpec: ListSpec<(typeof SITE_PERFORMANCE_SORTS)[number], typeof SITE_PERFORMANCE_LIST_FILTERS> = {
  type: SITE_PERFORMANCE_TYPE,
  sorts: SITE_PERFORMANCE_SORTS,
  defaultSort: 'siteName',
  defaultLimit: 100,
  filters: SITE_PERFORMANCE_LIST_FILTERS,
  fields: SITE_PERFORMANCE.names,
};

export function sitePerformanceRoutes(deps: Deps) {
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));
  app.get('/', describe({ summary: 'Site performance over a date range', list: listSpec, answer: { list: SITE_PERFORMANCE } }), async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, listSpec);
    const where = and(referralScope(c.get('user')), ...filterConditions(q.filters, SITE_PERFORMANCE_LIST_FILTERS));
    const now = nowOf(deps);
    return answerList(c, q, async (window) => {
      const { sites, total } = await sitePerformance(deps.db, now, { ...q, ...window }, where);
      return { data: sites.map(({ id, ...attributes }) => toResource(SITE_PERFORMANCE_TYPE, id, attributes, { fields: q.fields })), total };
    });
  });
  return app;
}
