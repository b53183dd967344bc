/**
 * Legacy surveys (SPEC sections 3, 4, 7): surveys of an engagement with pages, questions and
 * options, and each option's per-engagement disqualification and weight. The routes parse,
 * authorize, call the domain (server/legacy-survey/) and answer. Any member of staff may author
 * the surveys of engagements they may see; another sponsor's survey (or its parts) answers 404.
 */
import { Hono } from 'hono';
import {
  ENGAGEMENT_OPTION_TYPE,
  EngagementOptionInput,
  EngagementOptionPatch,
  EngagementOptionsReplace,
  OptionInput,
  OptionPatch,
  PageInput,
  PagePatch,
  QuestionInput,
  QuestionPatch,
  SURVEY_OPTION_TYPE,
  SURVEY_PAGE_TYPE,
  SURVEY_QUESTION_TYPE,
  SURVEY_TYPE,
  SurveyInput,
  SurveyPatch,
  type SurveyPage,
} from '@core/model/legacySurvey';
import type { AppEnv, AuthUser, Deps } from '../context';
import type { Db } from '../db/open';
import { authenticate } from '../auth/guards';
import { findAccessibleEngagement, UNKNOWN_ENGAGEMENT } from '../domain/engagementAccess';
import { readResource, requireParent } from '../http/body';
import { badRequest, notFound } from '../http/errors';
import { parseId, parseListQuery, parseReadQuery } from '../http/query';
import { sendList, sendResource, toResource } from '../http/serialize';
import {
  createEngagementOption,
  engagementOptionListSpec,
  findEngagementOption,
  listEngagementOptions,
  replaceEngagementOptions,
  toEngagementOption,
  updateEngagementOption,
  type EngagementOptionRow,
} from '../legacy-survey/engagementOptions';
import { UNKNOWN_OPTION, UNKNOWN_PAGE, UNKNOWN_QUESTION, UNKNOWN_SURVEY } from '../legacy-survey/messages';
import { createOption, deleteOption, updateOption } from '../legacy-survey/options';
import { createPage, deletePage, updatePage } from '../legacy-survey/pages';
import { findOption, findPage, findQuestion } from '../legacy-survey/parts';
import { createQuestion, deleteQuestion, updateQuestion } from '../legacy-survey/questions';
import { loadOption, loadPages, loadQuestion, loadQuestions, toPage } from '../legacy-survey/structure';
import { createSurvey, deleteSurvey, findSurvey, listSurveys, surveyListSpec, toSurvey, updateSurvey, type SurveyRow } from '../legacy-survey/surveys';
import { assertCategory, assertTags } from '../oform/tagging';
import { describe } from '../openapi/describe';
import { assertTranslationLanguages } from './languages';

function serializeSurvey(row: SurveyRow, pages?: SurveyPage[], fields: Set<string> | null = null) {
  const { id, ...attributes } = toSurvey(row, pages);
  return toResource(SURVEY_TYPE, id, attributes, { fields });
}

async function sendSurvey(c: Parameters<typeof sendResource>[0], db: Db, id: number, user: AuthUser, status: 200 | 201 = 200) {
  const row = await findSurvey(db, id, user);
  if (!row) throw notFound('survey');
  return sendResource(c, serializeSurvey(row, await loadPages(db, id)), status);
}

function legacySurveysRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  app.get('/', describe({ summary: 'List legacy surveys', list: surveyListSpec, answer: { list: surveyListSpec.type } }), async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, surveyListSpec);
    const page = await listSurveys(db, c.get('user'), q);
    const withPages = q.include.size > 0;
    const data = [];
    for (const row of page.rows) data.push(serializeSurvey(row, withPages ? await loadPages(db, row.id) : undefined, q.fields));
    return sendList(c, data, { total: page.total, page: q.page, limit: q.limit });
  });

  app.get('/:id', describe({ summary: 'Read a legacy survey with its pages' }), async (c) => {
    const q = parseReadQuery(new URL(c.req.url).searchParams, surveyListSpec);
    const id = parseId(c.req.param('id'));
    const row = await findSurvey(db, id, c.get('user'));
    if (!row || id === null) throw notFound('survey');
    return sendResource(c, serializeSurvey(row, await loadPages(db, id), q.fields));
  });

  app.post('/', describe({ summary: 'Create a legacy survey', body: { resource: SURVEY_TYPE, attributes: SurveyInput }, answer: { resource: SURVEY_TYPE, status: 201 } }), async (c) => {
    const user = c.get('user');
    const { attributes } = await readResource(c, SurveyInput, { type: SURVEY_TYPE });
    await requireParent(findAccessibleEngagement(db, attributes.engagementId, user), 'engagementId', UNKNOWN_ENGAGEMENT);
    return sendSurvey(c, db, await createSurvey(db, attributes), user, 201);
  });

  app.patch('/:id', describe({ summary: 'Update a legacy survey', body: { resource: SURVEY_TYPE, attributes: SurveyPatch }, answer: { resource: SURVEY_TYPE } }), async (c) => {
    const user = c.get('user');
    const id = parseId(c.req.param('id'));
    const existing = await findSurvey(db, id, user);
    if (!existing || id === null) throw notFound('survey');
    const { attributes } = await readResource(c, SurveyPatch, { type: SURVEY_TYPE, id });
    await updateSurvey(db, id, attributes);
    return sendSurvey(c, db, id, user);
  });

  app.delete('/:id', describe({ summary: 'Delete a legacy survey', answer: { empty: true } }), async (c) => {
    const id = parseId(c.req.param('id'));
    const existing = await findSurvey(db, id, c.get('user'));
    if (!existing || id === null) throw notFound('survey');
    await deleteSurvey(db, id);
    return c.body(null, 204);
  });

  return app;
}

function serializePage(page: SurveyPage, pageCounter: number) {
  const { id, ...attributes } = page;
  return toResource(SURVEY_PAGE_TYPE, id, { ...attributes, pageCounter });
}

async function sendPage(c: Parameters<typeof sendResource>[0], db: Db, id: number, user: AuthUser, status: 200 | 201 = 200) {
  const context = await findPage(db, id, user);
  if (!context) throw notFound('page');
  const questions = await loadQuestions(db, [id]);
  return sendResource(c, serializePage(toPage(context.page, questions), context.survey.pageCounter), status);
}

function legacyPagesRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  app.post('/', describe({ summary: 'Create a legacy survey page', body: { resource: SURVEY_PAGE_TYPE, attributes: PageInput }, answer: { resource: SURVEY_PAGE_TYPE, status: 201 } }), async (c) => {
    const user = c.get('user');
    const { attributes } = await readResource(c, PageInput, { type: SURVEY_PAGE_TYPE });
    await requireParent(findSurvey(db, attributes.surveyId, user), 'surveyId', UNKNOWN_SURVEY);
    return sendPage(c, db, await createPage(db, attributes), user, 201);
  });

  app.patch('/:id', describe({ summary: 'Update a legacy survey page', body: { resource: SURVEY_PAGE_TYPE, attributes: PagePatch }, answer: { resource: SURVEY_PAGE_TYPE } }), async (c) => {
    const user = c.get('user');
    const id = parseId(c.req.param('id'));
    const context = await findPage(db, id, user);
    if (!context || id === null) throw notFound('page');
    const { attributes } = await readResource(c, PagePatch, { type: SURVEY_PAGE_TYPE, id });
    await updatePage(db, context, attributes);
    return sendPage(c, db, id, user);
  });

  app.delete('/:id', describe({ summary: 'Delete a legacy survey page', answer: { empty: true } }), async (c) => {
    const id = parseId(c.req.param('id'));
    const context = await findPage(db, id, c.get('user'));
    if (!context || id === null) throw notFound('page');
    await deletePage(db, context);
    return c.body(null, 204);
  });

  return app;
}

/** A question's translations name only known, non-default languages (checked by their codes). */
async function assertQuestionTranslations(db: Db, map: Record<string, unknown> | undefined) {
  if (!map) return;
  await assertTranslationLanguages(db, Object.fromEntries(Object.keys(map).map((k) => [k, ''])), '/data/attributes/translations');
}

