/**
 * A legacy survey's pages (/api/pages): added, edited, moved and deleted through their survey
 * (server/legacy-surveys/pages.ts). Each page is answered with its questions and its survey's
 * page counter; another sponsor's page answers 404.
 */
import { Hono } from 'hono';
import { PageInput, PagePatch, SURVEY_PAGE, SURVEY_PAGE_TYPE, type SurveyPage } from '@core/model/legacySurvey';
import type { AppEnv, AuthUser, Deps } from '../context';
import type { Db } from '../db/open';
import { authenticate } from '../auth/guards';
import { readResource, requireParent } from '../http/body';
import { parseId } from '../http/query';
import { sendResource, toResource } from '../http/serialize';
import { UNKNOWN_SURVEY } from './messages';
import { createPage, deletePage, updatePage } from './pages';
import { findPage, orNotFound } from './parts';
import { loadQuestions, toPage } from './structure';
import { findSurvey } from './surveys';
import { describe } from '../openapi/describe';

function serializePage(page: SurveyPage, pageCounter: number) {
  const { id, ...attributes } = page;
  return toResource(SURVEY_PAGE_TYPE, id, { ...attributes, pageCounter });
}

async function sendPage(c: Parameters<typeof sendResource>[0], db: Db, id: number, user: AuthUser, status: 200 | 201 = 200) {
  const context = await orNotFound(findPage(db, id, user), 'page');
  const questions = await loadQuestions(db, [id]);
  return sendResource(c, serializePage(toPage(context.page, questions), context.survey.pageCounter), status);
}

export function legacyPagesRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  app.post(
    '/',
    describe({
      summary: 'Create a legacy survey page',
      body: { resource: SURVEY_PAGE_TYPE, attributes: PageInput },
      answer: { resource: SURVEY_PAGE, status: 201 },
    }),
    async (c) => {
      const user = c.get('user');
      const { attributes } = await readResource(c, PageInput, { type: SURVEY_PAGE_TYPE });
      await requireParent(findSurvey(db, attributes.surveyId, user), 'surveyId', UNKNOWN_SURVEY);
      return sendPage(c, db, await createPage(db, attributes), user, 201);
    },
  );

  app.patch(
    '/:id',
    describe({ summary: 'Update a legacy survey page', body: { resource: SURVEY_PAGE_TYPE, attributes: PagePatch }, answer: { resource: SURVEY_PAGE } }),
    async (c) => {
      const user = c.get('user');
      const context = await orNotFound(findPage(db, parseId(c.req.param('id')), user), 'page');
      const id = context.page.id;
      const { attributes } = await readResource(c, PagePatch, { type: SURVEY_PAGE_TYPE, id });
      await updatePage(db, context, attributes);
      return sendPage(c, db, id, user);
    },
  );

  app.delete('/:id', describe({ summary: 'Delete a legacy survey page', answer: { empty: true } }), async (c) => {
    const context = await orNotFound(findPage(db, parseId(c.req.param('id')), c.get('user')), 'page');
    await deletePage(db, context);
    return c.body(null, 204);
  });

  return app;
}
