import { describe, expect, it } from 'vitest';
import { haversineMiles, milesBetweenZips, normalizeZip, zipCentroid } from '../../../server/participant/distance';

describe('ZIP centroids and distances (offline data set)', () => {
  it('finds real ZIP codes, including a +4 form, and refuses unknown or malformed ones', () => {
    const manhattan = zipCentroid('10001');
    expect(manhattan?.latitude).toBeCloseTo(40.75, 1);
    expect(manhattan?.longitude).toBeCloseTo(-74.0, 1);
    expect(zipCentroid(' 10001-2345 ')).toEqual(manhattan);
    // A PO-box-only ZIP (the IRS in Holtsville, NY) is in the data set too.
    expect(zipCentroid('00501')).not.toBeNull();
    expect(zipCentroid('99999')).toBeNull();
    expect(zipCentroid('1000')).toBeNull();
    expect(zipCentroid('abcde')).toBeNull();
    expect(zipCentroid(null)).toBeNull();
    expect(normalizeZip(2139)).toBeNull();
    expect(normalizeZip('02139')).toBe('02139');
  });

  it('measures great-circle miles between ZIP centroids', () => {
    // Manhattan to Hoboken across the Hudson, to Princeton, and coast to coast.
    expect(milesBetweenZips('10001', '07030')).toBeGreaterThan(1);
    expect(milesBetweenZips('10001', '07030')).toBeLessThan(4);
    expect(milesBetweenZips('10001', '08540')).toBeGreaterThan(38);
    expect(milesBetweenZips('10001', '08540')).toBeLessThan(48);
    expect(milesBetweenZips('10001', '90210')).toBeGreaterThan(2400);
    expect(milesBetweenZips('10001', '90210')).toBeLessThan(2500);
    expect(milesBetweenZips('10001', '99999')).toBeNull();
  });

  it('is symmetric and zero for the same point', () => {
    const a = { latitude: 42.3647, longitude: -71.1042 };
    const b = { latitude: 40.7484, longitude: -73.9967 };
    expect(haversineMiles(a, a)).toBe(0);
    expect(haversineMiles(a, b)).toBeCloseTo(haversineMiles(b, a), 9);
    // One degree of latitude is about 69 miles.
    expect(haversineMiles({ latitude: 0, longitude: 0 }, { latitude: 1, longitude: 0 })).toBeCloseTo(69.09, 1);
  });
});