async function sendQuestion(c: Parameters<typeof sendResource>[0], db: Db, id: number, status: 200 | 201 = 200) {
  const question = await loadQuestion(db, id);
  if (!question) throw notFound('question');
  const { id: questionId, ...attributes } = question;
  return sendResource(c, toResource(SURVEY_QUESTION_TYPE, questionId, attributes), status);
}

function legacyQuestionsRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  app.post('/', describe({ summary: 'Create a legacy survey question', body: { resource: SURVEY_QUESTION_TYPE, attributes: QuestionInput }, answer: { resource: SURVEY_QUESTION_TYPE, status: 201 } }), async (c) => {
    const user = c.get('user');
    const { attributes } = await readResource(c, QuestionInput, { type: SURVEY_QUESTION_TYPE });
    const context = await requireParent(findPage(db, attributes.pageId, user), 'pageId', UNKNOWN_PAGE);
    await assertCategory(db, attributes.questionCategoryId, '/data/attributes/questionCategoryId');
    await assertTags(db, attributes.tagIds);
    await assertQuestionTranslations(db, attributes.translations);
    return sendQuestion(c, db, await createQuestion(db, context, attributes), 201);
  });

  app.patch('/:id', describe({ summary: 'Update a legacy survey question', body: { resource: SURVEY_QUESTION_TYPE, attributes: QuestionPatch }, answer: { resource: SURVEY_QUESTION_TYPE } }), async (c) => {
    const user = c.get('user');
    const id = parseId(c.req.param('id'));
    const context = await findQuestion(db, id, user);
    if (!context || id === null) throw notFound('question');
    const { attributes } = await readResource(c, QuestionPatch, { type: SURVEY_QUESTION_TYPE, id });
    await assertCategory(db, attributes.questionCategoryId, '/data/attributes/questionCategoryId');
    await assertTags(db, attributes.tagIds);
    await assertQuestionTranslations(db, attributes.translations);
    await updateQuestion(db, context, attributes);
    return sendQuestion(c, db, id);
  });

  app.delete('/:id', describe({ summary: 'Delete a legacy survey question', answer: { empty: true } }), async (c) => {
    const id = parseId(c.req.param('id'));
    const context = await findQuestion(db, id, c.get('user'));
    if (!context || id === null) throw notFound('question');
    await deleteQuestion(db, context);
    return c.body(null, 204);
  });

  return app;
}

async function sendOption(c: Parameters<typeof sendResource>[0], db: Db, id: number, status: 200 | 201 = 200) {
  const option = await loadOption(db, id);
  if (!option) throw notFound('option');
  const { id: optionId, ...attributes } = option;
  return sendResource(c, toResource(SURVEY_OPTION_TYPE, optionId, attributes), status);
}

function legacyOptionsRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  app.post('/', describe({ summary: 'Create a legacy question option', body: { resource: SURVEY_OPTION_TYPE, attributes: OptionInput }, answer: { resource: SURVEY_OPTION_TYPE, status: 201 } }), async (c) => {
    const user = c.get('user');
    const { attributes } = await readResource(c, OptionInput, { type: SURVEY_OPTION_TYPE });
    const context = await requireParent(findQuestion(db, attributes.questionId, user), 'questionId', UNKNOWN_QUESTION);
    await assertTranslationLanguages(db, attributes.translations, '/data/attributes/translations');
    return sendOption(c, db, await createOption(db, context, attributes), 201);
  });

  app.patch('/:id', describe({ summary: 'Update a legacy question option', body: { resource: SURVEY_OPTION_TYPE, attributes: OptionPatch }, answer: { resource: SURVEY_OPTION_TYPE } }), async (c) => {
    const user = c.get('user');
    const id = parseId(c.req.param('id'));
    const context = await findOption(db, id, user);
    if (!context || id === null) throw notFound('option');
    const { attributes } = await readResource(c, OptionPatch, { type: SURVEY_OPTION_TYPE, id });
    await assertTranslationLanguages(db, attributes.translations, '/data/attributes/translations');
    await updateOption(db, context, attributes);
    return sendOption(c, db, id);
  });

  app.delete('/:id', describe({ summary: 'Delete a legacy question option', answer: { empty: true } }), async (c) => {
    const id = parseId(c.req.param('id'));
    const context = await findOption(db, id, c.get('user'));
    if (!context || id === null) throw notFound('option');
    await deleteOption(db, context);
    return c.body(null, 204);
  });

  return app;
}

