/**
 * The rule runner behind `validateValue`, parameterised by how a date is checked, so the
 * participant side (dates are always y-MM-dd) runs the same rules without the locale date
 * parser the admin needs. Apart from `required` and `acceptTerms`, rules pass an empty value:
 * whether a field may be empty is `required`'s business alone.
 */
import { isIsoDate } from './isoDate';
import { ruleMessage as message, type RuleMessageKey } from './messages';
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

type DateRule = {
  rule: 'date_format';
};

/** A date rule the participant side can check: ISO (y-MM-dd) only. */
export type ParticipantRule = BaseRule | { rule: 'date_format'; utc: true };

const text = (value: unknown): string => (typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value));

/** The named rules that check a value's text (trimmed), each answering its own message when broken. */
const TEXT_CHECKS: Partial<Record<string, (text: string) => boolean>> = { email: isEmail, us_phone: isUsPhone, numeric: isNumeric };

/**
 * A `validateValue` whose date_format rule is checked by `isDate`, and whose other named rules
 * (beyond BaseRule's) by `other`, which answers a broken rule's message or null.
 */
export function createValidator<R extends BaseRule | DateRule | string>(
  isDate: (text: string, rule: Extract<R, DateRule>, lang: string) => boolean,
  other?: (rule: Exclude<Extract<R, string>, BaseRule>, text: string, lang: string) => string | null,
): (value: unknown, rules: readonly R[], lang?: string) => string | null {
  return (value, rules, lang = 'en') => {
    const s = text(value);
    for (const rule of rules) {
      if (rule === 'required' || rule === 'acceptTerms') {
        if (!(rule === 'required' ? isPresent : isAccepted)(value)) return message(rule, {}, lang);
        continue;
      }
      if (isBlank(value)) continue;
      if (typeof rule === 'string') {
        const check = TEXT_CHECKS[rule];
        const broken = check
          ? !check(s.trim()) && message(rule as keyof typeof TEXT_CHECKS & RuleMessageKey, {}, lang)
          : other?.(rule as Exclude<Extract<R, string>, BaseRule>, s, lang);
        if (broken) return broken;
        continue;
      }
      const r = rule as Exclude<BaseRule, string> | DateRule;
      const broken =
        r.rule === 'min'
          ? !hasMinLength(s, r.length)
          : r.rule === 'max'
            ? !hasMaxLength(s, r.length)
            : r.rule === 'postal'
              ? !isPostalCode(s.trim(), r.region)
              : !isDate(s, rule as Extract<R, DateRule>, lang);
      // The rule itself fills its message's placeholders ({length}).
      if (broken) return message(r.rule, r, lang);
    }
    return null;
  };
}

/** The message of the first rule `value` breaks, in `lang`, or null: the participant side's rules. */
export const validateParticipantValue = createValidator<ParticipantRule>((s) => isIsoDate(s));
