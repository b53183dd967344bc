/**
 * Checking a page's answers before they are sent, with the same rules and messages the server
 * applies (core/validation), in the participant's language.
 */
import type { FieldConfiguration, FieldType } from '../model/survey';
import { validateParticipantValue as validateValue, type ParticipantRule as Rule } from '../validation/ruleCheck';
import type { Answer } from './navigation';

export type Answers = Record<string, Answer>;

export interface CheckedField {
  identity: string;
  type: FieldType;
  configuration: Pick<FieldConfiguration, 'required' | 'minLength' | 'maxLength'>;
}

/**
 * The rules a kind of value implies, for survey questions and contact fields alike; a ZIP is a
 * postal code of `region`, the run's channel's (its locale's region: CA for en-CA), the US by default.
 */
export function kindRules(kind: string, region?: string): Rule[] {
  switch (kind) {
    case 'email':
      return ['email'];
    case 'phone':
      return ['us_phone'];
    case 'zip':
      return [{ rule: 'postal', region }];
    case 'number':
      return ['numeric'];
    case 'date':
    case 'dob':
      // Date inputs give calendar days as y-MM-dd.
      return [{ rule: 'date_format', utc: true }];
    default:
      return [];
  }
}

/** The rules a question's type and configuration imply (a ZIP's by `region`, as kindRules). */
export function fieldRules(field: CheckedField, region?: string): Rule[] {
  const rules: Rule[] = field.configuration.required ? ['required'] : [];
  rules.push(...kindRules(field.type, region));
  if (field.type === 'text') {
    if (field.configuration.minLength !== undefined) rules.push({ rule: 'min', length: field.configuration.minLength });
    if (field.configuration.maxLength !== undefined) rules.push({ rule: 'max', length: field.configuration.maxLength });
  }
  return rules;
}

/** An unanswered 'multiple' question is an empty list; for `required` it is no answer. */
const normalized = (answer: Answer): Answer => (Array.isArray(answer) && answer.length === 0 ? null : answer);

/** Each field's first problem, keyed by field identity; empty when the page may be sent. `region`: the run's channel's. */
export function checkAnswers(fields: readonly CheckedField[], answers: Answers, lang = 'en', region?: string): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const field of fields) {
    if (field.type === 'placeholder') continue;
    const problem = validateValue(normalized(answers[field.identity]), fieldRules(field, region), lang);
    if (problem) problems[field.identity] = problem;
  }
  return problems;
}
