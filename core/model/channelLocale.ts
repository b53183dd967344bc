/**
 * A media channel's locale (a language and a region, such as en-US, en-CA or es-ES): the region
 * says how the participants of that channel read distances, in miles or in kilometres, and which
 * country's postal codes the survey's ZIP questions take.
 */
import * as v from 'valibot';

export const DEFAULT_CHANNEL_LOCALE = 'en-US';
export const CHANNEL_LOCALE_INVALID = 'Must be a language and a region such as en-US, en-CA or es-ES.';

/** Regions whose people read distances in miles; everyone else reads kilometres. */
const MILES_REGIONS = new Set(['US', 'GB', 'LR', 'MM', 'PR', 'GU', 'VI', 'AS', 'MP']);

/** The unit a region reads distances in; miles with no region (the US). */
export const distanceUnitOf = (region: string | null): 'mi' | 'km' => (region === null || MILES_REGIONS.has(region) ? 'mi' : 'km');

/** en_ca, EN-CA and en-CA alike as en-CA; null when it is not a language and a region. */
export function normalizeLocale(raw: string): string | null {
  const m = /^([a-z]{2,3})[-_]([a-z]{2})$/i.exec(raw.trim());
  return m ? `${m[1]!.toLowerCase()}-${m[2]!.toUpperCase()}` : null;
}

/** The locale's region (ISO 3166-1 alpha-2), e.g. CA for en-CA. */
export const localeRegion = (locale: string): string => locale.slice(-2);

export const ChannelLocale = v.pipe(
  v.string(CHANNEL_LOCALE_INVALID),
  v.check((raw) => normalizeLocale(raw) !== null, CHANNEL_LOCALE_INVALID),
  v.transform((raw) => normalizeLocale(raw)!),
);
