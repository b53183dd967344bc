/**
 * A screener's surveys with their flow (/api/screener-surveys): read in the screener's sponsor
 * scope; added (or copied into the screener), changed and removed by Admin or Super User while
 * the screener is unlocked (domain/screenerSurveyLinks.ts).
 */
import { Hono, type Context } from 'hono';
import {
  SCREENER_FLOW,
  SCREENER_FLOW_TYPE,
  SCREENER_SURVEY,
  SCREENER_SURVEY_DEFAULT_SORT,
  SCREENER_SURVEY_SORTS,
  SCREENER_SURVEY_TYPE,
  ScreenerSurveyInput,
  ScreenerSurveyPatch,
} from '@core/model/screenerSurvey';
import type { AppEnv, Deps } from '../context';
import { STAFF_ADMIN_ROLES, authenticate, requireRole } from '../auth/guards';
import { requireParent } from '../http/body';
import { notFound } from '../http/errors';
import { parseId } from '../http/query';
import { memberRead } from '../http/memberRead';
import { answerRows } from '../http/listAnswer';
import { sendDocument, toResource } from '../http/serialize';
import { editableScreener, findScreener } from './access';
import {
  SCREENER_SURVEY_FILTERS,
  addScreenerSurvey,
  editableScreenerSurveyLink,
  readScreenerSurveyLink,
  removeScreenerSurveyLink,
  screenerFlow,
  screenerSurveyLinkPage,
  screenerSurveyResource,
  updateScreenerSurveyLink,
} from './surveyLinks';
import { describe } from '../openapi/describe';
import { chooseFromList } from '@core/validation/chooseFromList';

export function screenerSurveysRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  const canEdit = requireRole(...STAFF_ADMIN_ROLES);
  app.use('*', authenticate(deps));

  const listSpec = {
    type: SCREENER_SURVEY_TYPE,
    sorts: SCREENER_SURVEY_SORTS,
    defaultSort: SCREENER_SURVEY_DEFAULT_SORT,
    defaultLimit: 100,
    filters: SCREENER_SURVEY_FILTERS,
  };
  app.get('/', describe({ summary: "List a screener's surveys", list: listSpec, answer: { list: SCREENER_SURVEY } }), (c) =>
    answerRows(c, listSpec, (q) => screenerSurveyLinkPage(db, c.get('user'), q), screenerSurveyResource),
  );

  /** The screener's flow between its surveys (domain/screenerSurveyLinks.ts). */
  app.get(
    '/flow/:id',
    describe({ summary: "Read a screener's survey flow", answer: { resource: SCREENER_FLOW } }),
    memberRead(null, 'screener', async (id, _q, user) => {
      const screener = await findScreener(db, id, user);
      return screener ? { data: toResource(SCREENER_FLOW_TYPE, screener.id, { ...(await screenerFlow(db, screener.id)) }) } : null;
    }),
  );

  app.post(
    '/',
    describe({
      summary: 'Add a survey to a screener',
      body: { resource: SCREENER_SURVEY_TYPE, attributes: ScreenerSurveyInput },
      answer: { resource: SCREENER_SURVEY, status: 201 },
    }),
    canEdit,
    async (c) => {
      const user = c.get('user');
      const { attributes } = await c.var.body.read();
      const screener = await requireParent(findScreener(db, attributes.screenerId, user), 'screenerId', chooseFromList('a screener'));
      await editableScreener(db, screener.id, user);
      return sendLink(c, await addScreenerSurvey(db, screener, attributes, user), 201);
    },
  );

  const sendLink = async <E extends AppEnv>(c: Context<E>, id: number, status: 200 | 201 = 200) => {
    const link = await readScreenerSurveyLink(db, id);
    if (!link) throw notFound('screener survey');
    return sendDocument(c, { data: link }, status);
  };

  const editableLink = <E extends AppEnv>(c: Context<E>) => editableScreenerSurveyLink(db, parseId(c.req.param('id')), c.get('user'));

  app.patch(
    '/:id',
    describe({
      summary: "Update a screener's survey",
      body: { resource: SCREENER_SURVEY_TYPE, attributes: ScreenerSurveyPatch },
      answer: { resource: SCREENER_SURVEY },
    }),
    canEdit,
    async (c) => {
      const link = await editableLink(c);
      const { attributes } = await c.var.body.read({ id: link.id });
      const row = await updateScreenerSurveyLink(db, link, attributes);
      if (!row) throw notFound('screener survey');
      return sendLink(c, row.id);
    },
  );

  app.delete('/:id', describe({ summary: 'Remove a survey from a screener', answer: { empty: true } }), canEdit, async (c) => {
    const link = await editableLink(c);
    await removeScreenerSurveyLink(db, link.id);
    return c.body(null, 204);
  });

  return app;
}
