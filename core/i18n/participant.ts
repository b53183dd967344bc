/**
 * Strings participants read in the widget up to the survey's outcome, in English; English is
 * the fallback. The steps after the survey have theirs in ./participantSteps.ts (the widget loads
 * them with those steps), and Spanish for both is in ./participantEs.ts, a chunk the widget
 * loads only for a Spanish-speaking participant.
 */
import { fallbackIsoCode } from './index';

const en = {
  title: 'Study questionnaire',
  badSnippet: 'This questionnaire could not be loaded. Please let the website owner know.',
  failed: 'Something went wrong. Please check your connection and try again.',
  retry: 'Try again',
  loading: 'Loading…',
  next: 'Next',
  back: 'Back',
  required: 'required',
  choose: 'Choose…',
  yes: 'Yes',
  no: 'No',
  progress: 'Progress',
  qualified: 'Thank you! You may be able to take part.',
  notQualified: 'Thank you for your time.',
  notActive: 'This questionnaire is not available right now.',
  noTrialSites: 'There is no study site near you at the moment.',
  completed: 'Thank you! A member of the study team will contact you.',
  preview: 'Preview: nothing is stored.',
};

export type ParticipantText = Record<keyof typeof en, string>;

/** The Spanish strings once loaded (./participantEs.ts): the widget's, then its steps', in the English keys' order. */
let es: readonly string[] | undefined;

/** Makes the Spanish strings available (the widget loads them only for a participant who reads Spanish). */
export const addSpanish = (strings: readonly string[]) => void (es = strings);

/** The writing direction of a language (API form, e.g. `ar`, `he_IL`): the card's `dir`, never the host page's. */
export const textDirection = (language: string): 'rtl' | 'ltr' => (/^(?:ar|he|fa|ur|yi|ps|dv|ckb|sd|ug)(?:[-_]|$)/i.test(language) ? 'rtl' : 'ltr');

/** Spanish or one of its variants (es, es-MX, es_US). */
export const isSpanish = (language = ''): boolean => /^es(?:[-_]|$)/i.test(language);

/** The loaded strings of `language` (Spanish and its variants), else undefined: English. */
export const loadedStrings = (language?: string): readonly string[] | undefined => (isSpanish(language) ? es : undefined);

/** The language the participant's strings are in for `language`: es when Spanish is loaded for it, else en. */
export const stringsLanguage = (language?: string): string => (loadedStrings(language) ? 'es' : 'en');

/** `table`'s keys with the loaded `strings` from `from` on, or `table` itself (English) when none are loaded. */
export const pickStrings = <T extends object>(table: T, strings: readonly string[] | undefined, from = 0): T =>
  strings ? (Object.fromEntries(Object.keys(table).map((k, i) => [k, strings[from + i]])) as T) : table;

/** How many strings the widget's own table has: the steps' follow them in the loaded list. */
export const PARTICIPANT_COUNT = Object.keys(en).length;

export const participantStrings = (language?: string): ParticipantText => pickStrings(en, loadedStrings(language));

/**
 * The participant's language among the survey's (API iso codes): the snippet's, else the
 * browser's in order of preference, each tried as given, then as its base language, then as any
 * variant of that base; English when none matches.
 */
export function chooseLanguage(surveyLanguages: readonly string[], wanted: readonly (string | undefined)[]): string {
  const available = surveyLanguages.map((l) => l.replace(/-/g, '_'));
  const lower = available.map((l) => l.toLowerCase());
  for (const raw of wanted) {
    if (!raw) continue;
    const code = raw.trim().replace(/-/g, '_').toLowerCase();
    const exact = lower.indexOf(code);
    if (exact >= 0) return available[exact]!;
    const base = fallbackIsoCode(code);
    const sibling = lower.findIndex((l) => l === base || fallbackIsoCode(l) === base);
    if (sibling >= 0) return available[sibling]!;
  }
  return 'en';
}
