/**
 * The rule runner behind `validateValue`, parameterised by how a date is checked, so the
 * participant side (dates are always y-MM-dd) runs the same rules without the locale date
 * parser the admin needs. Apart from `required` and `acceptTerms`, rules pass an empty value:
 * whether a field may be empty is `required`'s business alone.
 */
import { isIsoDate } from './isoDate';
import { ruleMessage as message } from './messages';
import { hasMaxLength, hasMinLength, isAccepted, isBlank, isEmail, isNumeric, isPostalCode, isPresent, isUsPhone } from './rules';

/** The rules a participant's values are checked by (staff forms add color_hex, ./validate.ts). */
export type BaseRule =
  | 'required'
  | 'acceptTerms'
  | 'email'
  | 'us_phone'
  | 'numeric'
  | { rule: 'min'; length: number }
  | { rule: 'max'; length: number }
  /** A postal code of the region (ISO 3166-1 alpha-2): the run's channel's, the US by default. */
  | { rule: 'postal'; region?: string };

interface DateRule {
  rule: 'date_format';
}

/** A date rule the participant side can check: ISO (y-MM-dd) only. */
export type ParticipantRule = BaseRule | { rule: 'date_format'; utc: true };

const text = (value: unknown): string => (typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value));

/**
 * A `validateValue` whose date_format rule is checked by `isDate`, and whose other named rules
 * (beyond BaseRule's) by `other`, which answers a broken rule's message or null.
 */
export function createValidator<R extends BaseRule | DateRule | string>(
  isDate: (text: string, rule: Extract<R, DateRule>, lang: string) => boolean,
  other?: (rule: Exclude<Extract<R, string>, BaseRule>, text: string, lang: string) => string | null,
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
        if (r.rule === 'postal' && !isPostalCode(s.trim(), r.region)) return message('postal', {}, lang);
        if (r.rule === 'date_format' && !isDate(s, rule as Extract<R, DateRule>, lang)) return message('date_format', {}, lang);
        continue;
      }
      if (rule === 'email' && !isEmail(s.trim())) return message('email', {}, lang);
      if (rule === 'us_phone' && !isUsPhone(s.trim())) return message('us_phone', {}, lang);
      if (rule === 'numeric' && !isNumeric(s.trim())) return message('numeric', {}, lang);
      const broken = other?.(rule as Exclude<Extract<R, string>, BaseRule>, s, lang);
      if (broken) return broken;
    }
    return null;
  };
}

/** The message of the first rule `value` breaks, in `lang`, or null: the participant side's rules. */
export const validateParticipantValue = createValidator<ParticipantRule>((s) => isIsoDate(s));
