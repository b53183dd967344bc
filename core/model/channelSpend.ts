/**
 * Channel spends: what a media channel cost over a period (optionally one campaign of it), the
 * figure the funnel divides by its outcomes (server/funnel/costs.ts). Amounts are whole minor
 * units of an ISO 4217 currency (cents for USD), so sums and prorating never meet binary
 * fractions of a cent.
 */
import * as v from 'valibot';
import { isIsoDate } from '../validation/isoDate';
import { idNumber, optionalText } from './fields';
import { count, instant, nullableText, recordId, resourceAnswer, type Answered } from './answers';

export const CHANNEL_SPEND_TYPE = 'channel-spends';
export const CHANNEL_SPEND_SORTS = ['periodStart', 'periodEnd', 'amountMinor', 'currency', 'campaign', 'mediaChannelTitle', 'created', 'modified'] as const;
export const CHANNEL_SPEND_DEFAULT_SORT = '-periodStart';

/** The largest amount one spend may carry, in minor units: well inside PostgreSQL's bigint and a double's exact integers. */
export const MAX_SPEND_MINOR = 1_000_000_000_000;
export const SPEND_AMOUNT_INVALID = `Must be a whole number of minor units (cents) from 0 to ${MAX_SPEND_MINOR}.`;
export const SPEND_CURRENCY_INVALID = 'Must be a three-letter ISO 4217 currency code such as USD or EUR.';
export const SPEND_DATE_INVALID = 'Must be a date such as 2026-11-22.';
export const SPEND_PERIOD_INVALID = 'The period must end on or after the day it starts.';

const day = () => v.pipe(v.string(SPEND_DATE_INVALID), v.trim(), v.check(isIsoDate, SPEND_DATE_INVALID));

const fields = {
  mediaChannelId: idNumber(),
  amountMinor: v.pipe(
    v.number(SPEND_AMOUNT_INVALID),
    v.integer(SPEND_AMOUNT_INVALID),
    v.minValue(0, SPEND_AMOUNT_INVALID),
    v.maxValue(MAX_SPEND_MINOR, SPEND_AMOUNT_INVALID),
  ),
  currency: v.pipe(v.string(SPEND_CURRENCY_INVALID), v.trim(), v.toUpperCase(), v.regex(/^[A-Z]{3}$/, SPEND_CURRENCY_INVALID)),
  periodStart: day(),
  periodEnd: day(),
  /** The utm_campaign the spend bought, or null for the channel as a whole. */
  campaign: optionalText(255),
};

const periodInOrder = <T extends { periodStart?: string; periodEnd?: string }>(spend: T) =>
  spend.periodStart === undefined || spend.periodEnd === undefined || spend.periodStart <= spend.periodEnd;

export const ChannelSpendInput = v.pipe(v.strictObject(fields), v.forward(v.check(periodInOrder, SPEND_PERIOD_INVALID), ['periodEnd']));
export type ChannelSpendInput = v.InferInput<typeof ChannelSpendInput>;

/** A change: the period is checked whole against the stored one by the server. */
export const ChannelSpendPatch = v.pipe(
  v.strictObject(v.partial(v.strictObject(fields)).entries),
  v.forward(v.check(periodInOrder, SPEND_PERIOD_INVALID), ['periodEnd']),
);

/** A spend as the API answers it: the one description of its attributes. */
export const CHANNEL_SPEND = resourceAnswer(
  CHANNEL_SPEND_TYPE,
  v.object({
    mediaChannelId: recordId(),
    mediaChannelTitle: v.string(),
    sponsorId: recordId(),
    amountMinor: v.pipe(count(), v.description('Whole minor units of the currency (cents for USD).')),
    currency: v.pipe(v.string(), v.description('ISO 4217.')),
    periodStart: v.pipe(v.string(), v.isoDate()),
    periodEnd: v.pipe(v.string(), v.isoDate()),
    campaign: v.pipe(nullableText(), v.description('The utm_campaign the spend bought, or null for the channel as a whole.')),
    created: instant(),
    modified: instant(),
  }),
);

export type ChannelSpend = Answered<typeof CHANNEL_SPEND>;

/** Digits after the decimal point of `currency` (2 for USD, 0 for JPY), from the runtime's ISO 4217 data. */
export function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** An amount in minor units as a plain decimal text in its currency: 123456 USD -> "1234.56". */
export function formatMinor(amountMinor: number, currency: string): string {
  const digits = minorDigits(currency);
  return (amountMinor / 10 ** digits).toFixed(digits);
}

/** A typed amount ("1234.56", "1,234.5") in minor units of `currency`, or null when it is not one with at most its digits. */
export function parseAmount(text: string, currency: string): number | null {
  const digits = minorDigits(currency);
  const match = /^(\d{1,13})(?:\.(\d+))?$/.exec(text.trim().replace(/,/g, ''));
  if (!match || (match[2] ?? '').length > digits) return null;
  return Number(match[1]) * 10 ** digits + Number((match[2] ?? '').padEnd(digits, '0') || '0');
}
