/**
 * A screener's surveys with their flow (/api/screener-surveys): read in the screener's sponsor
 * scope; added (or copied into the screener), changed and removed by Admin or Super User while
 * the screener is unlocked (domain/screenerSurveyLinks.ts).
 */
import { Hono } from 'hono';
import type * as v from 'valibot';
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
import type { AppEnv, AuthUser, Deps } from '../context';
import { STAFF_ADMIN_ROLES, authenticate, requireRole } from '../auth/guards';
import { memberRead } from '../http/memberRead';
import { answerRows } from '../http/listAnswer';
import { createUnder, deleteAtPath, updateAtPath } from '../http/memberWrites';
import { toResource } from '../http/serialize';
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
import { resourceCreation, resourceUpdate } from '../http/resourceWrites';
import { describe } from '../openapi/describe';
import { chooseFromList } from '@core/validation/chooseFromList';

export function screenerSurveysRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  const canEdit = requireRole(...STAFF_ADMIN_ROLES);
  app.use('*', authenticate(deps));
  const link = {
    what: 'screener survey',
    find: (id: number, user: AuthUser) => editableScreenerSurveyLink(db, id, user),
    read: async (id: number) => {
      const data = await readScreenerSurveyLink(db, id);
      return data ? { data } : null;
    },
  };

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
    describe(resourceCreation('Add a survey to a screener', SCREENER_SURVEY, ScreenerSurveyInput)),
    canEdit,
    createUnder(
      link,
      { key: 'screenerId', find: (id, user) => findScreener(db, id, user), unknown: chooseFromList('a screener') },
      async (screener, attributes: v.InferOutput<typeof ScreenerSurveyInput>, user) => {
        await editableScreener(db, screener.id, user);
        return addScreenerSurvey(db, screener, attributes, user);
      },
    ),
  );

  app.patch(
    '/:id',
    describe(resourceUpdate("Update a screener's survey", SCREENER_SURVEY, ScreenerSurveyPatch)),
    canEdit,
    updateAtPath(link, (found, attributes: v.InferOutput<typeof ScreenerSurveyPatch>) => updateScreenerSurveyLink(db, found, attributes)),
  );

  app.delete(
    '/:id',
    describe({ summary: 'Remove a survey from a screener', answer: { empty: true } }),
    canEdit,
    deleteAtPath(link, (found) => removeScreenerSurveyLink(db, found.id)),
  );

  return app;
}
