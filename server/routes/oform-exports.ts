/**
 * Exports of a versioned survey: the PDF (POST /api/o-forms/export-to-pdf/{id}/{showApproved}
 * answers where to fetch it; GET /api/o-forms/o-form-exports/{id} serves it) and the per-page
 * metrics CSV (GET /api/export-survey-metrics/{id}; funnel/pages.ts counts them). Both follow the surveys' sponsor scope.
 *
 * The PDF is rendered when it is fetched rather than stored: an approved version never
 * changes, so its export is always the same, and nothing is left behind to clean up.
 */
import { Hono, type Context } from 'hono';
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import { FIELD_TYPE_NAMES } from '@core/model/oform';
import { NO_APPROVED_VERSION, OFORM_EXPORT_TYPE, SURVEY_METRICS_COLUMNS, SURVEY_PAGE_METRICS_TYPE, type OFormExport } from '@core/model/oformExport';
import { DEFAULT_OFORM_MESSAGES, OFORM_MESSAGE_TYPES } from '@core/model/oformMessage';
import { nowOf, type AppEnv, type AuthUser, type Deps } from '../context';
import { pageMetrics } from '../funnel/pages';
import type { Db } from '../db/open';
import { engagements, languages, oFormLanguages, oFormMessages, oForms } from '../db/schema';
import { authenticate } from '../auth/guards';
import { engagementScope } from '../domain/engagementAccess';
import { badRequest, conflict, notFound } from '../http/errors';
import { csvRow } from '../http/csv';
import { parseId } from '../http/query';
import { sendDocument, sendResource, toResource } from '../http/serialize';
import { attachmentDisposition } from '../http/upload';
import { renderSurveyPdf, type PdfMessage, type PdfPage, type SurveyPdf } from '../pdf/oformPdf';
import { loadStructure } from '../oform/structure';
import { findForm, selectForms, type FormRow } from '../oform/versions';
import { describe } from '../openapi/describe';

/** A file name from the survey's title: letters, digits and hyphens, then the version. */
export function exportFilename(form: Pick<FormRow, 'title' | 'version'>, extension: string, suffix = ''): string {
  const slug = form.title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase()
    .slice(0, 60);
  return `${slug || 'survey'}-v${form.version}${suffix}.${extension}`;
}

