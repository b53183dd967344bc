/**
 * Answers at rest. An answer that identifies or describes a person — a birth date, a ZIP code,
 * free text, a number, an e-mail or phone typed into a question — is sealed with the PHI cipher
 * (./phi.ts, as contact values) into `sealed_value`, and `field_value` stays null. A choice
 * answer (option values) stays readable in `field_value`: the options are the survey's own
 * words, and qualification, transitions and the funnel count them.
 *
 * Reading goes by the column that is set, not by the question's type, so an answer stored before
 * sealing (and not yet sealed by the participant area's sealClearAnswers) still reads.
 */
import { CHOICE_TYPES } from '@core/model/survey';
import type { Answer } from '@core/survey/navigation';
import type { PhiCipher } from './phi';

/** An answer as stored: exactly one of the two is non-null. */
export interface StoredAnswer {
  value: unknown;
  sealed: string | null;
}

const readableTypes: ReadonlySet<string> = new Set(CHOICE_TYPES);

/** Whether answers to a question of `type` stay readable at rest (choices); any other type, known or not, is sealed. */
export const isReadableAtRest = (type: string) => readableTypes.has(type);

/** The stored form of `value`, an answer to a question of `type`. */
export function storeAnswer(phi: PhiCipher, type: string, value: unknown): StoredAnswer {
  if (isReadableAtRest(type)) return { value, sealed: null };
  return { value: null, sealed: phi.seal(JSON.stringify(value)) };
}

/** The answer given, from its stored form. Throws PhiError when a sealed one cannot be opened. */
export function openAnswer(phi: PhiCipher, stored: StoredAnswer): Answer {
  if (stored.sealed === null) return stored.value as Answer;
  return JSON.parse(phi.open(stored.sealed)) as Answer;
}
