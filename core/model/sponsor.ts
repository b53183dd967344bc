import * as v from 'valibot';
import { flag, idNumber, optionalText, requiredText } from './fields';
import { count, instant, nullableText, recordId, resourceAnswer, type Answered } from './answers';

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

/** Figures over the sponsor's engagements, their linked sites and their referrals. */
export const SPONSOR_FIGURES = [
  'activeEngagements',
  'totalEngagements',
  'totalSites',
  'totalReferrals',
  'duplicateReferrals',
  'totalScreenedReferrals',
  'totalRandomizedReferrals',
] as const;

/** A sponsor as the API answers it: the one description of its attributes. */
export const SPONSOR = resourceAnswer(
  SPONSOR_TYPE,
  v.object({
    name: v.string(),
    identification: v.string(),
    rmsSponsorIdentifier: nullableText(),
    description: nullableText(),
    isActive: v.boolean(),
    businessPractice: nullableText(),
    countryId: v.nullable(recordId()),
    countryName: nullableText(),
    created: instant(),
    modified: instant(),
    activeEngagements: count(),
    totalEngagements: count(),
    totalSites: count(),
    totalReferrals: count(),
    duplicateReferrals: v.pipe(
      count(),
      v.description("The same person referred again within an engagement's window: kept, never sent, not in totalReferrals."),
    ),
    totalScreenedReferrals: count(),
    totalRandomizedReferrals: count(),
  }),
);

/** A sponsor as the API returns it. */
export type Sponsor = Answered<typeof SPONSOR>;

export type SponsorFigure = (typeof SPONSOR_FIGURES)[number];
/** The figures of a sponsor without engagements, sites or referrals. */
export const NO_SPONSOR_FIGURES = Object.fromEntries(SPONSOR_FIGURES.map((figure) => [figure, 0])) as Record<SponsorFigure, number>;

/** Columns the sponsors list may be sorted by (SPEC default `-isActive,name`). */
export const SPONSOR_SORTS = ['name', 'identification', 'isActive', 'countryName', 'created', 'modified'] as const;
export const SPONSOR_DEFAULT_SORT = '-isActive,name';
