/**
 * The building blocks every entity schema uses, each carrying its message from the catalogue
 * so a field's rule and its wording live together.
 */
import * as v from 'valibot';
import { message } from '../validation/messages';
import { hasMaxLength, hasMinLength, isColorHex, isDateFormat, isEmail, type DateFormatOptions } from '../validation/rules';

/** A required single-line text: trimmed, not empty, at most `max` characters. */
export const requiredText = (max: number) =>
  v.pipe(
    v.string(message('required')),
    v.trim(),
    v.nonEmpty(message('required')),
    v.check((s) => hasMaxLength(s, max), message('max', { length: max })),
  );

/** An optional text: absent, null or a string of at most `max` characters ('' becomes null). */
export const optionalText = (max: number) =>
  v.optional(
    v.nullable(
      v.pipe(
        v.string(),
        v.trim(),
        v.check((s) => hasMaxLength(s, max), message('max', { length: max })),
        v.transform((s) => (s === '' ? null : s)),
      ),
    ),
  );

export const flag = () => v.boolean(message('boolean'));

/** A database id given as a number: a positive integer. */
export const idNumber = () => v.pipe(v.number(message('integer')), v.integer(message('integer')), v.minValue(1, message('integer')));

export const email = () => v.pipe(v.string(message('required')), v.trim(), v.check(isEmail, message('email')));
/** A text of `min` to `max` characters, kept as typed (passwords: no trimming). */
export const lengthText = (min: number, max: number) =>
  v.pipe(
    v.string(message('required')),
    v.check((s) => hasMinLength(s, min), message('min', { length: min })),
    v.check((s) => hasMaxLength(s, max), message('max', { length: max })),
  );

/** A date typed in the locale's short format, or y-MM-dd with `{ utc: true }` (SPEC date_format). */
export const dateText = (options: DateFormatOptions = {}) =>
  v.pipe(
    v.string(message('date_format')),
    v.trim(),
    v.check((s) => isDateFormat(s, options), message('date_format')),
  );

export const colorHex = () => v.pipe(v.string(message('color_hex')), v.check(isColorHex, message('color_hex')));

/** One problem with an input, named by the JSON pointer of the value it is about. */
export interface FieldIssue {
  pointer: string;
  detail: string;
}

/** Valibot issues as pointer + message pairs, e.g. `/data/attributes/name`. */
export function toFieldIssues(issues: readonly v.BaseIssue<unknown>[], base: string): FieldIssue[] {
  return issues.map((issue) => {
    const keys = (issue.path ?? []).map((item) => String(item.key));
    return { pointer: [base, ...keys].join('/'), detail: issue.message };
  });
}

/** Issues keyed by their first path segment, for showing beside form fields. */
export function issuesByField(issues: readonly v.BaseIssue<unknown>[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path?.[0]?.key;
    if (key !== undefined && !(String(key) in out)) out[String(key)] = issue.message;
  }
  return out;
}
