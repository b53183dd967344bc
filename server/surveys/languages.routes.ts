/**
 * GET /api/o-forms/languages-o-forms?oFormId=ID: every active language, each marked enabled when
 * the survey version offers it (the default language always is).
 */
import type { Hono } from 'hono';
import { asc, eq } from 'drizzle-orm';
import { OFORM_LANGUAGE_TYPE, type OFormLanguage } from '@core/model/oformExport';
import type { AppEnv } from '../context';
import type { Db } from '../db/open';
import { languages, oFormLanguages } from '../db/schema';
import { badRequest, notFound } from '../http/errors';
import { parseId, assertQueryNames } from '../http/query';
import { sendList, toResource } from '../http/serialize';
import { findForm } from './versions';
import { describe } from '../openapi/describe';

export function languagesOFormsRoutes(app: Hono<AppEnv>, db: Db) {
  app.get('/languages-o-forms', describe({ summary: "List a survey version's languages", query: { oFormId: { description: 'The survey version.', required: true, schema: { type: 'string', pattern: '^[1-9][0-9]*$' } } }, answer: { list: null } }), async (c) => {
    assertQueryNames(new URL(c.req.url).searchParams, ['oFormId']);
    const raw = c.req.query('oFormId');
    const formId = parseId(raw);
    if (formId === null) throw badRequest("'oFormId' must be a survey version id.", 'oFormId');
    const form = await findForm(db, formId, c.get('user'));
    if (!form) throw notFound('survey');
    const enabled = new Set(
      (await db.select({ id: oFormLanguages.languageId }).from(oFormLanguages).where(eq(oFormLanguages.oFormId, form.id))).map((r) => r.id),
    );
    const rows = await db
      .select({ id: languages.id, name: languages.name, isoCode: languages.isoCode, isDefault: languages.isDefault })
      .from(languages)
      .where(eq(languages.isActive, true))
      .orderBy(asc(languages.name), asc(languages.id));
    const data = rows.map((l) => {
      const resource: OFormLanguage = {
        id: `${form.id}-${l.id}`,
        oFormId: String(form.id),
        languageId: String(l.id),
        isoCode: l.isoCode,
        name: l.name,
        isEnabled: l.isDefault || enabled.has(l.id),
      };
      const { id, ...attributes } = resource;
      return toResource(OFORM_LANGUAGE_TYPE, id, attributes);
    });
    return sendList(c, data, { total: data.length, page: 1, limit: data.length });
  });
}
