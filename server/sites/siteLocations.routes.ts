/**
 * Site locations (SPEC sections 3, 7): list with search (name, site id, city, state, zip, PI
 * name), sort and paging; read; create; update; delete. Any signed-in member of staff may read
 * them (to link sites to their engagements); only Admin and Super User may change them.
 */
import { Hono } from 'hono';
import { and, count, eq, sql, type SQL } from 'drizzle-orm';
import {
  SITE_ID_TAKEN,
  SITE_LOCATION_DEFAULT_SORT,
  SITE_LOCATION_SORTS,
  SITE_LOCATION_TYPE,
  SiteLocationInput,
  SiteLocationPatch,
} from '@core/model/siteLocation';
import type { AppEnv, Deps } from '../context';
import type { Db } from '../db/open';
import { countries, engagementSiteLocations, engagements, siteLocations } from '../db/schema';
import { STAFF_ADMIN_ROLES, authenticate, requireRole } from '../auth/guards';
import { readResource } from '../http/body';
import { badRequest, conflict, invalid, notFound } from '../http/errors';
import { parseId, parseListQuery, parseReadQuery, type ListSpec } from '../http/query';
import { sendList, sendResource, toResource } from '../http/serialize';
import { joinedPage } from '../http/list';
import { ilikeAny, rethrowConstraint } from '../http/sql';
import { booleanFilter, exactTextFilter, filterConditions, filterNames, filterSchemas, idFilter } from '../http/filters';
import { describe } from '../openapi/describe';
import { engagementsOfSite, matchLeadsToSites } from '../leads';
import { siteLocationColumns, toSiteLocation, type SiteLocationRow } from './siteLocations';
import { chooseFromList } from '@core/validation/chooseFromList';

const UNKNOWN_COUNTRY = chooseFromList('a country');
export const SITE_LOCATION_LINKED = (n: number) =>
  `This site location is linked to ${n} engagement${n === 1 ? '' : 's'}. Remove ${n === 1 ? 'that link' : 'those links'} before deleting it.`;

const ATTRIBUTES = Object.keys(siteLocationColumns).filter((k) => k !== 'id');

const FILTERS = {
  isActive: booleanFilter(siteLocations.isActive),
  countryId: idFilter(siteLocations.countryId, 'country'),
  state: exactTextFilter(siteLocations.state),
};

const listSpec: ListSpec<(typeof SITE_LOCATION_SORTS)[number], 'searchQuery' | 'excludeEngagementId' | 'engagementId' | 'sponsorId' | keyof typeof FILTERS> = {
  type: SITE_LOCATION_TYPE,
  sorts: SITE_LOCATION_SORTS,
  defaultSort: SITE_LOCATION_DEFAULT_SORT,
  filters: ['searchQuery', 'excludeEngagementId', 'engagementId', 'sponsorId', ...filterNames(FILTERS)],
  filterSchemas: filterSchemas(FILTERS),
  fields: ATTRIBUTES,
};

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

const serialize = (row: SiteLocationRow, fields: Set<string> | null = null) => {
  const { id, ...attributes } = toSiteLocation(row);
  return toResource(SITE_LOCATION_TYPE, id, attributes, { fields });
};

const selectSites = (db: Db) =>
  db.select(siteLocationColumns).from(siteLocations).leftJoin(countries, eq(countries.id, siteLocations.countryId));

async function findSite(db: Db, id: number | null): Promise<SiteLocationRow | undefined> {
  if (id === null) return undefined;
  const [row] = await selectSites(db).where(eq(siteLocations.id, id));
  return row as SiteLocationRow | undefined;
}

async function assertCountry(db: Db, countryId: number | null | undefined) {
  if (countryId === null || countryId === undefined) return;
  const [found] = await db.select({ id: countries.id }).from(countries).where(eq(countries.id, countryId));
  if (!found) throw invalid([{ pointer: '/data/attributes/countryId', detail: UNKNOWN_COUNTRY }]);
}

async function assertSiteIdFree(db: Db, siteId: string | null | undefined, exceptId?: number) {
  if (siteId === null || siteId === undefined) return;
  const [taken] = await db.select({ id: siteLocations.id }).from(siteLocations).where(eq(siteLocations.siteId, siteId));
  if (taken && taken.id !== exceptId) throw conflict(SITE_ID_TAKEN, '/data/attributes/siteId');
}

const onConstraint = (error: unknown): never =>
  rethrowConstraint(error, {
    unique: () => conflict(SITE_ID_TAKEN, '/data/attributes/siteId'),
    foreignKey: () => invalid([{ pointer: '/data/attributes/countryId', detail: UNKNOWN_COUNTRY }]),
  });

