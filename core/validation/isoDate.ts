/**
 * Calendar-day checks and the y-MM-dd (ISO) date parser: everything the participant side needs
 * about dates. Locale-formatted dates (the admin's) live in rules.ts, so the widget bundle does
 * not carry the Intl pattern builder.
 */

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** The earliest year a date field accepts is the one after this. */
export const MIN_DATE_YEAR = 1000;

export const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
export const daysInMonth = (year: number, month: number): number => (month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31);

/** The day itself when it exists on the calendar and falls after MIN_DATE_YEAR, else null. */
export const calendarDay = (year: number, month: number, day: number): CalendarDate | null =>
  year <= MIN_DATE_YEAR || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) ? null : { year, month, day };

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The calendar day a y-MM-dd text names (surrounding blanks ignored), or null. */
export function parseIsoDate(value: string): CalendarDate | null {
  const match = ISO_DATE.exec(value.trim());
  return match ? calendarDay(Number(match[1]), Number(match[2]), Number(match[3])) : null;
}

/** A calendar date as the API speaks it: yyyy-mm-dd (blanks around it ignored), a real day after MIN_DATE_YEAR. */
export const isIsoDate = (value: string): boolean => parseIsoDate(value) !== null;
