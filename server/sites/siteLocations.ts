/**
 * A site location as every route reads it: its columns with its country's name and code, and
 * the document attributes they make (the site locations' own routes and the engagements' links
 * that include their sites). And the site locations kept: a page of them, one, and their writes,
 * with the site id unique and the country one that exists; a site still linked to an engagement
 * is not deleted.
 */
import { and, count, eq, sql, type SQL } from 'drizzle-orm';
import type * as v from 'valibot';
import {
  SITE_ID_TAKEN,
  SITE_LOCATION_TYPE,
  type SITE_LOCATION_SORTS,
  type SiteLocation,
  type SiteLocationInput,
  type SiteLocationPatch,
} from '@core/model/siteLocation';
import { chooseFromList } from '@core/validation/chooseFromList';
import type { Db } from '../db/open';
import { rowExists, rowWithId } from '../db/rows';
import { countries, engagementSiteLocations, engagements, siteLocations } from '../db/schema';
import { Conflict, Invalid } from '../errors';
import { booleanFilter, exactTextFilter, filterConditions, idFilter, type ListFilters } from '../http/filters';
import { idParam, mapParam, searchParam } from '../http/params';
import { countOf, joinedPage } from '../http/list';
import type { ListQuery } from '../http/query';
import { modelResource } from '../http/serialize';
import { ilikeAny, rethrowConstraint, valueTaken } from '../http/sql';

export const siteLocationColumns = {
  id: siteLocations.id,
  siteId: siteLocations.siteId,
  name: siteLocations.name,
  description: siteLocations.description,
  countryId: siteLocations.countryId,
  countryName: countries.name,
  countryIsoCode: countries.isoCode,
  streetAddress: siteLocations.streetAddress,
  unitNumber: siteLocations.unitNumber,
  city: siteLocations.city,
  state: siteLocations.state,
  zipCode: siteLocations.zipCode,
  isActive: siteLocations.isActive,
  isVirtual: siteLocations.isVirtual,
  piName: siteLocations.piName,
  latitude: siteLocations.latitude,
  longitude: siteLocations.longitude,
  siteLocationType: siteLocations.siteLocationType,
  irbType: siteLocations.irbType,
  created: siteLocations.created,
  modified: siteLocations.modified,
};

export type SiteLocationRow = Omit<SiteLocation, 'id' | 'created' | 'modified'> & { id: number; created: Date; modified: Date };

export function toSiteLocation(row: SiteLocationRow): SiteLocation {
  return { ...row, id: String(row.id), created: row.created.toISOString(), modified: row.modified.toISOString() };
}

/** A site location as the API sends it, alone or included beside its engagement links. */
export const siteLocationResource = (row: SiteLocationRow, fields: Set<string> | null = null) => modelResource(SITE_LOCATION_TYPE, toSiteLocation(row), fields);

const UNKNOWN_COUNTRY = chooseFromList('a country');
export const SITE_LOCATION_LINKED = (n: number) =>
  `This site location is linked to ${n} engagement${n === 1 ? '' : 's'}. Remove ${n === 1 ? 'that link' : 'those links'} before deleting it.`;

const FILTERS = {
  isActive: booleanFilter(siteLocations.isActive),
  countryId: idFilter(siteLocations.countryId, 'country'),
  state: exactTextFilter(siteLocations.state),
  // Sites not yet linked to this engagement (the link picker).
  excludeEngagementId: mapParam(
    idParam('engagement', 'Only sites not linked to this engagement (its id).'),
    (id) => sql`not exists (select 1 from ${engagementSiteLocations} l where l.site_location_id = ${siteLocations.id} and l.engagement_id = ${id})`,
  ),
  // Sites linked to an engagement, or to any engagement of a sponsor (filters that narrow others, as on Recruitment).
  engagementId: mapParam(
    idParam('engagement', 'Only sites linked to this engagement (its id).'),
    (id) => sql`exists (select 1 from ${engagementSiteLocations} l where l.site_location_id = ${siteLocations.id} and l.engagement_id = ${id})`,
  ),
  sponsorId: mapParam(
    idParam('sponsor', 'Only sites linked to an engagement of this sponsor (its id).'),
    (id) =>
      sql`exists (select 1 from ${engagementSiteLocations} l join ${engagements} e on e.id = l.engagement_id where l.site_location_id = ${siteLocations.id} and e.sponsor_id = ${id})`,
  ),
} satisfies ListFilters;
/** The site locations list's filters: the search beside FILTERS. */
export const SITE_LOCATION_FILTERS = { ...FILTERS, searchQuery: searchParam };
export type SiteLocationFilter = typeof SITE_LOCATION_FILTERS;