function serializeEngagementOption(row: EngagementOptionRow, fields: Set<string> | null = null) {
  const { id, ...attributes } = toEngagementOption(row);
  return toResource(ENGAGEMENT_OPTION_TYPE, id, attributes, { fields });
}

function engagementOptionsRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  app.get('/', describe({ summary: 'List option engagements', list: engagementOptionListSpec, answer: { list: engagementOptionListSpec.type } }), async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, engagementOptionListSpec);
    const only: { optionId?: number; engagementId?: number } = {};
    for (const name of ['optionId', 'engagementId'] as const) {
      const raw = q.filters[name];
      if (raw === undefined) continue;
      const id = parseId(raw);
      if (id === null) throw badRequest(`'${name}' must be an id.`, name);
      only[name] = id;
    }
    const page = await listEngagementOptions(db, c.get('user'), q, only);
    return sendList(c, page.rows.map((r) => serializeEngagementOption(r, q.fields)), { total: page.total, page: q.page, limit: q.limit });
  });

  app.post('/', describe({ summary: 'Link an option to an engagement', body: { resource: ENGAGEMENT_OPTION_TYPE, attributes: EngagementOptionInput }, answer: { resource: ENGAGEMENT_OPTION_TYPE, status: 201 } }), async (c) => {
    const user = c.get('user');
    const { attributes } = await readResource(c, EngagementOptionInput, { type: ENGAGEMENT_OPTION_TYPE });
    const context = await requireParent(findOption(db, attributes.optionId, user), 'optionId', UNKNOWN_OPTION);
    return sendResource(c, serializeEngagementOption(await createEngagementOption(db, context, user, attributes)), 201);
  });

  app.patch('/:id', describe({ summary: "Update an option's engagement link", body: { resource: ENGAGEMENT_OPTION_TYPE, attributes: EngagementOptionPatch }, answer: { resource: ENGAGEMENT_OPTION_TYPE } }), async (c) => {
    const user = c.get('user');
    const id = parseId(c.req.param('id'));
    const existing = await findEngagementOption(db, id, user);
    if (!existing || id === null) throw notFound('engagement option');
    const { attributes } = await readResource(c, EngagementOptionPatch, { type: ENGAGEMENT_OPTION_TYPE, id });
    await updateEngagementOption(db, id, attributes);
    return sendResource(c, serializeEngagementOption((await findEngagementOption(db, id, user)) as EngagementOptionRow));
  });

  return app;
}

/** POST /api/update-engagements-options/{optionId}: the option's whole set, in one transaction. */
function updateEngagementOptionsRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  app.post('/:optionId', describe({ summary: "Set an option's engagements", body: { resource: ENGAGEMENT_OPTION_TYPE, attributes: EngagementOptionsReplace }, answer: { list: null } }), async (c) => {
    const user = c.get('user');
    const optionId = parseId(c.req.param('optionId'));
    const context = await findOption(db, optionId, user);
    if (!context || optionId === null) throw notFound('option');
    const { attributes } = await readResource(c, EngagementOptionsReplace, { type: ENGAGEMENT_OPTION_TYPE });
    const rows = await replaceEngagementOptions(db, context, user, attributes.engagementOptions);
    return sendList(c, rows.map((r) => serializeEngagementOption(r)), { total: rows.length, page: 1, limit: 1000 });
  });

  return app;
}

/** Mounts every legacy-survey resource under /api. */
export function mountLegacySurveyRoutes(app: Hono<AppEnv>, deps: Deps) {
  app.route('/api/surveys', legacySurveysRoutes(deps));
  app.route('/api/pages', legacyPagesRoutes(deps));
  app.route('/api/questions', legacyQuestionsRoutes(deps));
  app.route('/api/options', legacyOptionsRoutes(deps));
  app.route('/api/engagements-options', engagementOptionsRoutes(deps));
  app.route('/api/update-engagements-options', updateEngagementOptionsRoutes(deps));
}
