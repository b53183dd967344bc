import { Hono } from 'hono';
import { SURVEY_METRICS_COLUMNS } from '@core/model/surveyExport';
import type { AppEnv, Deps } from '../context';
import { authenticate } from '../auth/guards';
import { csvRow } from '../http/csv';
import { parseId } from '../http/query';
import { attachmentDisposition } from '../http/upload';
import { exportFilename, versionPageMetrics } from './exports';
import { describe } from '../openapi/describe';

/** GET /api/export-survey-metrics/{id}: the version's page metrics (pageMetrics.ts) as CSV. */
export function exportSurveyMetricsRoutes(deps: Deps) {
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));
  app.get('/:id', describe({ summary: "Export a survey version's page metrics", answer: { media: 'text/csv' } }), async (c) => {
    const { form, metrics } = await versionPageMetrics(deps, parseId(c.req.param('id')), c.get('user'));
    c.set('audit', { entity: 'o-forms', entityId: form.id, action: 'export', meta: { format: 'csv', content: 'metrics' } });
    const lines = [
      csvRow(SURVEY_METRICS_COLUMNS),
      ...metrics.map((m) => csvRow([m.page, m.title, m.views, m.completions, m.dropOff, m.medianSeconds, m.p90Seconds])),
    ];
    return c.body(`${lines.join('\r\n')}\r\n`, 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': attachmentDisposition(exportFilename(form, 'csv', '-metrics')),
      'Cache-Control': 'private, no-store',
    });
  });
  return app;
}
