/**
 * The links between engagements and site locations kept, in the user's engagement scope: a page
 * of them with their site's name and place, one, the sites a page of them names, and their
 * writes (one link per pair; the site must exist), and the engagements a site is linked to.
 */
import { and, eq, sql } from 'drizzle-orm';
import type * as v from 'valibot';
import {
  LINK_EXISTS,
  type ENGAGEMENT_SITE_LOCATION_SORTS,
  type EngagementSiteLocation,
  type EngagementSiteLocationInput,
  type EngagementSiteLocationPatch,
} from '@core/model/engagementSiteLocation';
import { chooseFromList } from '@core/validation/chooseFromList';
import type { AuthUser } from '../context';
import type { Db } from '../db/open';
import { rowWithId } from '../db/rows';
import { countries, engagementSiteLocations, engagements, siteLocations } from '../db/schema';
import { engagementScope } from '../engagements';
import { Conflict, Invalid } from '../errors';
import { countOf, joinedPage } from '../http/list';
import { booleanFilter, filterConditions, idFilter } from '../http/filters';
import { searchParam } from '../http/params';
import type { ListQuery } from '../http/query';
import { pgErrorCode } from '../http/sql';
import { siteLocationColumns, siteSearch, type SiteLocationRow } from './siteLocations';

const UNKNOWN_SITE = chooseFromList('a site location');

const columns = {
  id: engagementSiteLocations.id,
  engagementId: engagementSiteLocations.engagementId,
  siteLocationId: engagementSiteLocations.siteLocationId,
  radius: engagementSiteLocations.radius,
  rmsSiteIdentification: engagementSiteLocations.rmsSiteIdentification,
  isActive: engagementSiteLocations.isActive,
  weeklyCap: engagementSiteLocations.weeklyCap,
  totalCap: engagementSiteLocations.totalCap,
  isPaused: engagementSiteLocations.isPaused,
  siteId: siteLocations.siteId,
  siteName: siteLocations.name,
  city: siteLocations.city,
  state: siteLocations.state,
  zipCode: siteLocations.zipCode,
  piName: siteLocations.piName,
  siteIsActive: siteLocations.isActive,
  created: engagementSiteLocations.created,
  modified: engagementSiteLocations.modified,
};
export type SiteLinkRow = Omit<
  EngagementSiteLocation,
  'id' | 'created' | 'modified' | 'siteLocation' | 'referralsThisWeek' | 'referralsTotal' | 'fullReason'
> & {
  id: number;
  created: Date;
  modified: Date;
};

const sortColumns = {
  siteName: siteLocations.name,
  siteId: siteLocations.siteId,
  city: siteLocations.city,
  state: siteLocations.state,
  radius: engagementSiteLocations.radius,
  isActive: engagementSiteLocations.isActive,
  created: engagementSiteLocations.created,
};

const fromLinks = (db: Db) =>
  db
    .select(columns)
    .from(engagementSiteLocations)
    .innerJoin(siteLocations, eq(siteLocations.id, engagementSiteLocations.siteLocationId))
    .innerJoin(engagements, eq(engagements.id, engagementSiteLocations.engagementId));

/** The list's filters: one engagement's or one site's links, active or not, beside the search. */
const SITE_LINK_FILTERS = {
  engagementId: idFilter(engagementSiteLocations.engagementId, 'engagement'),
  siteLocationId: idFilter(engagementSiteLocations.siteLocationId, 'site location'),
  isActive: booleanFilter(engagementSiteLocations.isActive),
};
export const SITE_LINK_LIST_FILTERS = { ...SITE_LINK_FILTERS, searchQuery: searchParam };

export async function siteLinkPage(db: Db, user: AuthUser, q: ListQuery<(typeof ENGAGEMENT_SITE_LOCATION_SORTS)[number], typeof SITE_LINK_LIST_FILTERS>) {
  const where = and(engagementScope(user), ...filterConditions(q.filters, SITE_LINK_FILTERS), siteSearch(q.filters.searchQuery));
  const counted = countOf(db, engagementSiteLocations)
    .innerJoin(siteLocations, eq(siteLocations.id, engagementSiteLocations.siteLocationId))
    .innerJoin(engagements, eq(engagements.id, engagementSiteLocations.engagementId))
    .$dynamic();
  const page = await joinedPage(fromLinks(db).$dynamic(), counted, q, { where, sorts: sortColumns, id: engagementSiteLocations.id });
  return { rows: page.rows as SiteLinkRow[], total: page.total };
}

export async function findSiteLink(db: Db, id: number | null, user: AuthUser): Promise<SiteLinkRow | undefined> {
  return (await rowWithId(fromLinks(db), engagementSiteLocations.id, id, engagementScope(user))) as SiteLinkRow | undefined;
}

/** The sites these links are of, each once. */
export async function sitesOfLinks(db: Db, rows: SiteLinkRow[]): Promise<SiteLocationRow[]> {
  const ids = [...new Set(rows.map((r) => r.siteLocationId))];
  if (!ids.length) return [];
  const sites = await db
    .select(siteLocationColumns)
    .from(siteLocations)
    .leftJoin(countries, eq(countries.id, siteLocations.countryId))
    .where(sql`${siteLocations.id} in ${ids}`);
  return sites as SiteLocationRow[];
}

/** The new link's id; its engagement is the caller's to check. */
export async function addSiteLink(db: Db, attributes: v.InferOutput<typeof EngagementSiteLocationInput>): Promise<number | null> {
  const [site] = await db.select({ id: siteLocations.id }).from(siteLocations).where(eq(siteLocations.id, attributes.siteLocationId));
  if (!site) throw new Invalid([{ pointer: '/data/attributes/siteLocationId', detail: UNKNOWN_SITE }]);
  const [created] = await db
    .insert(engagementSiteLocations)
    .values(attributes)
    .returning({ id: engagementSiteLocations.id })
    .catch((error: unknown) => {
      const { code } = pgErrorCode(error);
      if (code === '23505') throw new Conflict(LINK_EXISTS, '/data/attributes/siteLocationId');
      if (code === '23503') throw new Invalid([{ pointer: '/data/attributes/siteLocationId', detail: UNKNOWN_SITE }]);
      throw error;
    });
  return created?.id ?? null;
}

/** Whether anything changed (an empty change writes nothing). */
export async function updateSiteLink(db: Db, id: number, attributes: v.InferOutput<typeof EngagementSiteLocationPatch>): Promise<boolean> {
  if (Object.keys(attributes).length === 0) return false;
  await db
    .update(engagementSiteLocations)
    .set({ ...attributes, modified: sql`now()` })
    .where(eq(engagementSiteLocations.id, id));
  return true;
}

export async function removeSiteLink(db: Db, id: number) {
  await db.delete(engagementSiteLocations).where(eq(engagementSiteLocations.id, id));
}

/** The engagements a site is linked to, for matching after the site itself changed. */
export async function engagementsOfSite(db: Db, siteLocationId: number): Promise<number[]> {
  const rows = await db
    .select({ id: engagementSiteLocations.engagementId })
    .from(engagementSiteLocations)
    .where(eq(engagementSiteLocations.siteLocationId, siteLocationId));
  return rows.map((r) => r.id);
}
