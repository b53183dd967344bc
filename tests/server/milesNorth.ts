import { zipCentroid } from '../../server/participant/distance';

/** Degrees of latitude per mile, near enough for the distances the tests use. */
const DEG_PER_MILE = 1 / 69.05;

/** The point `miles` due north of `zip`'s centroid: where a test puts a site that far from a participant there. */
export function milesNorthOf(zip: string, miles: number): { latitude: number; longitude: number } {
  const centre = zipCentroid(zip);
  if (!centre) throw new Error(`no centroid for ZIP ${zip}`);
  return { latitude: centre.latitude + miles * DEG_PER_MILE, longitude: centre.longitude };
}
