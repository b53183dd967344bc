/** A sponsor as its form holds it, and the mapping to the API's input. */
import type { Sponsor, SponsorInput } from '@core/model/sponsor';
import { fieldText, numberOrNull } from '../../components/form/fieldText';

/** The labels of a sponsor's fields, shared by the list, the form and the view. */
export const SPONSOR_LABELS = {
  name: 'Name',
  identification: 'Identification',
  rmsSponsorIdentifier: 'RMS Sponsor Identifier',
  description: 'Description',
  businessPractice: 'Business Practice',
  countryId: 'Country',
  countryName: 'Country',
  isActive: 'Active',
  created: 'Created',
  modified: 'Modified',
  engagements: 'Engagements (active / total)',
  activeEngagements: 'Active Engagements',
  totalEngagements: 'Engagements',
  totalSites: 'Sites',
  totalReferrals: 'Referrals',
  duplicateReferrals: 'Duplicates (not sent)',
  totalScreenedReferrals: 'Screened',
  totalRandomizedReferrals: 'Randomized',
  referrals: 'Referrals (total / screened / randomized)',
} as const;

export type SponsorFormValues = {
  name: string;
  identification: string;
  rmsSponsorIdentifier: string;
  description: string;
  businessPractice: string;
  /** '' for none. */
  countryId: string;
  isActive: boolean;
};

export const toSponsorFormValues = (sponsor?: Sponsor): SponsorFormValues => ({
  name: sponsor?.name ?? '',
  identification: sponsor?.identification ?? '',
  rmsSponsorIdentifier: sponsor?.rmsSponsorIdentifier ?? '',
  description: sponsor?.description ?? '',
  businessPractice: sponsor?.businessPractice ?? '',
  countryId: fieldText(sponsor?.countryId),
  // New sponsors start active, as the API's default.
  isActive: sponsor?.isActive ?? true,
});

export const toSponsorInput = (values: SponsorFormValues): SponsorInput => ({
  ...values,
  countryId: numberOrNull(values.countryId),
});
