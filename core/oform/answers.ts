/**
 * Checking a page's answers before they are sent, with the same rules and messages the server
 * applies (core/validation), in the participant's language.
 */
import type { FieldConfiguration, FieldType } from '../model/oform';
import { validateParticipantValue as validateValue, type ParticipantRule as Rule } from '../validation/ruleCheck';
import type { Answer } from './navigation';

export type Answers = Record<string, Answer>;

export interface CheckedField {
  identity: string;
  type: FieldType;
  configuration: Pick<FieldConfiguration, 'required' | 'minLength' | 'maxLength'>;
}

/** The rules a question's type and configuration imply. */
export function fieldRules(field: CheckedField): Rule[] {
  const rules: Rule[] = field.configuration.required ? ['required'] : [];
  switch (field.type) {
    case 'email':
      rules.push('email');
      break;
    case 'phone':
      rules.push('us_phone');
      break;
    case 'zip':
      rules.push('numeric', { rule: 'min', length: 5 }, { rule: 'max', length: 5 });
      break;
    case 'number':
      rules.push('numeric');
      break;
    case 'text':
      if (field.configuration.minLength !== undefined) rules.push({ rule: 'min', length: field.configuration.minLength });
      if (field.configuration.maxLength !== undefined) rules.push({ rule: 'max', length: field.configuration.maxLength });
      break;
    case 'date':
    case 'dob':
      // Date inputs give calendar days as y-MM-dd.
      rules.push({ rule: 'date_format', utc: true });
      break;
    default:
      break;
  }
  return rules;
}

/** An unanswered 'multiple' question is an empty list; for `required` it is no answer. */
const normalized = (answer: Answer): Answer => (Array.isArray(answer) && answer.length === 0 ? null : answer);

/** Each field's first problem, keyed by field identity; empty when the page may be sent. */
export function checkAnswers(fields: readonly CheckedField[], answers: Answers, lang = 'en'): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const field of fields) {
    if (field.type === 'placeholder') continue;
    const problem = validateValue(normalized(answers[field.identity]), fieldRules(field), lang);
    if (problem) problems[field.identity] = problem;
  }
  return problems;
}
