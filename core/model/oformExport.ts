/**
 * What hangs off a versioned survey besides its content: the languages it is offered in
 * (/api/o-forms/languages-o-forms), the translations still missing before it can be approved,
 * its PDF export and its page-metrics CSV.
 */
import { chooseFromList } from '../validation/chooseFromList';

export const OFORM_LANGUAGE_TYPE = 'languages-o-forms';
export const OFORM_EXPORT_TYPE = 'o-form-exports';
export const MISSING_TRANSLATION_TYPE = 'missing-translations';

/** One active language and whether the survey is offered in it (the default language always is). */
export interface OFormLanguage {
  /** `${oFormId}-${languageId}` */
  id: string;
  oFormId: string;
  languageId: string;
  isoCode: string;
  name: string;
  isEnabled: boolean;
}

/**
 * A text an enabled non-default language has no translation for. `id` is the page's id (kind
 * page: its title), the question's id (kinds question and helperText),
 * `${questionId}:${optionValue}` for an option, and the message type for a message; `title` is
 * the text to translate (the message type for a message).
 */
export interface MissingTranslation {
  kind: 'page' | 'question' | 'helperText' | 'option' | 'message';
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
export interface MissingTranslationAttributes extends Omit<MissingTranslation, 'id'> {
  itemId: string;
}
export const missingTranslationId = (m: MissingTranslation) => `${m.language}:${m.kind}:${m.id}`;

export const MISSING_TRANSLATIONS_CODE = 'missing_translations';
export const MISSING_TRANSLATIONS = (n: number) =>
  `This version cannot be approved: ${n} text${n === 1 ? ' has' : 's have'} no translation in an enabled language. Add the translations or disable the language first.`;

/** The answer to POST /api/o-forms/export-to-pdf/{id}/{showApproved}. */
export interface OFormExport {
  /** The exported version's id. */
  id: string;
  filename: string;
  /** Site-absolute path of the PDF (GET with the staff token): /api/o-forms/o-form-exports/{id}. */
  url: string;
}

/** GET /api/export-survey-metrics/{id}: one row per page, in display order. */
export const SURVEY_METRICS_COLUMNS = ['page', 'title', 'views', 'completions', 'drop_off', 'median_seconds', 'p90_seconds'] as const;

/** One page's figures, as the admin's drop-off chart reads them (GET /api/export-survey-metrics/{id} with Accept JSON:API). */
export const SURVEY_PAGE_METRICS_TYPE = 'survey-page-metrics';
export interface SurveyPageMetrics {
  id: string;
  page: number;
  identity: string;
  title: string;
  views: number;
  completions: number;
  dropOff: number;
  medianSeconds: number | null;
  p90Seconds: number | null;
}

export const NO_APPROVED_VERSION = 'This survey has no approved version yet. Approve one, or export this version.';
export const DEFAULT_LANGUAGE_STAYS = 'The default language is always enabled.';
export const LANGUAGE_NOT_AVAILABLE = chooseFromList('active languages');
