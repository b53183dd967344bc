import type { Sponsor } from '../../core/model/sponsor';

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
    ...overrides,
  };
}

export const COUNTRIES = [
  { id: '1', name: 'Canada', isoCode: 'CA' },
  { id: '2', name: 'United States', isoCode: 'US' },
];
