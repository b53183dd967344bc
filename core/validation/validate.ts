/**
 * The form rules of SPEC section 5 by name, each with its message: what an admin form runs on a
 * field's value (dates in the locale's format or y-MM-dd). The rule logic itself is
 * ruleCheck.ts's, shared with the participant side.
 */
import { message } from './messages';
import { createValidator, type BaseRule } from './ruleCheck';
import { isColorHex, isDateFormat, type DateFormatOptions } from './rules';

export type Rule = BaseRule | 'color_hex' | ({ rule: 'date_format' } & DateFormatOptions);

export type RuleName = Extract<Rule, string> | Exclude<Rule, string>['rule'];

/** The message of the first rule `value` breaks, in `lang`, or null when it keeps them all. */
export const validateValue = createValidator<Rule>(
  (s, rule, lang) => isDateFormat(s, { locale: rule.locale ?? lang, utc: rule.utc }),
  // Only staff set colours: the participant's validator (and the widget) carries none of this.
  (rule, s, lang) => (rule === 'color_hex' && !isColorHex(s.trim()) ? message('color_hex', {}, lang) : null),
);

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
