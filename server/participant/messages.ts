/**
 * The participant-facing pair of messages (contact form and consent) for an outcome of a run,
 * in the participant's language with English as the fallback, sanitized (staff write HTML).
 *
 * Where each text comes from, first found wins: in the participant's language (then its base
 * language, es_MX -> es), the screener's own message for the outcome, then the survey version's
 * message of the matching type (o_form_messages), then the built-in default; only then the same
 * chain in English. So a Spanish participant sees the survey's Spanish text before the
 * screener's English one.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { DEFAULT_LANGUAGE, fallbackIsoCode, normalizeIsoCode } from '@core/i18n';
import { DEFAULT_SURVEY_MESSAGES, type SurveyMessageType } from '@core/model/surveyMessage';
import type { ScreenerOutcome } from '@core/model/screener';
import type { OutcomeMessages } from '@core/participant/responses';
import type { Db } from '../db/open';
import { oFormMessages, screenerMessages } from '../db/schema';
import { sanitizeHtml } from '../security/sanitizeHtml';

/** The survey message types that stand for each outcome's pair, where there are any. */
const OUTCOME_MESSAGE_TYPES: Partial<Record<RunOutcome, { contactForm?: SurveyMessageType; consent?: SurveyMessageType }>> = {
  notActive: { contactForm: 'not_active_contact_form', consent: 'not_active_consent' },
  notQualified: { contactForm: 'not_qualified_contact_form', consent: 'not_qualified_consent' },
  noTrialSites: { contactForm: 'no_trial_sites_contact_form', consent: 'no_trial_sites_consent' },
  trialSiteSelected: { contactForm: 'trial_site_selected_contact_form', consent: 'trial_site_selected_consent' },
  // Qualified comes before a site is chosen: the consent is the one given with the chosen site.
  qualified: { consent: 'trial_site_selected_consent' },
  completed: { contactForm: 'completed_contact_form' },
};

/** What a run can end in: the screener's outcomes, and a path that stops before the survey's end (no staff text). */
export type RunOutcome = ScreenerOutcome | 'incomplete';

/** Defaults for texts no survey message type covers. */
const OWN_DEFAULTS: Partial<Record<RunOutcome, { contactForm?: { en: string; es: string } }>> = {
  incomplete: {
    contactForm: {
      en: 'Some pages of this questionnaire have not been answered yet, so we cannot tell whether you may take part.',
      es: 'Algunas páginas de este cuestionario aún no tienen respuesta, por lo que no podemos saber si puede participar.',
    },
  },
  qualified: {
    contactForm: {
      en: 'Good news: you may be a match for this study. Enter your ZIP code to find a study site near you.',
      es: 'Buenas noticias: usted podría ser adecuado para este estudio. Introduzca su código postal para encontrar un centro del estudio cerca de usted.',
    },
  },
};

/** The participant's language, its base language, then English, without repeats. */
export function languageChain(language: string | null | undefined): string[] {
  const code = language && language.trim() ? normalizeIsoCode(language) : DEFAULT_LANGUAGE;
  return [...new Set([code, fallbackIsoCode(code), DEFAULT_LANGUAGE])];
}

type Part = Exclude<keyof OutcomeMessages, 'sms'>;
const SCREENER_KEY: Record<Part, 'contactFormMessage' | 'consentMessage'> = { contactForm: 'contactFormMessage', consent: 'consentMessage' };

export async function outcomeMessages(
  db: Db,
  screenerId: number | null,
  outcome: RunOutcome,
  language: string | null | undefined,
  oFormId: number | null = null,
): Promise<OutcomeMessages> {
  const chain = languageChain(language);
  const [screenerRow] =
    screenerId === null || outcome === 'incomplete'
      ? []
      : await db
          .select()
          .from(screenerMessages)
          .where(and(eq(screenerMessages.screenerId, screenerId), eq(screenerMessages.outcome, outcome)));
  const types = OUTCOME_MESSAGE_TYPES[outcome] ?? {};
  const wanted = [types.contactForm, types.consent].filter((t): t is SurveyMessageType => !!t);
  const formRows =
    oFormId === null || wanted.length === 0
      ? []
      : await db
          .select({ messageType: oFormMessages.messageType, language: oFormMessages.language, message: oFormMessages.message })
          .from(oFormMessages)
          .where(and(eq(oFormMessages.oFormVersionId, oFormId), inArray(oFormMessages.messageType, wanted)));

  const pick = (part: Part): string => {
    const key = SCREENER_KEY[part];
    const type = types[part];
    for (const lang of chain) {
      const fromScreener = screenerRow?.translations[lang]?.[key] ?? (lang === DEFAULT_LANGUAGE ? screenerRow?.[key] : null);
      if (fromScreener?.trim()) return fromScreener;
      const fromForm = formRows.find((r) => r.messageType === type && r.language === lang)?.message;
      if (fromForm?.trim()) return fromForm;
      const defaults = type ? DEFAULT_SURVEY_MESSAGES[type] : part === 'contactForm' ? OWN_DEFAULTS[outcome]?.contactForm : undefined;
      if (defaults && (lang === 'en' || lang === 'es')) return defaults[lang];
    }
    return '';
  };
  return { contactForm: sanitizeHtml(pick('contactForm')), consent: sanitizeHtml(pick('consent')) };
}