/** Messages are stored as HTML; the PDF shows their text. */
const plainText = (html: string) =>
  html
    .replace(/<(br|\/p|\/div|\/li)\b[^>]*>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

/** Everything the PDF shows of one version. */
async function surveyPdfContent(db: Db, form: FormRow, user: AuthUser): Promise<SurveyPdf> {
  const structure = await loadStructure(db, form.id);
  const pages = structure.containers.filter((c) => c.parentId === null);
  const pageNames = new Map(pages.map((p, i) => [p.identity, `Page ${i + 1}: ${p.title}`]));
  const surveyTargets = [
    ...new Set(structure.fields.flatMap((f) => f.configuration.options.flatMap((o) => (o.transition?.to === 'survey' ? [o.transition.identity] : [])))),
  ];
  const surveyNames = new Map<string, string>();
  if (surveyTargets.length) {
    const rows = await db
      .select({ identity: oForms.identity, title: oForms.title })
      .from(oForms)
      .innerJoin(engagements, eq(engagements.id, oForms.engagementId))
      .where(and(inArray(oForms.identity, surveyTargets), engagementScope(user)))
      .orderBy(asc(oForms.version));
    // The latest version's title wins.
    for (const r of rows) surveyNames.set(r.identity, r.title);
  }
  const langs = await db
    .select({ name: languages.name, isoCode: languages.isoCode, isDefault: languages.isDefault })
    .from(oFormLanguages)
    .innerJoin(languages, eq(languages.id, oFormLanguages.languageId))
    .where(eq(oFormLanguages.oFormId, form.id))
    .orderBy(desc(languages.isDefault), asc(languages.name));
  const pdfPages: PdfPage[] = pages.map((page) => {
    const inside = structure.containers.filter((c) => c.id === page.id || c.parentId === page.id);
    const rank = (containerId: number) => {
      const container = inside.find((c) => c.id === containerId);
      return container === undefined || container.id === page.id ? 0 : container.displayOrder;
    };
    const fields = structure.fields
      .filter((f) => inside.some((c) => c.id === f.containerId))
      .sort((a, b) => rank(a.containerId) - rank(b.containerId) || a.displayOrder - b.displayOrder);
    return {
      title: page.title,
      translations: langs.flatMap((l) => {
        const title = page.translations[l.isoCode]?.title?.trim();
        return !l.isDefault && title ? [{ language: l.name, title }] : [];
      }),
      isActive: page.isActive,
      questions: fields.map((f) => ({
        title: f.title,
        typeName: FIELD_TYPE_NAMES[f.type] ?? f.type,
        required: f.configuration.required,
        isActive: f.isActive,
        helperText: f.configuration.helperText,
        options: f.configuration.options.map((o) => ({
          label: o.label,
          value: o.value,
          isDisqualified: o.isDisqualified,
          transition:
            o.transition === null
              ? null
              : o.transition.to === 'end'
                ? 'End of survey'
                : o.transition.to === 'page'
                  ? (pageNames.get(o.transition.identity) ?? 'A page that no longer exists')
                  : `Survey: ${surveyNames.get(o.transition.identity) ?? o.transition.identity}`,
        })),
      })),
    };
  });
  const own = await db
    .select({ messageType: oFormMessages.messageType, language: oFormMessages.language, message: oFormMessages.message })
    .from(oFormMessages)
    .where(eq(oFormMessages.oFormVersionId, form.id))
    .orderBy(asc(oFormMessages.language));
  const messages: PdfMessage[] = OFORM_MESSAGE_TYPES.flatMap((type) => {
    const rows = own.filter((m) => m.messageType === type);
    const list: PdfMessage[] = rows.map((m) => ({ type, language: m.language, message: plainText(m.message), isDefault: false }));
    if (!rows.some((m) => m.language === 'en')) list.unshift({ type, language: 'en', message: DEFAULT_OFORM_MESSAGES[type].en, isDefault: true });
    return list;
  });
  return {
    title: form.title,
    identity: form.identity,
    version: form.version,
    isApproved: form.isApproved,
    approvedAt: form.approvedAt,
    engagementName: form.engagementName,
    sponsorName: form.sponsorName,
    languages: langs.map((l) => l.name),
    pages: pdfPages,
    messages,
  };
}

export function oFormExportsRoutes(app: Hono<AppEnv>, db: Db) {
  /**
   * showApproved 0 exports this version; 1 exports the approved version of its survey (409
   * while there is none), so a link to any version can always fetch what participants see.
   */
  app.post('/export-to-pdf/:id/:showApproved', describe({ summary: 'Export a survey version as PDF' }), async (c) => {
    const user = c.get('user');
    const flag = c.req.param('showApproved');
    if (flag !== '0' && flag !== '1') throw badRequest("'showApproved' must be 0 or 1.", 'showApproved');
    const form = await findForm(db, parseId(c.req.param('id')), user);
    if (!form) throw notFound('survey');
    let target = form;
    if (flag === '1') {
      const [approved] = await selectForms(db)
        .where(and(eq(oForms.identity, form.identity), eq(oForms.isApproved, true), engagementScope(user)))
        .orderBy(desc(oForms.version))
        .limit(1);
      if (!approved) throw conflict(NO_APPROVED_VERSION);
      target = approved;
    }
    const body: OFormExport = {
      id: String(target.id),
      filename: exportFilename(target, 'pdf'),
      url: `/api/o-forms/o-form-exports/${target.id}`,
    };
    const { id, ...attributes } = body;
    c.set('audit', { entity: 'o-forms', entityId: target.id, action: 'export-link', meta: { format: 'pdf', showApproved: flag === '1', requestedId: form.id } });
    return sendResource(c, toResource(OFORM_EXPORT_TYPE, id, attributes));
  });

  app.get('/o-form-exports/:id', describe({ summary: 'Export a survey version (JSON, PDF or CSV of answers)', answer: { media: 'application/pdf' } }), async (c) => {
    const user = c.get('user');
    const form = await findForm(db, parseId(c.req.param('id')), user);
    if (!form) throw notFound('survey export');
    const bytes = await renderSurveyPdf(await surveyPdfContent(db, form, user));
    c.set('audit', { entity: 'o-forms', entityId: form.id, action: 'export', meta: { format: 'pdf' } });
    return c.body(bytes.slice().buffer, 200, {
      'Content-Type': 'application/pdf',
      'Content-Disposition': attachmentDisposition(exportFilename(form, 'pdf')),
      'Cache-Control': 'private, no-store',
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Metrics

const metricsOf = async (c: Context<AppEnv>, deps: Deps) => {
  const form = await findForm(deps.db, parseId(c.req.param('id')), c.get('user'));
  if (!form) throw notFound('survey');
  return { form, metrics: await pageMetrics(deps.db, form, { now: nowOf(deps), abandonMinutes: deps.config.funnelAbandonMinutes }) };
};

/** GET /api/export-survey-metrics/{id}: the version's page metrics (funnel/pages.ts) as CSV. */
export function surveyMetricsRoutes(deps: Deps) {
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));
  app.get('/:id', describe({ summary: "Export a survey version's page metrics", answer: { media: 'text/csv' } }), async (c) => {
    const { form, metrics } = await metricsOf(c, deps);
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

/** GET /api/survey-page-metrics/{id}: the same figures as JSON:API, for the survey view's drop-off chart. */
export function surveyPageMetricsRoutes(deps: Deps) {
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));
  app.get('/:id', describe({ summary: "A survey version's page metrics (views, completions, drop-off, time on page)" }), async (c) => {
    const { metrics } = await metricsOf(c, deps);
    return sendDocument(c, { data: metrics.map((m) => toResource(SURVEY_PAGE_METRICS_TYPE, m.page, { ...m })), meta: { total: metrics.length } });
  });
  return app;
}
