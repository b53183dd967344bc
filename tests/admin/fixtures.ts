import type { Sponsor } from '@core/model/sponsor';

export function makeSponsor(id: number, overrides: Partial<Sponsor> = {}): Sponsor {
  return {
    id: String(id),
    name: `Sponsor ${id}`,
    identification: `SP-${id}`,
    rmsSponsorIdentifier: null,
    description: null,
    isActive: true,
    businessPractice: null,
    countryId: null,
    countryName: null,
    created: '2024-05-01T10:00:00Z',
    modified: '2024-05-02T10:00:00Z',
    activeEngagements: 0,
    totalEngagements: 0,
    totalSites: 0,
    totalReferrals: 0,
    duplicateReferrals: 0,
    totalScreenedReferrals: 0,
    totalRandomizedReferrals: 0,
    ...overrides,
  };
}

export const COUNTRIES = [
  { id: '1', name: 'Canada', isoCode: 'CA' },
  { id: '2', name: 'United States', isoCode: 'US' },
];
