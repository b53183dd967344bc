import * as v from 'valibot';
import { flag, idNumber, optionalText, requiredText } from './fields';

export const SPONSOR_TYPE = 'sponsors';

/** What staff may write on a sponsor. Unknown attributes are refused rather than ignored. */
export const SponsorInput = v.strictObject({
  name: requiredText(255),
  identification: requiredText(64),
  rmsSponsorIdentifier: optionalText(255),
  description: optionalText(5000),
  isActive: v.optional(flag(), true),
  businessPractice: optionalText(5000),
  countryId: v.optional(v.nullable(idNumber())),
});

/** An update changes only the attributes it names. */
export const SponsorPatch = v.partial(SponsorInput);

export type SponsorInput = v.InferInput<typeof SponsorInput>;
export type SponsorValues = v.InferOutput<typeof SponsorInput>;

/** A sponsor as the API returns it. */
export interface Sponsor {
  id: string;
  name: string;
  identification: string;
  rmsSponsorIdentifier: string | null;
  description: string | null;
  isActive: boolean;
  businessPractice: string | null;
  countryId: number | null;
  countryName: string | null;
  created: string;
  modified: string;
  /** Figures over the sponsor's engagements, their linked sites and their referrals. */
  activeEngagements: number;
  totalEngagements: number;
  totalSites: number;
  totalReferrals: number;
  /** The same person referred again within an engagement's window: kept, never sent, not in totalReferrals. */
  duplicateReferrals: number;
  totalScreenedReferrals: number;
  totalRandomizedReferrals: number;
}

export const SPONSOR_FIGURES = [
  'activeEngagements',
  'totalEngagements',
  'totalSites',
  'totalReferrals',
  'duplicateReferrals',
  'totalScreenedReferrals',
  'totalRandomizedReferrals',
] as const;
export type SponsorFigure = (typeof SPONSOR_FIGURES)[number];
/** The figures of a sponsor without engagements, sites or referrals. */
export const NO_SPONSOR_FIGURES = Object.fromEntries(SPONSOR_FIGURES.map((figure) => [figure, 0])) as Record<SponsorFigure, number>;

/** Columns the sponsors list may be sorted by (SPEC default `-isActive,name`). */
export const SPONSOR_SORTS = ['name', 'identification', 'isActive', 'countryName', 'created', 'modified'] as const;
export const SPONSOR_DEFAULT_SORT = '-isActive,name';
