/**
 * GET /api/o-forms/languages-o-forms?oFormId=ID: every active language, each marked enabled when
 * the survey version offers it (the default language always is).
 */
import type { Hono } from 'hono';
import { OFORM_LANGUAGE, OFORM_LANGUAGE_TYPE, type SurveyLanguage } from '@core/model/surveyExport';
import type { AppEnv } from '../context';
import type { Db } from '../db/open';
import { notFound } from '../http/errors';
import { idParam, required } from '../http/params';
import { toResource } from '../http/serialize';
import { findForm } from './versions';
import { surveyLanguageChoices } from './languages';
import { answerWholeList, wholeListRead } from '../http/wholeList';
import { describe } from '../openapi/describe';

/** A survey version's languages: the version's. */
const LANGUAGES_QUERY = { oFormId: required(idParam('survey version', 'The survey version.')) };

export function languagesOFormsRoutes(app: Hono<AppEnv>, db: Db) {
  app.get('/languages-o-forms', describe(wholeListRead("List a survey version's languages", OFORM_LANGUAGE, LANGUAGES_QUERY)), (c) =>
    answerWholeList(c, async () => {
      const { oFormId: formId } = c.var.query;
      const form = await findForm(db, formId, c.get('user'));
      if (!form) throw notFound('survey');
      const rows = await surveyLanguageChoices(db, form.id);
      return rows.map((l) => {
        const resource: SurveyLanguage = {
          id: `${form.id}-${l.id}`,
          oFormId: String(form.id),
          languageId: String(l.id),
          isoCode: l.isoCode,
          name: l.name,
          isEnabled: l.isEnabled,
        };
        const { id, ...attributes } = resource;
        return toResource(OFORM_LANGUAGE_TYPE, id, attributes);
      });
    }),
  );
}
