import * as v from 'valibot';
import { flag, idNumber, optionalText } from './fields';
import { MAX_RADIUS } from './engagement';
import { optionalNumber } from './scalars';
import type { SiteLocation } from './siteLocation';
import { count, instant, nullableText, recordId, resourceAnswer, type Answered } from './answers';

export const ENGAGEMENT_SITE_LOCATION_TYPE = 'engagements-site-locations';

/** A link between an engagement and a site. A null radius means the engagement's radius. */
export const EngagementSiteLocationInput = v.strictObject({
  engagementId: idNumber(),
  siteLocationId: idNumber(),
  radius: optionalNumber(1, MAX_RADIUS, true),
  rmsSiteIdentification: optionalText(255),
  isActive: v.optional(flag(), true),
  /** Referrals the site takes per week (Monday 00:00 UTC on); null: no weekly cap. */
  weeklyCap: optionalNumber(0, 1_000_000, true),
  /** Referrals the site takes in all; null: no total cap. */
  totalCap: optionalNumber(0, 1_000_000, true),
  /** Paused by hand: not offered, kept linked. */
  isPaused: v.optional(flag(), false),
});

/** The engagement and the site of a link do not change; the rest may. */
export const EngagementSiteLocationPatch = v.strictObject({
  radius: optionalNumber(1, MAX_RADIUS, true),
  rmsSiteIdentification: optionalText(255),
  isActive: v.optional(flag()),
  /** Referrals the site takes per week (Monday 00:00 UTC on); null: no weekly cap. */
  weeklyCap: optionalNumber(0, 1_000_000, true),
  /** Referrals the site takes in all; null: no total cap. */
  totalCap: optionalNumber(0, 1_000_000, true),
  isPaused: v.optional(flag()),
});

export type EngagementSiteLocationInput = v.InferInput<typeof EngagementSiteLocationInput>;
export type EngagementSiteLocationPatch = v.InferInput<typeof EngagementSiteLocationPatch>;

/** Why a linked site is not offered, when it is not. */
export const SITE_FULL_REASONS = ['paused', 'total cap reached', 'weekly cap reached'] as const;
export type SiteFullReason = (typeof SITE_FULL_REASONS)[number];

/** A link as the API answers it: the one description of its attributes. */
export const ENGAGEMENT_SITE_LOCATION = resourceAnswer(
  ENGAGEMENT_SITE_LOCATION_TYPE,
  v.object({
    engagementId: recordId(),
    siteLocationId: recordId(),
    radius: v.pipe(v.nullable(v.number()), v.description("Miles; null: the engagement's radius.")),
    rmsSiteIdentification: nullableText(),
    isActive: v.boolean(),
    weeklyCap: v.pipe(v.nullable(count()), v.description('Referrals the site takes per week (Monday 00:00 UTC on); null: no weekly cap.')),
    totalCap: v.pipe(v.nullable(count()), v.description('Referrals the site takes in all; null: no total cap.')),
    isPaused: v.pipe(v.boolean(), v.description('Paused by hand: not offered, kept linked.')),
    siteId: nullableText(),
    siteName: v.string(),
    city: nullableText(),
    state: nullableText(),
    zipCode: nullableText(),
    piName: nullableText(),
    siteIsActive: v.boolean(),
    created: instant(),
    modified: instant(),
    referralsThisWeek: v.pipe(count(), v.description("Referrals to the site this week (from Monday 00:00 UTC), at the server's clock.")),
    referralsTotal: count(),
    fullReason: v.pipe(v.nullable(v.picklist(SITE_FULL_REASONS)), v.description('Why the site is not offered, else null.')),
  }),
);

/** A link as the API returns it, with its site where core's reader resolved it. */
export type EngagementSiteLocation = Answered<typeof ENGAGEMENT_SITE_LOCATION> & { siteLocation?: SiteLocation };

export const LINK_EXISTS = 'This site is already linked to the engagement.';

export const ENGAGEMENT_SITE_LOCATION_SORTS = ['siteName', 'siteId', 'city', 'state', 'radius', 'isActive', 'created'] as const;
export const ENGAGEMENT_SITE_LOCATION_DEFAULT_SORT = '-isActive,siteName';

/** What an accepted upload did: the answer's meta (a JSON:API document with meta only). */
export const SiteUploadDocument = v.object({
  meta: v.object({
    rows: v.pipe(count(), v.description('Rows read from the file.')),
    createdSiteLocations: v.pipe(count(), v.description('Site locations made new.')),
    linkedSiteLocations: v.pipe(count(), v.description('Site locations newly linked to the engagement.')),
    updatedLinks: v.pipe(count(), v.description('Links to the engagement that were there and were changed.')),
  }),
});
export type SiteUploadResult = v.InferOutput<typeof SiteUploadDocument>['meta'];
