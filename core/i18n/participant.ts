/** Strings participants read in the widget, per language; English is the fallback. */
import { fallbackIsoCode } from './index';

const TEXT = {
  en: {
    title: 'Study questionnaire',
    unavailable: 'This questionnaire is not available right now. Please try again later.',
    badSnippet: 'This questionnaire could not be loaded. Please let the website owner know.',
  },
  es: {
    title: 'Cuestionario del estudio',
    unavailable: 'Este cuestionario no está disponible en este momento. Inténtelo de nuevo más tarde.',
    badSnippet: 'No se pudo cargar este cuestionario. Avise al propietario del sitio web.',
  },
} as const;

export type ParticipantText = Record<keyof (typeof TEXT)['en'], string>;

export function participantStrings(language?: string): ParticipantText {
  const base = fallbackIsoCode(language ?? 'en');
  return base === 'es' ? TEXT.es : TEXT.en;
}
