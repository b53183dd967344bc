/**
 * GET /api/o-forms/o-forms/{id}/missing-translations: the translations a survey version still
 * lacks — the same list that blocks mark_approved with a 422 (code missing_translations). The
 * rules are server/surveys/translations.ts's.
 */
import type { Hono } from 'hono';
import { MISSING_TRANSLATION, MISSING_TRANSLATION_TYPE, missingTranslationId, type MissingTranslationAttributes } from '@core/model/surveyExport';
import type { AppEnv } from '../context';
import type { Db } from '../db/open';
import { wholeListRead } from '../http/wholeList';
import { rowAtPath } from '../http/pathRow';
import { sendDocument, toResource } from '../http/serialize';
import { findMissingTranslations } from './translations';
import { findForm } from './versions';
import { describe } from '../openapi/describe';

export function oFormMissingTranslationsRoutes(app: Hono<AppEnv>, db: Db) {
  app.get('/o-forms/:id/missing-translations', describe(wholeListRead("List a survey version's missing translations", MISSING_TRANSLATION)), async (c) => {
    const { row: form } = await rowAtPath(c, 'survey', (id) => findForm(db, id, c.get('user')));
    const missing = await findMissingTranslations(db, form);
    return sendDocument(c, {
      data: missing.map((m) =>
        toResource(MISSING_TRANSLATION_TYPE, missingTranslationId(m), {
          kind: m.kind,
          itemId: m.id,
          title: m.title,
          language: m.language,
        } satisfies MissingTranslationAttributes),
      ),
    });
  });
}
