/**
 * Field rules as plain predicates, shared by the admin forms, the widget and the server's
 * schemas. Each returns true when the value passes.
 */

import { calendarDay, parseIsoDate, type CalendarDate } from './isoDate';

export * from './isoDate';

// Deliberately simple: one @, no spaces, a dot in the domain. Full RFC 5322 is not what users mean.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const US_PHONE = /^\d{3}-\d{3}-\d{4}$/;
const NUMERIC = /^\d+$/;
// SPEC section 5: 6 or 2 hex characters, without a leading '#'.
const COLOR_HEX = /^(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{2})$/;
const TOTP_CODE = /^\d{6}$/;

export const isEmail = (value: string): boolean => EMAIL.test(value);
export const isUsPhone = (value: string): boolean => US_PHONE.test(value);
/**
 * A US phone number as typed in any common way — (212) 555-0100, 212.555.0100, 212 555 0100,
 * 2125550100, +1 212-555-0100, 1-212-555-0100 — written 000-000-0000; anything else (letters,
 * too few or too many digits) as given, for the us_phone rule to refuse.
 */
export function normalizeUsPhone(value: string): string {
  const digits = /^[\d\s().+-]+$/.test(value) ? value.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '') : '';
  return /^\d{10}$/.test(digits) ? digits.replace(/(\d{3})(\d{3})/, '$1-$2-') : value;
}
export const isNumeric = (value: string): boolean => NUMERIC.test(value);

/**
 * Postal codes by region (ISO 3166-1 alpha-2): the one rule for survey ZIP questions, ZIP contact
 * fields, the site search and the lead form. Shapes, not lists: a code of the right shape may
 * still be one no place has. The US: 5 digits or ZIP+4; Canada: A1A 1A1 (the space optional);
 * Great Britain: its outward and inward codes (SW1A 1AA, M1 1AE).
 */
const POSTAL: Record<string, RegExp> = {
  US: /^\d{5}(-?\d{4})?$/,
  CA: /^[a-z]\d[a-z] ?\d[a-z]\d$/i,
  GB: /^[a-z]{1,2}\d[a-z\d]? ?\d[a-z]{2}$/i,
};
/** Any other region: 3 to 10 letters, digits, spaces and hyphens with a digit among them (a town's name is not one). */
const POSTAL_ELSEWHERE = /^(?=.*\d)[a-z\d -]{3,10}$/i;
/** Whether `value` (trimmed) has the shape of a postal code of `region` (the US when none is named). */
export const isPostalCode = (value: string, region = 'US'): boolean => (POSTAL[region] ?? POSTAL_ELSEWHERE).test(value);
export const isColorHex = (value: string): boolean => COLOR_HEX.test(value);
export const isTotpCode = (value: string): boolean => TOTP_CODE.test(value);
export const isBlank = (value: unknown): boolean => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** required: something other than nothing, blanks or an unticked box. */
export const isPresent = (value: unknown): boolean => !isBlank(value) && value !== false;
/** acceptTerms: the box is ticked. */
export const isAccepted = (value: unknown): boolean => value === true || value === 'true' || value === 'on';
/** min: at least `length` characters. */
export const hasMinLength = (value: string, length: number): boolean => value.length >= length;
/** max: at most `length` characters. */
export const hasMaxLength = (value: string, length: number): boolean => value.length <= length;

// ---------------------------------------------------------------------------------------------
// date_format (SPEC section 5): the date must parse by the locale's short format (mm/dd/yyyy in
// English), or as y-MM-dd in UTC mode, be a real calendar day, and fall after the year 1000.

export interface DateFormatOptions {
  /** A BCP 47 locale (`en`, `es-MX`, `de`); the order and separators of its short date. Default `en`. */
  locale?: string;
  /** Parse as y-MM-dd (ISO calendar date) instead of the locale's format. */
  utc?: boolean;
}

type DatePart = 'year' | 'month' | 'day';
interface LocalePattern {
  regex: RegExp;
  order: DatePart[];
}

const patternCache = new Map<string, LocalePattern>();
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function localePattern(locale: string): LocalePattern {
  const cached = patternCache.get(locale);
  if (cached) return cached;
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' });
  } catch {
    format = new Intl.DateTimeFormat('en', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' });
  }
  const order: DatePart[] = [];
  let source = '';
  for (const part of format.formatToParts(new Date(Date.UTC(2001, 10, 22)))) {
    if (part.type === 'year' || part.type === 'month' || part.type === 'day') {
      order.push(part.type);
      source += part.type === 'year' ? '(\\d{4})' : '(\\d{1,2})';
    } else if (part.type === 'literal') {
      // Direction marks some locales add are not something people type.
      const literal = part.value.replace(/[\u200e\u200f\u061c]/g, '');
      source += escapeRegex(literal).replace(/\s+/g, '\\s*');
    }
  }
  const pattern = { regex: new RegExp(`^${source}$`), order };
  patternCache.set(locale, pattern);
  return pattern;
}

/** The calendar day `value` names, or null when it is not a valid date in that format. */
export function parseDateText(value: string, options: DateFormatOptions = {}): CalendarDate | null {
  if (options.utc) return parseIsoDate(value);
  const { regex, order } = localePattern(options.locale ?? 'en');
  const match = regex.exec(value.trim());
  if (!match) return null;
  const parts: Partial<CalendarDate> = {};
  order.forEach((name, index) => (parts[name] = Number(match[index + 1])));
  const { year, month, day } = parts;
  return year === undefined || month === undefined || day === undefined ? null : calendarDay(year, month, day);
}

export const isDateFormat = (value: string, options: DateFormatOptions = {}): boolean => parseDateText(value, options) !== null;

// A host name as typed for a media channel's domain (RFC 1123): dot-separated labels of
// letters, digits and hyphens (1–63 characters, no hyphen at either end), at least two labels,
// a top-level label that is not all digits, 253 characters at most. No scheme, port or path.
const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
export const isHostName = (value: string): boolean => {
  if (value.length === 0 || value.length > 253) return false;
  const labels = value.split('.');
  if (labels.length < 2) return false;
  if (/^\d+$/.test(labels[labels.length - 1] ?? '')) return false;
  return labels.every((label) => HOST_LABEL.test(label));
};

/** A dotted-quad IPv4 address (each part 0–255, no leading zeros), as a browser's Origin names a page served by address. */
export const isIPv4Address = (value: string): boolean => /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/.test(value);
