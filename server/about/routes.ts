/**
 * GET /api/about: the product's name and version, the build, and the database it runs on, for
 * the About screen; GET /api/about/licences: the licences of the packages it runs with. Any
 * signed-in staff member may read them; they hold nothing of anyone's.
 */
import { Hono } from 'hono';
import { ABOUT, ABOUT_TYPE, LICENCE, LICENCE_TYPE } from '@core/model/about';
import type { AppEnv, Deps } from '../context';
import { authenticate } from '../auth/guards';
import { aboutFacts, dependencyLicences } from './facts';
import { sendResource, toResource } from '../http/serialize';
import { answerWholeList, wholeListRead } from '../http/wholeList';
import { describe } from '../openapi/describe';

export function aboutRoutes(deps: Deps) {
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  app.get(
    '/',
    describe({ summary: "About: the product's name and version, its build time and the database it runs on", answer: { resource: ABOUT } }),
    async (c) => {
      const facts = await aboutFacts(deps.db, deps.config.distDir);
      return sendResource(c, toResource(ABOUT_TYPE, facts.productName, { ...facts }));
    },
  );

  app.get('/licences', describe(wholeListRead('The licences of the packages the product runs with', LICENCE)), (c) =>
    answerWholeList(c, async () => dependencyLicences().map(({ id, ...attributes }) => toResource(LICENCE_TYPE, id, { ...attributes }))),
  );
  return app;
}