const sortColumns = {
  name: siteLocations.name,
  siteId: siteLocations.siteId,
  city: siteLocations.city,
  state: siteLocations.state,
  zipCode: siteLocations.zipCode,
  piName: siteLocations.piName,
  countryName: countries.name,
  isActive: siteLocations.isActive,
  created: siteLocations.created,
  modified: siteLocations.modified,
};

const selectSites = (db: Db) => db.select(siteLocationColumns).from(siteLocations).leftJoin(countries, eq(countries.id, siteLocations.countryId));

/** The site search: a site matches when its name, site id, city, state, zip code or PI's name holds the text; a blank search matches every site. */
export const siteSearch = (text: string | undefined): SQL | undefined =>
  ilikeAny([siteLocations.name, siteLocations.siteId, siteLocations.city, siteLocations.state, siteLocations.zipCode, siteLocations.piName], text);

export async function siteLocationPage(db: Db, q: ListQuery<(typeof SITE_LOCATION_SORTS)[number], SiteLocationFilter>) {
  const where = and(...filterConditions(q.filters, FILTERS), siteSearch(q.filters.searchQuery));
  const counted = countOf(db, siteLocations).leftJoin(countries, eq(countries.id, siteLocations.countryId)).$dynamic();
  const { rows, total } = await joinedPage(selectSites(db).$dynamic(), counted, q, { where, sorts: sortColumns, id: siteLocations.id });
  return { rows: rows as SiteLocationRow[], total };
}

export async function findSiteLocation(db: Db, id: number | null): Promise<SiteLocationRow | undefined> {
  return (await rowWithId(selectSites(db), siteLocations.id, id)) as SiteLocationRow | undefined;
}

async function assertCountry(db: Db, countryId: number | null | undefined) {
  if (countryId === null || countryId === undefined) return;
  if (!(await rowExists(db, countries.id, countryId))) throw new Invalid([{ pointer: '/data/attributes/countryId', detail: UNKNOWN_COUNTRY }]);
}

async function assertSiteIdFree(db: Db, siteId: string | null | undefined, exceptId?: number) {
  if (siteId !== null && siteId !== undefined && (await valueTaken(db, siteLocations.siteId, siteLocations.id, siteId, exceptId)))
    throw new Conflict(SITE_ID_TAKEN, '/data/attributes/siteId');
}

const onConstraint = (error: unknown): never =>
  rethrowConstraint(error, {
    unique: () => new Conflict(SITE_ID_TAKEN, '/data/attributes/siteId'),
    foreignKey: () => new Invalid([{ pointer: '/data/attributes/countryId', detail: UNKNOWN_COUNTRY }]),
  });

/** The new site's id. */
export async function createSiteLocation(db: Db, attributes: v.InferOutput<typeof SiteLocationInput>): Promise<number | null> {
  await assertCountry(db, attributes.countryId);
  await assertSiteIdFree(db, attributes.siteId);
  const [created] = await db.insert(siteLocations).values(attributes).returning({ id: siteLocations.id }).catch(onConstraint);
  return created?.id ?? null;
}

/** Whether anything changed (an empty change writes nothing). */
export async function updateSiteLocation(db: Db, id: number, attributes: v.InferOutput<typeof SiteLocationPatch>): Promise<boolean> {
  await assertCountry(db, attributes.countryId);
  await assertSiteIdFree(db, attributes.siteId, id);
  if (Object.keys(attributes).length === 0) return false;
  await db
    .update(siteLocations)
    .set({ ...attributes, modified: sql`now()` })
    .where(eq(siteLocations.id, id))
    .catch(onConstraint);
  return true;
}

/** Refused while the site is linked to an engagement; the row is locked so no link is made meanwhile. */
export async function deleteSiteLocation(db: Db, id: number) {
  await db.transaction(async (tx) => {
    await tx.select({ id: siteLocations.id }).from(siteLocations).where(eq(siteLocations.id, id)).for('update');
    const [linked] = await tx.select({ n: count() }).from(engagementSiteLocations).where(eq(engagementSiteLocations.siteLocationId, id));
    if (linked && linked.n > 0) throw new Conflict(SITE_LOCATION_LINKED(linked.n));
    await tx.delete(siteLocations).where(eq(siteLocations.id, id));
  });
}
