/**
 * The form rules of SPEC section 5 by name, each with its message: what a form (admin or
 * widget) runs on a field's value. Apart from `required` and `acceptTerms`, rules pass an empty
 * value: whether a field may be empty is `required`'s business alone.
 */
import { message } from './messages';
import {
  hasMaxLength,
  hasMinLength,
  isAccepted,
  isBlank,
  isColorHex,
  isDateFormat,
  isEmail,
  isNumeric,
  isPresent,
  isUsPhone,
  type DateFormatOptions,
} from './rules';

export type Rule =
  | 'required'
  | 'acceptTerms'
  | 'email'
  | 'us_phone'
  | 'numeric'
  | 'color_hex'
  | { rule: 'min'; length: number }
  | { rule: 'max'; length: number }
  | ({ rule: 'date_format' } & DateFormatOptions);

export type RuleName = Extract<Rule, string> | Exclude<Rule, string>['rule'];

const text = (value: unknown): string => (typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value));

/** The message of the first rule `value` breaks, in `lang`, or null when it keeps them all. */
export function validateValue(value: unknown, rules: readonly Rule[], lang = 'en'): string | null {
  for (const rule of rules) {
    const name = typeof rule === 'string' ? rule : rule.rule;
    if (name === 'required') {
      if (!isPresent(value)) return message('required', {}, lang);
      continue;
    }
    if (name === 'acceptTerms') {
      if (!isAccepted(value)) return message('acceptTerms', {}, lang);
      continue;
    }
    if (isBlank(value)) continue;
    const s = text(value);
    if (typeof rule !== 'string') {
      if (rule.rule === 'min' && !hasMinLength(s, rule.length)) return message('min', { length: rule.length }, lang);
      if (rule.rule === 'max' && !hasMaxLength(s, rule.length)) return message('max', { length: rule.length }, lang);
      if (rule.rule === 'date_format' && !isDateFormat(s, { locale: rule.locale ?? lang, utc: rule.utc })) {
        return message('date_format', {}, lang);
      }
      continue;
    }
    if (rule === 'email' && !isEmail(s.trim())) return message('email', {}, lang);
    if (rule === 'us_phone' && !isUsPhone(s.trim())) return message('us_phone', {}, lang);
    if (rule === 'numeric' && !isNumeric(s.trim())) return message('numeric', {}, lang);
    if (rule === 'color_hex' && !isColorHex(s.trim())) return message('color_hex', {}, lang);
  }
  return null;
}

/** Every field's first message, for a form of several fields; empty when all pass. */
export function validateFields<K extends string>(
  values: Partial<Record<K, unknown>>,
  rules: Partial<Record<K, readonly Rule[]>>,
  lang = 'en',
): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const key of Object.keys(rules) as K[]) {
    const problem = validateValue(values[key], rules[key] ?? [], lang);
    if (problem) out[key] = problem;
  }
  return out;
}
