/**
 * The rule runner behind `validateValue`, parameterised by how a date is checked, so the
 * participant side (dates are always y-MM-dd) runs the same rules without the locale date
 * parser the admin needs. Apart from `required` and `acceptTerms`, rules pass an empty value:
 * whether a field may be empty is `required`'s business alone.
 */
import { isIsoDate } from './isoDate';
import { ruleMessage as message } from './messages';
import { hasMaxLength, hasMinLength, isAccepted, isBlank, isColorHex, isEmail, isNumeric, isPresent, isUsPhone } from './rules';

export type BaseRule =
  | 'required'
  | 'acceptTerms'
  | 'email'
  | 'us_phone'
  | 'numeric'
  | 'color_hex'
  | { rule: 'min'; length: number }
  | { rule: 'max'; length: number };

interface DateRule {
  rule: 'date_format';
}

/** A date rule the participant side can check: ISO (y-MM-dd) only. */
export type ParticipantRule = BaseRule | { rule: 'date_format'; utc: true };

const text = (value: unknown): string => (typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value));

/** A `validateValue` whose date_format rule is checked by `isDate`. */
export function createValidator<R extends BaseRule | DateRule>(
  isDate: (text: string, rule: Extract<R, DateRule>, lang: string) => boolean,
): (value: unknown, rules: readonly R[], lang?: string) => string | null {
  return (value, rules, lang = 'en') => {
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
        const r = rule as Exclude<BaseRule, string> | DateRule;
        if (r.rule === 'min' && !hasMinLength(s, r.length)) return message('min', { length: r.length }, lang);
        if (r.rule === 'max' && !hasMaxLength(s, r.length)) return message('max', { length: r.length }, lang);
        if (r.rule === 'date_format' && !isDate(s, rule as Extract<R, DateRule>, lang)) return message('date_format', {}, lang);
        continue;
      }
      if (rule === 'email' && !isEmail(s.trim())) return message('email', {}, lang);
      if (rule === 'us_phone' && !isUsPhone(s.trim())) return message('us_phone', {}, lang);
      if (rule === 'numeric' && !isNumeric(s.trim())) return message('numeric', {}, lang);
      if (rule === 'color_hex' && !isColorHex(s.trim())) return message('color_hex', {}, lang);
    }
    return null;
  };
}

/** The message of the first rule `value` breaks, in `lang`, or null: the participant side's rules. */
export const validateParticipantValue = createValidator<ParticipantRule>((s) => isIsoDate(s));
