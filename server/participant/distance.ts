/**
 * Distances for trial-site matching: a US ZIP code's centroid from the offline data set that the
 * `zipcodes` npm package ships (about 42,500 five-digit ZIPs with latitude and longitude, PO-box
 * and unique ZIPs included; no network at run time), and great-circle miles between two points.
 *
 * The data is about 5 MB of JavaScript, so it is loaded on first use rather than at start-up.
 */
import { createRequire } from 'node:module';
import { isPostalCode } from '@core/validation/rules';

export interface LatLon {
  latitude: number;
  longitude: number;
}

/** Mean Earth radius in statute miles. */
const EARTH_RADIUS_MILES = 3958.8;

let centroids: ReadonlyMap<string, LatLon> | null = null;

function loadCentroids(): ReadonlyMap<string, LatLon> {
  if (centroids) return centroids;
  // The package's US table only (its main module also merges Canadian postal codes).
  const data: unknown = createRequire(import.meta.url)('zipcodes/lib/codes.js');
  const codes = (data as { codes?: unknown } | null)?.codes;
  if (!codes || typeof codes !== 'object') throw new Error('The zipcodes package has no US ZIP table.');
  const out = new Map<string, LatLon>();
  for (const [zip, entry] of Object.entries(codes as Record<string, unknown>)) {
    const { latitude, longitude } = (entry ?? {}) as Partial<LatLon>;
    if (typeof latitude === 'number' && typeof longitude === 'number' && Number.isFinite(latitude) && Number.isFinite(longitude)) {
      out.set(zip, { latitude, longitude });
    }
  }
  centroids = out;
  return out;
}

/** The five-digit ZIP of `raw` (surrounding spaces and a +4 part ignored), or null when it is not one. */
export function normalizeZip(raw: unknown): string | null {
  if (typeof raw !== 'string' && typeof raw !== 'number') return null;
  // A five-digit ZIP, optionally with its +4 part, by core's one US rule.
  const zip = String(raw).trim();
  return isPostalCode(zip, 'US') ? zip.slice(0, 5) : null;
}

/** The centroid of a US ZIP code, or null for a malformed or unknown one. */
export function zipCentroid(raw: unknown): LatLon | null {
  const zip = normalizeZip(raw);
  return zip === null ? null : (loadCentroids().get(zip) ?? null);
}

const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle distance in miles (haversine). */
export function haversineMiles(a: LatLon, b: LatLon): number {
  const dLat = radians(b.latitude - a.latitude);
  const dLon = radians(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Miles between two ZIP codes' centroids, or null when either is unknown. */
export function milesBetweenZips(from: unknown, to: unknown): number | null {
  const a = zipCentroid(from);
  const b = zipCentroid(to);
  return a && b ? haversineMiles(a, b) : null;
}