export function siteLocationsRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));
  const canChange = requireRole(...STAFF_ADMIN_ROLES);

  app.get('/', describe({ summary: 'List site locations', list: listSpec, answer: { list: listSpec.type } }), async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, listSpec);
    const conditions: (SQL | undefined)[] = filterConditions(q.filters, FILTERS);
    if (q.filters.searchQuery?.trim()) {
      conditions.push(
        ilikeAny(
          [siteLocations.name, siteLocations.siteId, siteLocations.city, siteLocations.state, siteLocations.zipCode, siteLocations.piName],
          q.filters.searchQuery,
        ),
      );
    }
    if (q.filters.excludeEngagementId !== undefined) {
      // Sites not yet linked to this engagement (the link picker).
      const engagementId = parseId(q.filters.excludeEngagementId);
      if (engagementId === null) throw badRequest("'excludeEngagementId' must be an engagement id.", 'excludeEngagementId');
      conditions.push(
        sql`not exists (select 1 from ${engagementSiteLocations} l where l.site_location_id = ${siteLocations.id} and l.engagement_id = ${engagementId})`,
      );
    }
    // Sites linked to an engagement, or to any engagement of a sponsor (filters that narrow others, as on Recruitment).
    if (q.filters.engagementId !== undefined) {
      const engagementId = parseId(q.filters.engagementId);
      if (engagementId === null) throw badRequest("'engagementId' must be an engagement id.", 'engagementId');
      conditions.push(sql`exists (select 1 from ${engagementSiteLocations} l where l.site_location_id = ${siteLocations.id} and l.engagement_id = ${engagementId})`);
    }
    if (q.filters.sponsorId !== undefined) {
      const sponsorId = parseId(q.filters.sponsorId);
      if (sponsorId === null) throw badRequest("'sponsorId' must be a sponsor id.", 'sponsorId');
      conditions.push(
        sql`exists (select 1 from ${engagementSiteLocations} l join ${engagements} e on e.id = l.engagement_id where l.site_location_id = ${siteLocations.id} and e.sponsor_id = ${sponsorId})`,
      );
    }
    const where = and(...conditions);
    const counted = db.select({ n: count() }).from(siteLocations).leftJoin(countries, eq(countries.id, siteLocations.countryId)).$dynamic();
    const { rows, total } = await joinedPage(selectSites(db).$dynamic(), counted, q, { where, sorts: sortColumns, id: siteLocations.id });
    return sendList(c, (rows as SiteLocationRow[]).map((r) => serialize(r, q.fields)), { total, page: q.page, limit: q.limit });
  });

  app.get('/:id', describe({ summary: 'Read a site location' }), async (c) => {
    const q = parseReadQuery(new URL(c.req.url).searchParams, listSpec);
    const row = await findSite(db, parseId(c.req.param('id')));
    if (!row) throw notFound('site location');
    return sendResource(c, serialize(row, q.fields));
  });

  app.post('/', describe({ summary: 'Create a site location', body: { resource: SITE_LOCATION_TYPE, attributes: SiteLocationInput }, answer: { resource: SITE_LOCATION_TYPE, status: 201 } }), canChange, async (c) => {
    const { attributes } = await readResource(c, SiteLocationInput, { type: SITE_LOCATION_TYPE });
    await assertCountry(db, attributes.countryId);
    await assertSiteIdFree(db, attributes.siteId);
    const [created] = await db
      .insert(siteLocations)
      .values(attributes)
      .returning({ id: siteLocations.id })
      .catch(onConstraint);
    return sendResource(c, serialize((await findSite(db, created?.id ?? null)) as SiteLocationRow), 201);
  });

  app.patch('/:id', describe({ summary: 'Update a site location', body: { resource: SITE_LOCATION_TYPE, attributes: SiteLocationPatch }, answer: { resource: SITE_LOCATION_TYPE } }), canChange, async (c) => {
    const id = parseId(c.req.param('id'));
    const existing = await findSite(db, id);
    if (!existing || id === null) throw notFound('site location');
    const { attributes } = await readResource(c, SiteLocationPatch, { type: SITE_LOCATION_TYPE, id });
    await assertCountry(db, attributes.countryId);
    await assertSiteIdFree(db, attributes.siteId, id);
    if (Object.keys(attributes).length > 0) {
      await db
        .update(siteLocations)
        .set({ ...attributes, modified: sql`now()` })
        .where(eq(siteLocations.id, id))
        .catch(onConstraint);
      // Re-activated or moved: the leads now within reach of it are matched to its links.
      await matchLeadsToSites(deps, await engagementsOfSite(db, id));
    }
    return sendResource(c, serialize((await findSite(db, id)) as SiteLocationRow));
  });

  app.delete('/:id', describe({ summary: 'Delete a site location', answer: { empty: true } }), canChange, async (c) => {
    const id = parseId(c.req.param('id'));
    const existing = await findSite(db, id);
    if (!existing || id === null) throw notFound('site location');
    await db.transaction(async (tx) => {
      await tx.select({ id: siteLocations.id }).from(siteLocations).where(eq(siteLocations.id, id)).for('update');
      const [linked] = await tx.select({ n: count() }).from(engagementSiteLocations).where(eq(engagementSiteLocations.siteLocationId, id));
      if (linked && linked.n > 0) throw conflict(SITE_LOCATION_LINKED(linked.n));
      await tx.delete(siteLocations).where(eq(siteLocations.id, id));
    });
    return c.body(null, 204);
  });

  return app;
}
