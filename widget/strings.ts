/**
 * The participant's strings beyond English: Spanish is a chunk of its own
 * (core/i18n/participantEs.ts), fetched only when a wanted language is Spanish, while the survey
 * loads. English needs nothing; a chunk that fails to load leaves English for this page load.
 */
import { addSpanish, isSpanish } from '@core/i18n/participant';

let es: Promise<void> | undefined;

/** Resolves once the Spanish strings are there if any of `codes` is Spanish (never rejects). */
export const loadStrings = (codes: readonly (string | undefined)[]): Promise<void> | undefined =>
  codes.some(isSpanish)
    ? (es ??= import('@core/i18n/participantEs').then(
        (m) => addSpanish(m.es),
        () => undefined,
      ))
    : undefined;
