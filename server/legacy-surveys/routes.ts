/**
 * Legacy surveys (SPEC sections 3, 4, 7: /api/surveys): surveys of an engagement, each read with
 * its pages, questions and options. Any member of staff may author the surveys of engagements
 * they may see; another sponsor's survey answers 404. The domain is server/legacy-surveys/; its
 * parts have their own routes (legacy-pages.ts, legacy-questions.ts, legacy-options.ts,
 * legacy-engagement-options.ts).
 */
import { Hono } from 'hono';
import { SURVEY, SURVEY_TYPE, SurveyInput, SurveyPatch, type SurveyPage } from '@core/model/legacySurvey';
import type { AppEnv, AuthUser, Deps } from '../context';
import type { Db } from '../db/open';
import { authenticate } from '../auth/guards';
import { findAccessibleEngagement, UNKNOWN_ENGAGEMENT } from '../engagements';
import { requireParent } from '../http/body';
import { parseId, parseListQuery } from '../http/query';
import { memberRead } from '../http/memberRead';
import { answerList } from '../http/listAnswer';
import { sendResource, modelResource } from '../http/serialize';
import { loadPages } from './structure';
import { createSurvey, deleteSurvey, findSurvey, listSurveys, surveyListSpec, toSurvey, updateSurvey, type SurveyRow } from './surveys';
import { orNotFound } from './parts';
import { resourceCreation, resourceUpdate } from '../http/resourceWrites';
import { describe } from '../openapi/describe';

const serializeSurvey = (row: SurveyRow, pages?: SurveyPage[], fields: Set<string> | null = null) => modelResource(SURVEY_TYPE, toSurvey(row, pages), fields);

async function sendSurvey(c: Parameters<typeof sendResource>[0], db: Db, id: number, user: AuthUser, status: 200 | 201 = 200) {
  const row = await orNotFound(findSurvey(db, id, user), 'survey');
  return sendResource(c, serializeSurvey(row, await loadPages(db, id)), status);
}

export function legacySurveysRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  app.get('/', describe({ summary: 'List legacy surveys', list: surveyListSpec, answer: { list: SURVEY } }), async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, surveyListSpec);
    const withPages = q.include.size > 0;
    return answerList(c, q, async (window) => {
      const page = await listSurveys(db, c.get('user'), { ...q, ...window });
      const data = [];
      for (const row of page.rows) data.push(serializeSurvey(row, withPages ? await loadPages(db, row.id) : undefined, q.fields));
      return { data, total: page.total };
    });
  });

  app.get(
    '/:id',
    describe({ summary: 'Read a legacy survey with its pages', read: surveyListSpec, answer: { resource: SURVEY } }),
    memberRead(surveyListSpec, 'survey', async (id, q, user) => {
      const row = await findSurvey(db, id, user);
      return row ? { data: serializeSurvey(row, await loadPages(db, row.id), q.fields) } : null;
    }),
  );

  app.post('/', describe(resourceCreation('Create a legacy survey', SURVEY, SurveyInput)), async (c) => {
    const user = c.get('user');
    const { attributes } = await c.var.body.read();
    await requireParent(findAccessibleEngagement(db, attributes.engagementId, user), 'engagementId', UNKNOWN_ENGAGEMENT);
    return sendSurvey(c, db, await createSurvey(db, attributes), user, 201);
  });

  app.patch('/:id', describe(resourceUpdate('Update a legacy survey', SURVEY, SurveyPatch)), async (c) => {
    const user = c.get('user');
    const existing = await orNotFound(findSurvey(db, parseId(c.req.param('id')), user), 'survey');
    const id = existing.id;
    const { attributes } = await c.var.body.read({ id });
    await updateSurvey(db, id, attributes);
    return sendSurvey(c, db, id, user);
  });

  app.delete('/:id', describe({ summary: 'Delete a legacy survey', answer: { empty: true } }), async (c) => {
    const existing = await orNotFound(findSurvey(db, parseId(c.req.param('id')), c.get('user')), 'survey');
    const id = existing.id;
    await deleteSurvey(db, id);
    return c.body(null, 204);
  });

  return app;
}
