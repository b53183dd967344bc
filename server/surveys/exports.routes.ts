/**
 * A versioned survey's PDF: POST /api/o-forms/export-to-pdf/{id}/{showApproved} answers where
 * to fetch it; GET /api/o-forms/o-form-exports/{id} serves it (./exports.ts gathers what it
 * shows). Both follow the surveys' sponsor scope.
 *
 * The PDF is rendered when it is fetched rather than stored: an approved version never
 * changes, so its export is always the same, and nothing is left behind to clean up.
 */
import type { Hono } from 'hono';
import { OFORM_EXPORT, OFORM_EXPORT_TYPE, type SurveyExport } from '@core/model/surveyExport';
import type { AppEnv } from '../context';
import type { Db } from '../db/open';
import { badRequest } from '../http/errors';
import { rowAtPath } from '../http/pathRow';
import { sendResource, toResource } from '../http/serialize';
import { attachmentDisposition } from '../http/upload';
import { renderSurveyPdf } from '../pdf/surveyPdf';
import { exportFilename, exportedVersion, surveyPdfContent } from './exports';
import { findForm } from './versions';
import { describe } from '../openapi/describe';

export function oFormExportsRoutes(app: Hono<AppEnv>, db: Db) {
  /**
   * showApproved 0 exports this version; 1 exports the approved version of its survey (409
   * while there is none), so a link to any version can always fetch what participants see.
   */
  app.post('/export-to-pdf/:id/:showApproved', describe({ summary: 'Export a survey version as PDF', answer: { resource: OFORM_EXPORT } }), async (c) => {
    const user = c.get('user');
    const flag = c.req.param('showApproved');
    if (flag !== '0' && flag !== '1') throw badRequest("'showApproved' must be 0 or 1.", 'showApproved');
    const { row: form } = await rowAtPath(c, 'survey', (id) => findForm(db, id, user));
    const target = await exportedVersion(db, form, user, flag === '1');
    const body: SurveyExport = {
      id: String(target.id),
      filename: exportFilename(target, 'pdf'),
      url: `/api/o-forms/o-form-exports/${target.id}`,
    };
    const { id, ...attributes } = body;
    c.set('audit', {
      entity: 'o-forms',
      entityId: target.id,
      action: 'export-link',
      meta: { format: 'pdf', showApproved: flag === '1', requestedId: form.id },
    });
    return sendResource(c, toResource(OFORM_EXPORT_TYPE, id, attributes));
  });

  app.get(
    '/o-form-exports/:id',
    describe({ summary: 'Export a survey version (JSON, PDF or CSV of answers)', answer: { media: 'application/pdf' } }),
    async (c) => {
      const user = c.get('user');
      const { row: form } = await rowAtPath(c, 'survey export', (id) => findForm(db, id, user));
      const bytes = await renderSurveyPdf(await surveyPdfContent(db, form, user));
      c.set('audit', { entity: 'o-forms', entityId: form.id, action: 'export', meta: { format: 'pdf' } });
      return c.body(bytes.slice().buffer, 200, {
        'Content-Type': 'application/pdf',
        'Content-Disposition': attachmentDisposition(exportFilename(form, 'pdf')),
        'Cache-Control': 'private, no-store',
      });
    },
  );
}
