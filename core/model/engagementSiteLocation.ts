import * as v from 'valibot';
import { flag, idNumber, optionalText } from './fields';
import { MAX_RADIUS } from './engagement';
import { optionalNumber } from './scalars';
import type { SiteLocation } from './siteLocation';

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

export interface EngagementSiteLocation {
  id: string;
  engagementId: number;
  siteLocationId: number;
  radius: number | null;
  rmsSiteIdentification: string | null;
  isActive: boolean;
  weeklyCap: number | null;
  totalCap: number | null;
  isPaused: boolean;
  /** Referrals to the site this week (from Monday 00:00 UTC) and in all, at the server's clock. */
  referralsThisWeek: number;
  referralsTotal: number;
  /** Why the site is not offered ('paused', 'weekly cap reached', 'total cap reached'), else null. */
  fullReason: string | null;
  /** The site's own fields, for lists. */
  siteId: string | null;
  siteName: string;
  city: string | null;
  state: string | null;
  zipCode: string | null;
  piName: string | null;
  siteIsActive: boolean;
  created: string;
  modified: string;
  siteLocation?: SiteLocation;
}

export const LINK_EXISTS = 'This site is already linked to the engagement.';

export const ENGAGEMENT_SITE_LOCATION_SORTS = ['siteName', 'siteId', 'city', 'state', 'radius', 'isActive', 'created'] as const;
export const ENGAGEMENT_SITE_LOCATION_DEFAULT_SORT = '-isActive,siteName';

/** What an accepted upload did. */
export interface SiteUploadResult {
  rows: number;
  createdSiteLocations: number;
  linkedSiteLocations: number;
  updatedLinks: number;
}
