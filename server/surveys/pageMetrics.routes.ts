import { Hono } from 'hono';
import { SURVEY_PAGE_METRICS, SURVEY_PAGE_METRICS_TYPE } from '@core/model/surveyExport';
import type { AppEnv, Deps } from '../context';
import { authenticate } from '../auth/guards';
import { parseId } from '../http/query';
import { wholeListRead } from '../http/wholeList';
import { sendDocument, toResource } from '../http/serialize';
import { versionPageMetrics } from './exports';
import { describe } from '../openapi/describe';

/** GET /api/survey-page-metrics/{id}: the same figures as JSON:API, for the survey view's drop-off chart. */
export function surveyPageMetricsRoutes(deps: Deps) {
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));
  app.get('/:id', describe(wholeListRead("A survey version's page metrics (views, completions, drop-off, time on page)", SURVEY_PAGE_METRICS)), async (c) => {
    const { metrics } = await versionPageMetrics(deps, parseId(c.req.param('id')), c.get('user'));
    return sendDocument(c, { data: metrics.map((m) => toResource(SURVEY_PAGE_METRICS_TYPE, m.page, { ...m })), meta: { total: metrics.length } });
  });
  return app;
}
