/**
 * Links between engagements and site locations (SPEC sections 3, 7): list, create, read,
 * update (radius, rmsSiteIdentification, isActive), delete, and the CSV/XLSX upload that
 * creates missing sites and links them in one transaction. Staff reach only the links of
 * engagements they may see; the upload, which creates site locations, needs Admin or Super User.
 */
import { Hono } from 'hono';
import { and, count, eq, sql, type SQL } from 'drizzle-orm';
import {
  ENGAGEMENT_SITE_LOCATION_DEFAULT_SORT,
  ENGAGEMENT_SITE_LOCATION_SORTS,
  ENGAGEMENT_SITE_LOCATION_TYPE,
  EngagementSiteLocationInput,
  EngagementSiteLocationPatch,
  LINK_EXISTS,
  type EngagementSiteLocation,
} from '@core/model/engagementSiteLocation';
import { SITE_LOCATION_TYPE } from '@core/model/siteLocation';
import { nowOf, type AppEnv, type AuthUser, type Deps } from '../context';
import { fullReason, siteFills, type SiteFill } from './';
import type { Db } from '../db/open';
import { countries, engagementSiteLocations, engagements, siteLocations } from '../db/schema';
import { STAFF_ADMIN_ROLES, authenticate, requireRole } from '../auth/guards';
import { engagementScope, findAccessibleEngagement, UNKNOWN_ENGAGEMENT } from '../engagements';
import { UploadRejected, checkRows, importSites, readRows, MAX_LISTED_ISSUES } from './upload';
import { readResource } from '../http/body';
import { ApiProblem, badRequest, conflict, invalid, notFound } from '../http/errors';
import { parseId, parseListQuery, parseReadQuery, type ListSpec } from '../http/query';
import { sendDocument, sendList, sendResource, toResource } from '../http/serialize';
import { ilikeAny, parseBooleanFilter, pgErrorCode } from '../http/sql';
import { FILE_POINTER, readUpload } from '../http/upload';
import { siteLocationColumns, toSiteLocation } from './siteLocations';
import { joinedPage } from '../http/list';
import { describe } from '../openapi/describe';
import { matchLeadsToSites } from '../leads';
import { chooseFromList } from '@core/validation/chooseFromList';

const UNKNOWN_SITE = chooseFromList('a site location');
export const UPLOAD_RACE = 'Another upload created some of these site locations at the same time. Upload the file again.';

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

type Row = Omit<EngagementSiteLocation, 'id' | 'created' | 'modified' | 'siteLocation' | 'referralsThisWeek' | 'referralsTotal' | 'fullReason'> & {
  id: number;
  created: Date;
  modified: Date;
};

