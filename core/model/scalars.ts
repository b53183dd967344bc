/**
 * Value rules shared by the engagement and site-location schemas (dates, bounded numbers,
 * choices, links), each carrying its message.
 */
import * as v from 'valibot';
import { message } from '../validation/messages';
import { isIsoDate } from '../validation/isoDate';

export const DATE_MESSAGE = 'Must be a date (yyyy-mm-dd).';

/** An optional date: absent, null, '' (becomes null) or yyyy-mm-dd. */
export const optionalDate = () =>
  v.optional(
    v.nullable(
      v.pipe(
        v.string(DATE_MESSAGE),
        v.trim(),
        v.transform((s) => (s === '' ? null : s)),
        v.nullable(v.pipe(v.string(), v.check(isIsoDate, DATE_MESSAGE))),
      ),
    ),
  );

export const betweenMessage = (min: number, max: number) => `Must be a number from ${min} to ${max}.`;

/** An optional number within [min, max]; whole when `integer`. */
export const optionalNumber = (min: number, max: number, integer = false) =>
  v.optional(
    v.nullable(
      v.pipe(
        v.number(integer ? message('integer') : betweenMessage(min, max)),
        v.check((n) => !integer || Number.isInteger(n), message('integer')),
        v.minValue(min, betweenMessage(min, max)),
        v.maxValue(max, betweenMessage(min, max)),
      ),
    ),
  );

export const chooseMessage = (values: readonly string[]) => `Choose one of: ${values.join(', ')}.`;

/** An optional choice among `values` ('' becomes null). */
export const optionalChoice = <T extends string>(values: readonly T[]) =>
  v.optional(
    v.nullable(
      v.pipe(
        v.string(chooseMessage(values)),
        v.transform((s) => (s === '' ? null : s)),
        v.nullable(v.picklist(values, chooseMessage(values))),
      ),
    ),
  );

export const URL_MESSAGE = 'Must be a web address starting with http:// or https://.';

export const isWebUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

/** An optional http(s) address ('' becomes null). */
export const optionalUrl = (max = 2000) =>
  v.optional(
    v.nullable(
      v.pipe(
        v.string(URL_MESSAGE),
        v.trim(),
        v.maxLength(max, message('max', { length: max })),
        v.transform((s) => (s === '' ? null : s)),
        v.nullable(v.pipe(v.string(), v.check(isWebUrl, URL_MESSAGE))),
      ),
    ),
  );
