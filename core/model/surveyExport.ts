/**
 * What hangs off a versioned survey besides its content: the languages it is offered in
 * (/api/o-forms/languages-o-forms), the translations still missing before it can be approved,
 * its PDF export and its page-metrics CSV.
 */
import * as v from 'valibot';
import { chooseFromList } from '../validation/chooseFromList';
import { count, idText, resourceAnswer, type Answered } from './answers';

export const OFORM_LANGUAGE_TYPE = 'languages-o-forms';
export const OFORM_EXPORT_TYPE = 'o-form-exports';
export const MISSING_TRANSLATION_TYPE = 'missing-translations';

/** One active language (id `${oFormId}-${languageId}`) and whether the survey is offered in it (the default language always is). */
export const OFORM_LANGUAGE = resourceAnswer(
  OFORM_LANGUAGE_TYPE,
  v.object({ oFormId: idText(), languageId: idText(), isoCode: v.string(), name: v.string(), isEnabled: v.boolean() }),
);
export type SurveyLanguage = Answered<typeof OFORM_LANGUAGE>;

/**
 * A text an enabled non-default language has no translation for. `id` is the page's id (kind
 * page: its title), the question's id (kinds question and helperText),
 * `${questionId}:${optionValue}` for an option, and the message type for a message; `title` is
 * the text to translate (the message type for a message).
 */
export const MISSING_TRANSLATION_KINDS = ['page', 'question', 'helperText', 'option', 'message'] as const;
export interface MissingTranslation {
  kind: (typeof MISSING_TRANSLATION_KINDS)[number];
  id: string;
  title: string;
  /** API iso code (es, es_MX). */
  language: string;
}

/**
 * A missing translation on the wire: a resource of its own, so the list is a JSON:API document.
 * Its id names the language, the kind and the text (a question's title and helper text share the
 * question's id); the text's id is the attribute `itemId`, as attributes may not be named `id`.
 */
export const MISSING_TRANSLATION = resourceAnswer(
  MISSING_TRANSLATION_TYPE,
  v.object({
    kind: v.picklist(MISSING_TRANSLATION_KINDS),
    itemId: v.pipe(
      v.string(),
      v.description("The text's own id: a page's or question's id, `questionId:optionValue` for an option, the message type for a message."),
    ),
    title: v.pipe(v.string(), v.description('The text to translate (the message type for a message).')),
    language: v.pipe(v.string(), v.description('The API iso code (es, es_MX).')),
  }),
);
export type MissingTranslationAttributes = v.InferOutput<typeof MISSING_TRANSLATION.attributes>;
export const missingTranslationId = (m: MissingTranslation) => `${m.language}:${m.kind}:${m.id}`;

export const MISSING_TRANSLATIONS_CODE = 'missing_translations';
export const MISSING_TRANSLATIONS = (n: number) =>
  `This version cannot be approved: ${n} text${n === 1 ? ' has' : 's have'} no translation in an enabled language. Add the translations or disable the language first.`;

/** The answer to POST /api/o-forms/export-to-pdf/{id}/{showApproved} (id: the exported version's). */
export const OFORM_EXPORT = resourceAnswer(
  OFORM_EXPORT_TYPE,
  v.object({
    filename: v.string(),
    url: v.pipe(v.string(), v.description('Site-absolute path of the PDF (GET with the staff token): /api/o-forms/o-form-exports/{id}.')),
  }),
);
export type SurveyExport = Answered<typeof OFORM_EXPORT>;

/** GET /api/export-survey-metrics/{id}: one row per page, in display order. */
export const SURVEY_METRICS_COLUMNS = ['page', 'title', 'views', 'completions', 'drop_off', 'median_seconds', 'p90_seconds'] as const;

/** One page's figures, as the admin's drop-off chart reads them (GET /api/export-survey-metrics/{id} with Accept JSON:API). */
export const SURVEY_PAGE_METRICS_TYPE = 'survey-page-metrics';
/** One page's figures (id: its position, from 1). */
export const SURVEY_PAGE_METRICS = resourceAnswer(
  SURVEY_PAGE_METRICS_TYPE,
  v.object({
    page: v.pipe(v.number(), v.integer(), v.minValue(1)),
    identity: v.string(),
    title: v.string(),
    views: count(),
    completions: count(),
    dropOff: count(),
    medianSeconds: v.pipe(v.nullable(v.number()), v.description('Median time on the page, in seconds (one decimal); null before any timing.')),
    p90Seconds: v.nullable(v.number()),
  }),
);
export type SurveyPageMetrics = Answered<typeof SURVEY_PAGE_METRICS>;

export const NO_APPROVED_VERSION = 'This survey has no approved version yet. Approve one, or export this version.';
export const DEFAULT_LANGUAGE_STAYS = 'The default language is always enabled.';
export const LANGUAGE_NOT_AVAILABLE = chooseFromList('active languages');