const listSpec: ListSpec<(typeof ENGAGEMENT_SITE_LOCATION_SORTS)[number], 'engagementId' | 'siteLocationId' | 'searchQuery' | 'isActive'> = {
  type: ENGAGEMENT_SITE_LOCATION_TYPE,
  sorts: ENGAGEMENT_SITE_LOCATION_SORTS,
  defaultSort: ENGAGEMENT_SITE_LOCATION_DEFAULT_SORT,
  filters: ['engagementId', 'siteLocationId', 'searchQuery', 'isActive'],
  fields: [...Object.keys(columns).filter((k) => k !== 'id'), 'referralsThisWeek', 'referralsTotal', 'fullReason'],
  includes: ['siteLocation'],
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

function serialize(row: Row, fill: SiteFill, fields: Set<string> | null = null, withSite = false) {
  const { id, created, modified, ...rest } = row;
  // Fill against cap at the server's clock: the week's and all referrals, and why none is offered.
  const figures = { referralsThisWeek: fill.week, referralsTotal: fill.total, fullReason: fullReason(row, fill) };
  return toResource(
    ENGAGEMENT_SITE_LOCATION_TYPE,
    id,
    { ...rest, ...figures, created: created.toISOString(), modified: modified.toISOString() },
    {
      fields,
      relationships: withSite ? { siteLocation: { data: { type: SITE_LOCATION_TYPE, id: String(row.siteLocationId) } } } : undefined,
    },
  );
}

const fromLinks = (db: Db) =>
  db
    .select(columns)
    .from(engagementSiteLocations)
    .innerJoin(siteLocations, eq(siteLocations.id, engagementSiteLocations.siteLocationId))
    .innerJoin(engagements, eq(engagements.id, engagementSiteLocations.engagementId));

async function findLink(db: Db, id: number | null, user: AuthUser): Promise<Row | undefined> {
  if (id === null) return undefined;
  const [row] = await fromLinks(db).where(and(eq(engagementSiteLocations.id, id), engagementScope(user)));
  return row as Row | undefined;
}

async function sitesIncluded(db: Db, rows: Row[]) {
  const ids = [...new Set(rows.map((r) => r.siteLocationId))];
  if (!ids.length) return [];
  const sites = await db
    .select(siteLocationColumns)
    .from(siteLocations)
    .leftJoin(countries, eq(countries.id, siteLocations.countryId))
    .where(sql`${siteLocations.id} in ${ids}`);
  return sites.map((s) => {
    const { id, ...attributes } = toSiteLocation(s as Parameters<typeof toSiteLocation>[0]);
    return toResource(SITE_LOCATION_TYPE, id, attributes);
  });
}

export function engagementSiteLocationsRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));
  const fillOf = async (id: number) => (await siteFills(db, [id], nowOf(deps))).get(id)!;

  app.get('/', describe({ summary: 'List engagement site associations', list: listSpec, answer: { list: listSpec.type } }), async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, listSpec);
    const isActive = parseBooleanFilter(q.filters.isActive, 'isActive');
    const conditions: (SQL | undefined)[] = [engagementScope(c.get('user'))];
    for (const [name, column] of [
      ['engagementId', engagementSiteLocations.engagementId],
      ['siteLocationId', engagementSiteLocations.siteLocationId],
    ] as const) {
      const raw = q.filters[name];
      if (raw === undefined) continue;
      const id = parseId(raw);
      if (id === null) throw badRequest(`'${name}' must be an id.`, name);
      conditions.push(eq(column, id));
    }
    if (q.filters.searchQuery?.trim()) {
      conditions.push(
        ilikeAny(
          [siteLocations.name, siteLocations.siteId, siteLocations.city, siteLocations.state, siteLocations.zipCode, siteLocations.piName],
          q.filters.searchQuery,
        ),
      );
    }
    if (isActive !== undefined) conditions.push(eq(engagementSiteLocations.isActive, isActive));
    const where = and(...conditions);
    const counted = db
      .select({ n: count() })
      .from(engagementSiteLocations)
      .innerJoin(siteLocations, eq(siteLocations.id, engagementSiteLocations.siteLocationId))
      .innerJoin(engagements, eq(engagements.id, engagementSiteLocations.engagementId))
      .$dynamic();
    const page = await joinedPage(fromLinks(db).$dynamic(), counted, q, { where, sorts: sortColumns, id: engagementSiteLocations.id });
    const rows = page.rows as Row[];
    const withSite = q.include.has('siteLocation');
    const fills = await siteFills(db, rows.map((r) => r.id), nowOf(deps));
    return sendList(
      c,
      rows.map((r) => serialize(r, fills.get(r.id)!, q.fields, withSite)),
      { total: page.total, page: q.page, limit: q.limit },
      withSite ? await sitesIncluded(db, rows) : undefined,
    );
  });

  app.get('/:id', describe({ summary: 'Read an engagement site association' }), async (c) => {
    const q = parseReadQuery(new URL(c.req.url).searchParams, listSpec);
    const row = await findLink(db, parseId(c.req.param('id')), c.get('user'));
    if (!row) throw notFound('site link');
    const withSite = q.include.has('siteLocation');
    return sendResource(c, serialize(row, await fillOf(row.id), q.fields, withSite), 200, withSite ? await sitesIncluded(db, [row]) : undefined);
  });

  app.post('/', describe({ summary: 'Associate a site location with an engagement', body: { resource: ENGAGEMENT_SITE_LOCATION_TYPE, attributes: EngagementSiteLocationInput }, answer: { resource: ENGAGEMENT_SITE_LOCATION_TYPE, status: 201 } }), async (c) => {
    const { attributes } = await readResource(c, EngagementSiteLocationInput, { type: ENGAGEMENT_SITE_LOCATION_TYPE });
    const engagement = await findAccessibleEngagement(db, attributes.engagementId, c.get('user'));
    if (!engagement) throw invalid([{ pointer: '/data/attributes/engagementId', detail: UNKNOWN_ENGAGEMENT }]);
    const [site] = await db.select({ id: siteLocations.id }).from(siteLocations).where(eq(siteLocations.id, attributes.siteLocationId));
    if (!site) throw invalid([{ pointer: '/data/attributes/siteLocationId', detail: UNKNOWN_SITE }]);
    const [created] = await db
      .insert(engagementSiteLocations)
      .values(attributes)
      .returning({ id: engagementSiteLocations.id })
      .catch((error: unknown) => {
        const { code } = pgErrorCode(error);
        if (code === '23505') throw conflict(LINK_EXISTS, '/data/attributes/siteLocationId');
        if (code === '23503') throw invalid([{ pointer: '/data/attributes/siteLocationId', detail: UNKNOWN_SITE }]);
        throw error;
      });
    // A site now offered for the engagement: its noTrialSites leads within reach are matched to it.
    await matchLeadsToSites(deps, [engagement.id]);
    const row = await findLink(db, created?.id ?? null, c.get('user'));
    return sendResource(c, serialize(row as Row, await fillOf(row!.id)), 201);
  });

  app.patch('/:id', describe({ summary: 'Update an engagement site association', body: { resource: ENGAGEMENT_SITE_LOCATION_TYPE, attributes: EngagementSiteLocationPatch }, answer: { resource: ENGAGEMENT_SITE_LOCATION_TYPE } }), async (c) => {
    const id = parseId(c.req.param('id'));
    const existing = await findLink(db, id, c.get('user'));
    if (!existing || id === null) throw notFound('site link');
    const { attributes } = await readResource(c, EngagementSiteLocationPatch, { type: ENGAGEMENT_SITE_LOCATION_TYPE, id });
    if (Object.keys(attributes).length > 0) {
      await db
        .update(engagementSiteLocations)
        .set({ ...attributes, modified: sql`now()` })
        .where(eq(engagementSiteLocations.id, id));
      await matchLeadsToSites(deps, [existing.engagementId]);
    }
    return sendResource(c, serialize((await findLink(db, id, c.get('user'))) as Row, await fillOf(id)));
  });

  app.delete('/:id', describe({ summary: 'Remove an engagement site association', answer: { empty: true } }), async (c) => {
    const id = parseId(c.req.param('id'));
    const existing = await findLink(db, id, c.get('user'));
    if (!existing || id === null) throw notFound('site link');
    await db.delete(engagementSiteLocations).where(eq(engagementSiteLocations.id, id));
    return c.body(null, 204);
  });

  app.post('/upload/:engagementId', describe({ summary: "Upload an engagement's site list (CSV or Excel)", body: { upload: 'file' } }), requireRole(...STAFF_ADMIN_ROLES), async (c) => {
    const engagement = await findAccessibleEngagement(db, parseId(c.req.param('engagementId')), c.get('user'));
    if (!engagement) throw notFound('engagement');
    const upload = await readUpload(c, deps.config.uploadLimitBytes);
    try {
      const rows = await readRows(upload.filename, upload.bytes);
      const checked = await checkRows(db, rows);
      const imported = await importSites(db, engagement.id, checked.rows, checked.existing).catch((error: unknown) => {
        if (pgErrorCode(error).code === '23505') throw conflict(UPLOAD_RACE, FILE_POINTER);
        throw error;
      });
      // One event naming every site it created and every site whose link it made or changed.
      c.set('audit', {
        entity: 'engagements-site-locations/upload',
        entityId: engagement.id,
        action: 'upload',
        meta: { ...imported.result, createdSiteLocationIds: imported.createdSiteLocationIds, linkedSiteLocationIds: imported.linkedSiteLocationIds },
      });
      await matchLeadsToSites(deps, [engagement.id]);
      return sendDocument(c, { meta: imported.result });
    } catch (error) {
      if (!(error instanceof UploadRejected)) throw error;
      const listed = error.issues.slice(0, MAX_LISTED_ISSUES);
      const errors = listed.map((issue) => ({
        status: '422',
        title: 'Invalid Row',
        detail: issue.row > 0 ? `Row ${issue.row}${issue.column ? `, ${issue.column}` : ''}: ${issue.detail}` : issue.detail,
        source: { pointer: FILE_POINTER },
        meta: { row: issue.row, ...(issue.column ? { column: issue.column } : {}) },
      }));
      if (error.issues.length > listed.length) {
        errors.push({
          status: '422',
          title: 'Invalid Row',
          detail: `…and ${error.issues.length - listed.length} more problems.`,
          source: { pointer: FILE_POINTER },
          meta: { row: 0 },
        });
      }
      throw new ApiProblem(422, errors);
    }
  });

  return app;
}
