/**
 * Site coordinators (the site view's list): GET /api/site-coordinators?siteLocationId=,
 * POST to tie a Site Coordinator to a site, DELETE /api/site-coordinators/{siteLocationId}-{userId}
 * to untie them. Admin and Super User only.
 */
import { Hono } from 'hono';
import { SITE_COORDINATOR_TIE, SITE_COORDINATOR_TYPE, SiteCoordinatorInput, type SiteCoordinatorRow } from '@core/model/user';
import type { AppEnv, Deps } from '../context';
import { STAFF_ADMIN_ROLES, authenticate, requireRole } from '../auth/guards';
import { invalid, notFound } from '../http/errors';
import { idParam, required } from '../http/params';
import { parseListQuery, type ListSpec } from '../http/query';
import { sendList, sendResource, toResource } from '../http/serialize';
import { describe } from '../openapi/describe';
import { resourceCreation } from '../http/resourceWrites';
import { CoordinatorRefused, coordinatorsOf, tieCoordinator, untieCoordinator } from './coordinators';

const FILTERS = { siteLocationId: required(idParam('site location')) };

const listSpec: ListSpec<'username', typeof FILTERS> = {
  type: SITE_COORDINATOR_TYPE,
  sorts: ['username'],
  defaultSort: 'username',
  filters: FILTERS,
  defaultLimit: 100,
};

const idOf = (siteLocationId: number, userId: number) => `${siteLocationId}-${userId}`;

export function siteCoordinatorsRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));
  app.use('*', requireRole(...STAFF_ADMIN_ROLES));

  app.get('/', describe({ summary: "A site location's coordinators", list: listSpec, answer: { list: SITE_COORDINATOR_TIE } }), async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, listSpec);
    const rows = await coordinatorsOf(db, q.filters.siteLocationId);
    return sendList(
      c,
      rows.map((r) => toResource(SITE_COORDINATOR_TYPE, idOf(r.siteLocationId, r.userId), r satisfies Omit<SiteCoordinatorRow, 'id'>)),
      { total: rows.length, page: 1, limit: q.limit },
    );
  });

  app.post('/', describe(resourceCreation('Tie a Site Coordinator to a site location', SITE_COORDINATOR_TIE, SiteCoordinatorInput)), async (c) => {
    const { attributes } = await c.var.body.read();
    await tieCoordinator(db, attributes.userId, attributes.siteLocationId).catch((error: unknown) => {
      if (error instanceof CoordinatorRefused) throw invalid([{ pointer: `/data/attributes/${error.attribute}`, detail: error.message }]);
      throw error;
    });
    // Answered as the list shows it: the coordinator's name, address and state too.
    const tied = (await coordinatorsOf(db, attributes.siteLocationId)).find((r) => r.userId === attributes.userId);
    if (!tied) throw notFound('site coordinator');
    return sendResource(c, toResource(SITE_COORDINATOR_TYPE, idOf(tied.siteLocationId, tied.userId), tied), 201);
  });

  app.delete('/:id', describe({ summary: 'Untie a Site Coordinator from a site location', answer: { empty: true } }), async (c) => {
    const match = /^(\d{1,9})-(\d{1,9})$/.exec(c.req.param('id'));
    if (!match || !(await untieCoordinator(db, Number(match[2]), Number(match[1])))) throw notFound('site coordinator');
    return c.body(null, 204);
  });

  return app;
}
