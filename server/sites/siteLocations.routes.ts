/**
 * Site locations (SPEC sections 3, 7): list with search (name, site id, city, state, zip, PI
 * name), sort and paging; read; create; update; delete. Any signed-in member of staff may read
 * them (to link sites to their engagements); only Admin and Super User may change them.
 */
import { Hono } from 'hono';
import {
  SITE_LOCATION,
  SITE_LOCATION_DEFAULT_SORT,
  SITE_LOCATION_SORTS,
  SITE_LOCATION_TYPE,
  SiteLocationInput,
  SiteLocationPatch,
} from '@core/model/siteLocation';
import type { AppEnv, Deps } from '../context';
import { STAFF_ADMIN_ROLES, authenticate, requireRole } from '../auth/guards';
import type { ListSpec } from '../http/query';
import { answerRows } from '../http/listAnswer';
import { rowAtPath } from '../http/pathRow';
import { memberRead, rowReader } from '../http/memberRead';
import { sendResource } from '../http/serialize';
import { describe } from '../openapi/describe';
import { resourceCreation, resourceUpdate } from '../http/resourceWrites';
import { engagementsOfSite } from './engagementSiteLinks';
import type { SitesOpened } from './sitesOpened';
import {
  SITE_LOCATION_FILTERS,
  createSiteLocation,
  deleteSiteLocation,
  findSiteLocation as findSite,
  siteLocationPage,
  siteLocationResource,
  updateSiteLocation,
  type SiteLocationFilter,
  type SiteLocationRow,
} from './siteLocations';

export { SITE_LOCATION_LINKED } from './siteLocations';

const listSpec: ListSpec<(typeof SITE_LOCATION_SORTS)[number], SiteLocationFilter> = {
  type: SITE_LOCATION_TYPE,
  sorts: SITE_LOCATION_SORTS,
  defaultSort: SITE_LOCATION_DEFAULT_SORT,
  filters: SITE_LOCATION_FILTERS,
  fields: SITE_LOCATION.names,
};

export function siteLocationsRoutes(deps: Deps, { sitesOpened }: { sitesOpened: SitesOpened }) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));
  const canChange = requireRole(...STAFF_ADMIN_ROLES);

  app.get('/', describe({ summary: 'List site locations', list: listSpec, answer: { list: SITE_LOCATION } }), (c) =>
    answerRows(c, listSpec, (q) => siteLocationPage(db, q), siteLocationResource),
  );

  app.get(
    '/:id',
    describe({ summary: 'Read a site location', read: listSpec, answer: { resource: SITE_LOCATION } }),
    memberRead(
      listSpec,
      'site location',
      rowReader((id) => findSite(db, id), siteLocationResource),
    ),
  );

  app.post('/', describe(resourceCreation('Create a site location', SITE_LOCATION, SiteLocationInput)), canChange, async (c) => {
    const { attributes } = await c.var.body.read();
    const createdId = await createSiteLocation(db, attributes);
    return sendResource(c, siteLocationResource((await findSite(db, createdId)) as SiteLocationRow), 201);
  });

  app.patch('/:id', describe(resourceUpdate('Update a site location', SITE_LOCATION, SiteLocationPatch)), canChange, async (c) => {
    const { id } = await rowAtPath(c, 'site location', (id) => findSite(db, id));
    const { attributes } = await c.var.body.read({ id });
    if (await updateSiteLocation(db, id, attributes)) {
      // Re-activated or moved: open again for every engagement it is linked to.
      await sitesOpened(deps, await engagementsOfSite(db, id));
    }
    return sendResource(c, siteLocationResource((await findSite(db, id)) as SiteLocationRow));
  });

  app.delete('/:id', describe({ summary: 'Delete a site location', answer: { empty: true } }), canChange, async (c) => {
    const { id } = await rowAtPath(c, 'site location', (id) => findSite(db, id));
    await deleteSiteLocation(db, id);
    return c.body(null, 204);
  });

  return app;
}
