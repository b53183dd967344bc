/**
 * Strings participants read in the widget up to the survey's outcome, per language; English is
 * the fallback. The steps after the survey have theirs in ./participantSteps.ts (the widget loads
 * them with those steps).
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

/** Every string in Spanish too: the type asks for each key of the English ones. */
const es: ParticipantText = {
  title: 'Cuestionario del estudio',
  badSnippet: 'No se pudo cargar este cuestionario. Avise al propietario del sitio web.',
  failed: 'Algo salió mal. Compruebe su conexión e inténtelo de nuevo.',
  retry: 'Reintentar',
  loading: 'Cargando…',
  next: 'Siguiente',
  back: 'Atrás',
  required: 'obligatorio',
  choose: 'Elija…',
  yes: 'Sí',
  no: 'No',
  progress: 'Progreso',
  qualified: '¡Gracias! Es posible que pueda participar.',
  notQualified: 'Gracias por su tiempo.',
  notActive: 'Este cuestionario no está disponible en este momento.',
  noTrialSites: 'Por ahora no hay ningún centro del estudio cerca de usted.',
  completed: '¡Gracias! Un miembro del equipo del estudio se pondrá en contacto con usted.',
  preview: 'Vista previa: no se guarda nada.',
};

/** The strings of `language`'s base language when there are some, else English. */
export const pickStrings = <T>(table: { en: T; es: T }, language?: string): T => (fallbackIsoCode(language ?? 'en') === 'es' ? table.es : table.en);

export const participantStrings = (language?: string): ParticipantText => pickStrings({ en, es }, language);

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
