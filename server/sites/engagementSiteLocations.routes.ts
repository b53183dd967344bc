/**
 * Links between engagements and site locations (SPEC sections 3, 7): list, create, read,
 * update (radius, rmsSiteIdentification, isActive), delete, and the CSV/XLSX upload that
 * creates missing sites and links them in one transaction. Staff reach only the links of
 * engagements they may see; the upload, which creates site locations, needs Admin or Super User.
 */
import { Hono } from 'hono';
import {
  ENGAGEMENT_SITE_LOCATION,
  ENGAGEMENT_SITE_LOCATION_DEFAULT_SORT,
  ENGAGEMENT_SITE_LOCATION_SORTS,
  ENGAGEMENT_SITE_LOCATION_TYPE,
  EngagementSiteLocationInput,
  EngagementSiteLocationPatch,
  SiteUploadDocument,
  type EngagementSiteLocation,
} from '@core/model/engagementSiteLocation';
import { SITE_LOCATION_TYPE } from '@core/model/siteLocation';
import { nowOf, type AppEnv, type Deps } from '../context';
import type { Db } from '../db/open';
import { fullReason, siteFills, type SiteFill } from './';
import { STAFF_ADMIN_ROLES, authenticate, requireRole } from '../auth/guards';
import { findAccessibleEngagement, UNKNOWN_ENGAGEMENT } from '../engagements';
import { UploadRejected, checkRows, importSites, readRows, MAX_LISTED_ISSUES } from './upload';
import { ApiProblem, conflict, invalid, notFound } from '../http/errors';
import { parseId, parseListQuery, type ListSpec } from '../http/query';
import { rowAtPath } from '../http/pathRow';
import { memberRead, rowDocument } from '../http/memberRead';
import { answerList } from '../http/listAnswer';
import { sendDocument, sendResource, toResource } from '../http/serialize';
import { pgErrorCode } from '../http/sql';
import { FILE_POINTER, readUpload } from '../http/upload';
import { siteLocationResource } from './siteLocations';
import {
  SITE_LINK_LIST_FILTERS,
  addSiteLink,
  findSiteLink as findLink,
  removeSiteLink,
  siteLinkPage,
  sitesOfLinks,
  updateSiteLink,
  type SiteLinkRow as Row,
} from './engagementSiteLinks';
import { describe } from '../openapi/describe';
import { resourceCreation, resourceUpdate } from '../http/resourceWrites';
import type { SitesOpened } from './sitesOpened';

export const UPLOAD_RACE = 'Another upload created some of these site locations at the same time. Upload the file again.';

const listSpec: ListSpec<(typeof ENGAGEMENT_SITE_LOCATION_SORTS)[number], typeof SITE_LINK_LIST_FILTERS> = {
  type: ENGAGEMENT_SITE_LOCATION_TYPE,
  sorts: ENGAGEMENT_SITE_LOCATION_SORTS,
  defaultSort: ENGAGEMENT_SITE_LOCATION_DEFAULT_SORT,
  filters: SITE_LINK_LIST_FILTERS,
  fields: ENGAGEMENT_SITE_LOCATION.names,
  includes: ['siteLocation'],
};

function serialize(row: Row, fill: SiteFill, fields: Set<string> | null = null, withSite = false) {
  const { id, created, modified, ...rest } = row;
  // Fill against cap at the server's clock: the week's and all referrals, and why none is offered.
  const figures = { referralsThisWeek: fill.week, referralsTotal: fill.total, fullReason: fullReason(row, fill) };
  return toResource(
    ENGAGEMENT_SITE_LOCATION_TYPE,
    id,
    { ...rest, ...figures, created: created.toISOString(), modified: modified.toISOString() } satisfies Omit<EngagementSiteLocation, 'id' | 'siteLocation'>,
    {
      fields,
      relationships: withSite ? { siteLocation: { data: { type: SITE_LOCATION_TYPE, id: String(row.siteLocationId) } } } : undefined,
    },
  );
}

async function sitesIncluded(db: Db, rows: Row[]) {
  const sites = await sitesOfLinks(db, rows);
  return sites.map((s) => siteLocationResource(s));
}

export function engagementSiteLocationsRoutes(deps: Deps, { sitesOpened }: { sitesOpened: SitesOpened }) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));
  const fillOf = async (id: number) => (await siteFills(db, [id], nowOf(deps))).get(id)!;

  app.get('/', describe({ summary: 'List engagement site associations', list: listSpec, answer: { list: ENGAGEMENT_SITE_LOCATION } }), async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, listSpec);
    const withSite = q.include.has('siteLocation');
    const now = nowOf(deps);
    return answerList(c, q, async (window) => {
      const { rows, total } = await siteLinkPage(db, c.get('user'), { ...q, ...window });
      const fills = await siteFills(
        db,
        rows.map((r) => r.id),
        now,
      );
      return {
        data: rows.map((r) => serialize(r, fills.get(r.id)!, q.fields, withSite)),
        included: withSite ? await sitesIncluded(db, rows) : undefined,
        total,
      };
    });
  });

  const readLink = rowDocument(db, findLink, async (row, q) => {
    const withSite = q.include.has('siteLocation');
    return { data: serialize(row, await fillOf(row.id), q.fields, withSite), included: withSite ? await sitesIncluded(db, [row]) : undefined };
  });
  app.get(
    '/:id',
    describe({ summary: 'Read an engagement site association', read: listSpec, answer: { resource: ENGAGEMENT_SITE_LOCATION } }),
    memberRead(listSpec, 'site link', readLink),
  );

  app.post(
    '/',
    describe(resourceCreation('Associate a site location with an engagement', ENGAGEMENT_SITE_LOCATION, EngagementSiteLocationInput)),
    async (c) => {
      const { attributes } = await c.var.body.read();
      const engagement = await findAccessibleEngagement(db, attributes.engagementId, c.get('user'));
      if (!engagement) throw invalid([{ pointer: '/data/attributes/engagementId', detail: UNKNOWN_ENGAGEMENT }]);
      const createdId = await addSiteLink(db, attributes);
      // A site now offered for the engagement (its noTrialSites leads within reach are matched to it).
      await sitesOpened(deps, [engagement.id]);
      const row = await findLink(db, createdId, c.get('user'));
      return sendResource(c, serialize(row as Row, await fillOf(row!.id)), 201);
    },
  );

  app.patch('/:id', describe(resourceUpdate('Update an engagement site association', ENGAGEMENT_SITE_LOCATION, EngagementSiteLocationPatch)), async (c) => {
    const { id, row: existing } = await rowAtPath(c, 'site link', (id) => findLink(db, id, c.get('user')));
    const { attributes } = await c.var.body.read({ id });
    if (await updateSiteLink(db, id, attributes)) await sitesOpened(deps, [existing.engagementId]);
    return sendResource(c, serialize((await findLink(db, id, c.get('user'))) as Row, await fillOf(id)));
  });

  app.delete('/:id', describe({ summary: 'Remove an engagement site association', answer: { empty: true } }), async (c) => {
    const { id } = await rowAtPath(c, 'site link', (id) => findLink(db, id, c.get('user')));
    await removeSiteLink(db, id);
    return c.body(null, 204);
  });

  app.post(
    '/upload/:engagementId',
    describe({ summary: "Upload an engagement's site list (CSV or Excel)", body: { upload: 'file' }, answer: { document: SiteUploadDocument } }),
    requireRole(...STAFF_ADMIN_ROLES),
    async (c) => {
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
        await sitesOpened(deps, [engagement.id]);
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
    },
  );

  return app;
}
