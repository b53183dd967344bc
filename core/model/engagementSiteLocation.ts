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
});

/** The engagement and the site of a link do not change; the rest may. */
export const EngagementSiteLocationPatch = v.strictObject({
  radius: optionalNumber(1, MAX_RADIUS, true),
  rmsSiteIdentification: optionalText(255),
  isActive: v.optional(flag()),
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
