/**
 * Which texts of a survey version still lack a translation in its enabled languages: what
 * blocks approval (the server) and what the builder lists beside the Approve button.
 */
import type { MissingTranslation } from '../model/surveyExport';
import type { FieldConfiguration, PageTranslations } from '../model/survey';
import { DEFAULT_SURVEY_MESSAGES, SURVEY_MESSAGE_TYPES, type SurveyMessageType } from '../model/surveyMessage';

export interface TranslatableField {
  id: string;
  title: string;
  configuration: Pick<FieldConfiguration, 'helperText' | 'translations' | 'options'>;
}

export interface TranslatablePage {
  id: string;
  title: string;
  translations: PageTranslations;
}

export interface VersionMessage {
  messageType: string;
  language: string;
  message: string;
}

const filled = (text: string | null | undefined): boolean => !!text?.trim();

/**
 * For every language (API iso codes, the default language left out by the caller): each page's
 * title in page order; then in question order a question's title, its helper text when it has
 * one (an empty helper text has nothing to translate) and each option's label; then each of the
 * nine messages. A message is translated when the version has it in that language, or when the
 * version keeps the default English text and a default exists in that language (English and
 * Spanish ship defaults). `pages` are those participants can reach (the active ones) and
 * `fields` the questions they can: active ones on active pages.
 */
export function missingTranslations(
  languages: readonly string[],
  pages: readonly TranslatablePage[],
  fields: readonly TranslatableField[],
  messages: readonly VersionMessage[],
  defaultLanguage = 'en',
): MissingTranslation[] {
  const out: MissingTranslation[] = [];
  const messageText = (type: SurveyMessageType, language: string) => messages.find((m) => m.messageType === type && m.language === language)?.message;
  for (const language of languages) {
    if (language === defaultLanguage) continue;
    for (const page of pages) {
      if (!filled(page.translations[language]?.title)) out.push({ kind: 'page', id: page.id, title: page.title, language });
    }
    for (const field of fields) {
      const translated = field.configuration.translations[language];
      if (!filled(translated?.title)) out.push({ kind: 'question', id: field.id, title: field.title, language });
      if (filled(field.configuration.helperText) && !filled(translated?.helperText)) {
        out.push({ kind: 'helperText', id: field.id, title: field.configuration.helperText ?? '', language });
      }
      for (const option of field.configuration.options) {
        if (!filled(option.translations[language])) {
          out.push({ kind: 'option', id: `${field.id}:${option.value}`, title: option.label, language });
        }
      }
    }
    for (const type of SURVEY_MESSAGE_TYPES) {
      if (filled(messageText(type, language))) continue;
      const ownDefault = filled(messageText(type, defaultLanguage));
      const shipped = (DEFAULT_SURVEY_MESSAGES[type] as Record<string, string | undefined>)[language];
      if (!ownDefault && filled(shipped)) continue;
      out.push({ kind: 'message', id: type, title: type, language });
    }
  }
  return out;
}
