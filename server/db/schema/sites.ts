/**
 * Site locations, their links to engagements and the Site Coordinators who work them
 * (server/sites/).
 */
import { sql } from 'drizzle-orm';
import { boolean, check, doublePrecision, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { belongsTo, created, isActive, modified, natural, refersTo } from './columns';
import { linkTable } from './linkTable';
import { engagements } from './engagements';
import { countries } from './lookups';
import { users } from './users';

export const siteLocations = pgTable(
  'site_locations',
  {
    id: serial('id').primaryKey(),
    siteId: text('site_id'),
    name: text('name').notNull(),
    description: text('description'),
    countryId: refersTo('country_id', () => countries.id),
    streetAddress: text('street_address'),
    unitNumber: text('unit_number'),
    city: text('city'),
    state: text('state'),
    zipCode: text('zip_code'),
    isActive: isActive(),
    isVirtual: boolean('is_virtual').notNull().default(false),
    piName: text('pi_name'),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    siteLocationType: text('site_location_type'),
    irbType: text('irb_type'),
    created: created(),
    modified: modified(),
  },
  (t) => [
    uniqueIndex('site_locations_site_id_idx').on(t.siteId),
    index('site_locations_default_sort_idx').on(t.isActive.desc().nullsFirst(), natural(t.name), t.id),
    index('site_locations_city_idx').on(t.city, t.id),
    check(
      'site_locations_type_check',
      sql`${t.siteLocationType} is null or ${t.siteLocationType} in ('academic_hospital', 'clinical_research_center', 'neurology_disease_center')`,
    ),
    check('site_locations_irb_check', sql`${t.irbType} is null or ${t.irbType} in ('local', 'single')`),
  ],
);

export const engagementSiteLocations = pgTable(
  'engagement_site_locations',
  {
    id: serial('id').primaryKey(),
    engagementId: belongsTo('engagement_id', () => engagements.id),
    siteLocationId: belongsTo('site_location_id', () => siteLocations.id),
    radius: integer('radius'),
    rmsSiteIdentification: text('rms_site_identification'),
    isActive: isActive(),
    /** Referrals the site takes per week (Monday 00:00 UTC on), null: no weekly cap. */
    weeklyCap: integer('weekly_cap'),
    /** Referrals the site takes in all, null: no total cap. */
    totalCap: integer('total_cap'),
    /** Paused by hand: not offered, kept linked. */
    isPaused: boolean('is_paused').notNull().default(false),
    created: created(),
    modified: modified(),
  },
  (t) => [
    uniqueIndex('engagement_site_locations_pair_idx').on(t.engagementId, t.siteLocationId),
    index('engagement_site_locations_site_idx').on(t.siteLocationId),
    check('engagement_site_locations_caps_check', sql`(${t.weeklyCap} is null or ${t.weeklyCap} >= 0) and (${t.totalCap} is null or ${t.totalCap} >= 0)`),
  ],
);

/** The site locations a Site Coordinator works the referrals of. */
export const userSiteLocations = linkTable(
  'user_site_locations',
  ['userId', 'user_id', () => users.id],
  ['siteLocationId', 'site_location_id', () => siteLocations.id],
  'user_site_locations_site_idx',
);
