/**
 * Legacy surveys (SPEC sections 3, 4, 7): surveys of an engagement with pages, questions and
 * options, and each option's per-engagement disqualification and weight. The authoring rules
 * (page names and counter, Placeholder questions, 'None of the Above', transition targets,
 * dense display orders) come from core/oform/authoring.ts. Any member of staff may author the
 * surveys of engagements they may see; another sponsor's survey (or its parts) answers 404.
 * Pages, questions and options are deleted softly and hidden from every read.
 */
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { and, asc, count, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import {
  ENGAGEMENT_OPTION_DEFAULT_SORT,
  ENGAGEMENT_OPTION_SORTS,
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
  SURVEY_DEFAULT_SORT,
  SURVEY_OPTION_TYPE,
  SURVEY_PAGE_TYPE,
  SURVEY_QUESTION_TYPE,
  SURVEY_SORTS,
  SURVEY_TYPE,
  SurveyInput,
  SurveyPatch,
  TRANSITION_TARGET_INVALID,
  TRANSITION_TARGET_REQUIRED,
  type EngagementOption,
  type Survey,
  type SurveyOption,
  type SurveyPage,
  type SurveyQuestion,
  type TransitionTo,
} from '@core/model/legacySurvey';
import type { FieldType } from '@core/model/oform';
import {
  DOB_PAGE_IS_TARGET,
  NONE_OF_THE_ABOVE,
  PLACEHOLDER_TITLE,
  newOptionIndex,
  newPageTitle,
  noneOfTheAbove,
  optionsJumpingTo,
  pageInUseMessage,
  transitionTargets,
} from '@core/oform/authoring';
import type { AppEnv, AuthUser, Deps } from '../context';
import type { Db, Tx } from '../db/open';
import {
  engagementOptions,
  engagements,
  sponsors,
  surveyOptions,
  surveyPages,
  surveyQuestionTags,
  surveyQuestions,
  surveys,
  tags,
} from '../db/schema';
import { authenticate } from '../auth/guards';
import { engagementScope, findAccessibleEngagement, UNKNOWN_ENGAGEMENT } from '../domain/engagementAccess';
import { readResource, requireParent } from '../http/body';
import { badRequest, conflict, invalid, notFound } from '../http/errors';
import { parseId, parseListQuery, parseReadQuery, type ListSpec } from '../http/query';
import { sendList, sendResource, toResource } from '../http/serialize';
import { ilikeAny, pgErrorCode } from '../http/sql';
import { booleanFilter, filterConditions, filterNames, idFilter } from '../http/filters';
import { closeGaps, moveTo } from '../oform/ordering';
import { assertCategory, assertTags, writeTags } from '../oform/tagging';
import { assertTranslationLanguages } from './languages';
import { joinedPage } from '../http/list';
import { describe } from '../openapi/describe';

export const UNKNOWN_SURVEY = 'Choose a survey from the list.';
export const UNKNOWN_PAGE = 'Choose a page from the list.';
export const UNKNOWN_QUESTION = 'Choose a question from the list.';
export const UNKNOWN_OPTION = 'Choose an option from the list.';
export const OPTION_ENGAGEMENT_INVALID = "Choose an engagement of the survey's sponsor.";
export const ENGAGEMENT_OPTION_EXISTS = 'This option already has a setting for this engagement.';
export const ENGAGEMENT_REPEATED = 'This engagement is listed more than once.';


// ---------------------------------------------------------------------------------------------
// Surveys

const surveyColumns = {
  id: surveys.id,
  title: surveys.title,
  globalId: surveys.globalId,
  isActive: surveys.isActive,
  engagementId: surveys.engagementId,
  engagementName: engagements.name,
  sponsorId: engagements.sponsorId,
  sponsorName: sponsors.name,
  screenerId: surveys.screenerId,
  pageCounter: surveys.pageCounter,
  created: surveys.created,
  modified: surveys.modified,
};
type SurveyRow = {
  id: number;
  title: string;
  globalId: string;
  isActive: boolean;
  engagementId: number | null;
  engagementName: string | null;
  sponsorId: number | null;
  sponsorName: string | null;
  screenerId: number | null;
  pageCounter: number;
  created: Date;
  modified: Date;
};

const SURVEY_ATTRIBUTES = [...Object.keys(surveyColumns).filter((k) => k !== 'id'), 'pages'] as const;
const SURVEY_INCLUDES = ['pages', 'pages.questions', 'pages.questions.options'] as const;

const SURVEY_FILTERS = {
  engagementId: idFilter(surveys.engagementId, 'engagement'),
  sponsorId: idFilter(engagements.sponsorId, 'sponsor'),
  isActive: booleanFilter(surveys.isActive),
};

const surveyListSpec: ListSpec<(typeof SURVEY_SORTS)[number], 'searchQuery' | keyof typeof SURVEY_FILTERS> = {
  type: SURVEY_TYPE,
  sorts: SURVEY_SORTS,
  defaultSort: SURVEY_DEFAULT_SORT,
  filters: ['searchQuery', ...filterNames(SURVEY_FILTERS)],
  fields: SURVEY_ATTRIBUTES,
  includes: SURVEY_INCLUDES,
};

const surveySortColumns = {
  title: surveys.title,
  isActive: surveys.isActive,
  engagementName: engagements.name,
  sponsorName: sponsors.name,
  created: surveys.created,
  modified: surveys.modified,
};

const idOrNull = (n: number | null) => (n === null ? null : String(n));

function toSurvey(row: SurveyRow, pages?: SurveyPage[]): Survey {
  return {
    id: String(row.id),
    title: row.title,
    globalId: row.globalId,
    isActive: row.isActive,
    engagementId: idOrNull(row.engagementId),
    engagementName: row.engagementName,
    sponsorId: idOrNull(row.sponsorId),
    sponsorName: row.sponsorName,
    screenerId: idOrNull(row.screenerId),
    pageCounter: row.pageCounter,
    created: row.created.toISOString(),
    modified: row.modified.toISOString(),
    ...(pages ? { pages } : {}),
  };
}

function serializeSurvey(row: SurveyRow, pages?: SurveyPage[], fields: Set<string> | null = null) {
  const { id, ...attributes } = toSurvey(row, pages);
  return toResource(SURVEY_TYPE, id, attributes, { fields });
}

const selectSurveys = (db: Db | Tx) =>
  db
    .select(surveyColumns)
    .from(surveys)
    .leftJoin(engagements, eq(engagements.id, surveys.engagementId))
    .leftJoin(sponsors, eq(sponsors.id, engagements.sponsorId));

/**
 * Which surveys a user may reach: all for Admin and Super User, else those of engagements of
 * their sponsors (with the engagements left-joined, a survey without one is out of scope).
 */
const surveyScope = (user: AuthUser) => engagementScope(user);

async function findSurvey(db: Db | Tx, id: number | null, user: AuthUser): Promise<SurveyRow | undefined> {
  if (id === null) return undefined;
  const [row] = await selectSurveys(db).where(and(eq(surveys.id, id), surveyScope(user)));
  return row as SurveyRow | undefined;
}

type QuestionRow = typeof surveyQuestions.$inferSelect;
type OptionRow = typeof surveyOptions.$inferSelect;
type PageRow = typeof surveyPages.$inferSelect;

function toOption(row: OptionRow): SurveyOption {
  return {
    id: String(row.id),
    questionId: String(row.questionId),
    label: row.label,
    value: row.value,
    isDisqualified: row.isDisqualified,
    transitionTo: row.transitionTo as TransitionTo | null,
    transitionTarget: idOrNull(row.transitionTarget),
    translations: row.translations,
    displayOrder: row.displayOrder,
  };
}

function toQuestion(row: QuestionRow, tagList: { id: string; name: string }[], options: SurveyOption[]): SurveyQuestion {
  return {
    id: String(row.id),
    pageId: String(row.pageId),
    questionType: row.questionType as FieldType,
    title: row.title,
    helperText: row.helperText,
    questionCategoryId: idOrNull(row.questionCategoryId),
    tags: tagList,
    translations: row.translations,
    displayOrder: row.displayOrder,
    options,
  };
}

async function loadQuestions(db: Db | Tx, pageIds: number[]): Promise<SurveyQuestion[]> {
  if (pageIds.length === 0) return [];
  const questions = await db
    .select()
    .from(surveyQuestions)
    .where(and(inArray(surveyQuestions.pageId, pageIds), eq(surveyQuestions.deleted, false)))
    .orderBy(asc(surveyQuestions.displayOrder), asc(surveyQuestions.id));
  const questionIds = questions.map((q) => q.id);
  const options = questionIds.length
    ? await db
        .select()
        .from(surveyOptions)
        .where(and(inArray(surveyOptions.questionId, questionIds), eq(surveyOptions.deleted, false)))
        .orderBy(asc(surveyOptions.displayOrder), asc(surveyOptions.id))
    : [];
  const tagRows = questionIds.length
    ? await db
        .select({ questionId: surveyQuestionTags.questionId, id: tags.id, name: tags.name })
        .from(surveyQuestionTags)
        .innerJoin(tags, eq(tags.id, surveyQuestionTags.tagId))
        .where(inArray(surveyQuestionTags.questionId, questionIds))
        .orderBy(asc(tags.name))
    : [];
  return questions.map((q) =>
    toQuestion(
      q,
      tagRows.filter((t) => t.questionId === q.id).map((t) => ({ id: String(t.id), name: t.name })),
      options.filter((o) => o.questionId === q.id).map(toOption),
    ),
  );
}

function toPage(row: PageRow, questions: SurveyQuestion[]): SurveyPage {
  return {
    id: String(row.id),
    surveyId: String(row.surveyId),
    title: row.title,
    displayOrder: row.displayOrder,
    isActive: row.isActive,
    questions,
  };
}

/** A survey's pages (not deleted) with their questions and options, in display order. */
async function loadPages(db: Db | Tx, surveyId: number): Promise<SurveyPage[]> {
  const pages = await db
    .select()
    .from(surveyPages)
    .where(and(eq(surveyPages.surveyId, surveyId), eq(surveyPages.isDeleted, false)))
    .orderBy(asc(surveyPages.displayOrder), asc(surveyPages.id));
  const questions = await loadQuestions(
    db,
    pages.map((p) => p.id),
  );
  return pages.map((p) => toPage(p, questions.filter((q) => q.pageId === String(p.id))));
}

// ---------------------------------------------------------------------------------------------
// Parts of a survey, reached through it

interface PageContext {
  page: PageRow;
  survey: SurveyRow;
}
interface QuestionContext extends PageContext {
  question: QuestionRow;
}
interface OptionContext extends QuestionContext {
  option: OptionRow;
}

async function findPage(db: Db | Tx, id: number | null, user: AuthUser): Promise<PageContext | undefined> {
  if (id === null) return undefined;
  const [page] = await db
    .select()
    .from(surveyPages)
    .where(and(eq(surveyPages.id, id), eq(surveyPages.isDeleted, false)));
  const survey = page && (await findSurvey(db, page.surveyId, user));
  return page && survey ? { page, survey } : undefined;
}

async function findQuestion(db: Db | Tx, id: number | null, user: AuthUser): Promise<QuestionContext | undefined> {
  if (id === null) return undefined;
  const [question] = await db
    .select()
    .from(surveyQuestions)
    .where(and(eq(surveyQuestions.id, id), eq(surveyQuestions.deleted, false)));
  const context = question && (await findPage(db, question.pageId, user));
  return question && context ? { ...context, question } : undefined;
}

async function findOption(db: Db | Tx, id: number | null, user: AuthUser): Promise<OptionContext | undefined> {
  if (id === null) return undefined;
  const [option] = await db
    .select()
    .from(surveyOptions)
    .where(and(eq(surveyOptions.id, id), eq(surveyOptions.deleted, false)));
  const context = option && (await findQuestion(db, option.questionId, user));
  return option && context ? { ...context, option } : undefined;
}

/** Serialises writes to one survey (page counter, display orders) and marks it modified. */
async function touchSurvey(tx: Tx, surveyId: number) {
  await tx.update(surveys).set({ modified: sql`now()` }).where(eq(surveys.id, surveyId));
}

const pageSiblings = (tx: Tx, surveyId: number) =>
  tx
    .select({ id: surveyPages.id, displayOrder: surveyPages.displayOrder })
    .from(surveyPages)
    .where(and(eq(surveyPages.surveyId, surveyId), eq(surveyPages.isDeleted, false)))
    .orderBy(asc(surveyPages.displayOrder), asc(surveyPages.id));
const questionSiblings = (tx: Tx, pageId: number) =>
  tx
    .select({ id: surveyQuestions.id, displayOrder: surveyQuestions.displayOrder })
    .from(surveyQuestions)
    .where(and(eq(surveyQuestions.pageId, pageId), eq(surveyQuestions.deleted, false)))
    .orderBy(asc(surveyQuestions.displayOrder), asc(surveyQuestions.id));
const optionSiblings = (tx: Tx, questionId: number) =>
  tx
    .select({ id: surveyOptions.id, displayOrder: surveyOptions.displayOrder, label: surveyOptions.label, value: surveyOptions.value })
    .from(surveyOptions)
    .where(and(eq(surveyOptions.questionId, questionId), eq(surveyOptions.deleted, false)))
    .orderBy(asc(surveyOptions.displayOrder), asc(surveyOptions.id));

// ---------------------------------------------------------------------------------------------
// Checks before writing

async function assertQuestionTranslations(db: Db, map: Record<string, unknown> | undefined) {
  if (!map) return;
  await assertTranslationLanguages(db, Object.fromEntries(Object.keys(map).map((k) => [k, ''])), '/data/attributes/translations');
}

/** The survey's pages as core/oform/authoring.ts sees them (identity = page id). */
async function pageSummaries(db: Db | Tx, surveyId: number) {
  return (await loadPages(db, surveyId)).map((p) => ({
    identity: p.id,
    title: p.title,
    displayOrder: p.displayOrder,
    fieldTypes: p.questions.map((q) => q.questionType),
  }));
}

/**
 * An option's transition as it will be stored: 'end', a page of the same survey that
 * `transitionTargets` offers (not the option's own page, not an all-dob page), or none.
 */
async function resolveTransition(
  db: Db,
  context: PageContext,
  to: TransitionTo | null,
  target: number | null,
): Promise<{ transitionTo: TransitionTo | null; transitionTarget: number | null }> {
  if (to !== 'page') return { transitionTo: to, transitionTarget: null };
  if (target === null) throw invalid([{ pointer: '/data/attributes/transitionTarget', detail: TRANSITION_TARGET_REQUIRED }]);
  const offered = transitionTargets(await pageSummaries(db, context.survey.id), String(context.page.id));
  if (!offered.some((p) => p.identity === String(target))) {
    throw invalid([{ pointer: '/data/attributes/transitionTarget', detail: TRANSITION_TARGET_INVALID }]);
  }
  return { transitionTo: 'page', transitionTarget: target };
}

/** Options (not deleted, on other live pages) that jump to `pageId`, shaped for optionsJumpingTo. */
async function jumpsTo(db: Db | Tx, surveyId: number, pageId: number) {
  const rows = await db
    .select({ title: surveyQuestions.title, label: surveyOptions.label, value: surveyOptions.value, target: surveyOptions.transitionTarget })
    .from(surveyOptions)
    .innerJoin(surveyQuestions, eq(surveyQuestions.id, surveyOptions.questionId))
    .innerJoin(surveyPages, eq(surveyPages.id, surveyQuestions.pageId))
    .where(
      and(
        eq(surveyPages.surveyId, surveyId),
        eq(surveyPages.isDeleted, false),
        ne(surveyPages.id, pageId),
        eq(surveyQuestions.deleted, false),
        eq(surveyOptions.deleted, false),
        eq(surveyOptions.transitionTo, 'page'),
        eq(surveyOptions.transitionTarget, pageId),
      ),
    );
  return optionsJumpingTo(
    rows.map((r) => ({
      title: r.title,
      configuration: {
        options: [
          { label: r.label, value: r.value, translations: {}, isDisqualified: false, transition: { to: 'page' as const, identity: String(r.target) } },
        ],
      },
    })),
    String(pageId),
  );
}

/** Adds 'None of the Above' to a 'multiple' question that has no options (SPEC section 4). */
async function addNoneOfTheAboveIfEmpty(tx: Tx, questionId: number) {
  const siblings = await optionSiblings(tx, questionId);
  if (siblings.length > 0) return;
  const none = noneOfTheAbove();
  await tx.insert(surveyOptions).values({ questionId, label: NONE_OF_THE_ABOVE, value: none.value, isDisqualified: false, displayOrder: 1 });
}

// ---------------------------------------------------------------------------------------------
// Routes

async function sendSurvey(c: Parameters<typeof sendResource>[0], db: Db, id: number, user: AuthUser, status: 200 | 201 = 200) {
  const row = await findSurvey(db, id, user);
  if (!row) throw notFound('survey');
  return sendResource(c, serializeSurvey(row, await loadPages(db, id)), status);
}

function surveysRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  app.get('/', describe({ summary: 'List legacy surveys', list: surveyListSpec, answer: { list: surveyListSpec.type } }), async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, surveyListSpec);
    const conditions: (SQL | undefined)[] = [surveyScope(c.get('user')), ...filterConditions(q.filters, SURVEY_FILTERS)];
    if (q.filters.searchQuery?.trim()) {
      conditions.push(ilikeAny([surveys.title, surveys.globalId, engagements.name, sponsors.name], q.filters.searchQuery));
    }
    const where = and(...conditions);
    const counted = db
      .select({ n: count() })
      .from(surveys)
      .leftJoin(engagements, eq(engagements.id, surveys.engagementId))
      .leftJoin(sponsors, eq(sponsors.id, engagements.sponsorId))
      .$dynamic();
    const page = await joinedPage(selectSurveys(db).$dynamic(), counted, q, { where, sorts: surveySortColumns, id: surveys.id });
    const withPages = q.include.size > 0;
    const data = [];
    for (const row of page.rows as SurveyRow[]) data.push(serializeSurvey(row, withPages ? await loadPages(db, row.id) : undefined, q.fields));
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
    const id = await db.transaction(async (tx) => {
      const [created] = await tx
        .insert(surveys)
        .values({ ...attributes, globalId: randomUUID(), pageCounter: 1 })
        .returning({ id: surveys.id });
      if (!created) throw new Error('insert returned no row');
      await tx.insert(surveyPages).values({ surveyId: created.id, title: newPageTitle(0), displayOrder: 1 });
      return created.id;
    });
    return sendSurvey(c, db, id, user, 201);
  });

  app.patch('/:id', describe({ summary: 'Update a legacy survey', body: { resource: SURVEY_TYPE, attributes: SurveyPatch }, answer: { resource: SURVEY_TYPE } }), async (c) => {
    const user = c.get('user');
    const id = parseId(c.req.param('id'));
    const existing = await findSurvey(db, id, user);
    if (!existing || id === null) throw notFound('survey');
    const { attributes } = await readResource(c, SurveyPatch, { type: SURVEY_TYPE, id });
    await db
      .update(surveys)
      .set({ ...attributes, modified: sql`now()` })
      .where(eq(surveys.id, id));
    return sendSurvey(c, db, id, user);
  });

  app.delete('/:id', describe({ summary: 'Delete a legacy survey', answer: { empty: true } }), async (c) => {
    const id = parseId(c.req.param('id'));
    const existing = await findSurvey(db, id, c.get('user'));
    if (!existing || id === null) throw notFound('survey');
    await db.delete(surveys).where(eq(surveys.id, id));
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

function pagesRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  app.post('/', describe({ summary: 'Create a legacy survey page', body: { resource: SURVEY_PAGE_TYPE, attributes: PageInput }, answer: { resource: SURVEY_PAGE_TYPE, status: 201 } }), async (c) => {
    const user = c.get('user');
    const { attributes } = await readResource(c, PageInput, { type: SURVEY_PAGE_TYPE });
    await requireParent(findSurvey(db, attributes.surveyId, user), 'surveyId', UNKNOWN_SURVEY);
    const id = await db.transaction(async (tx) => {
      // Raising the counter locks the survey's row: concurrent adds get distinct numbers.
      const [raised] = await tx
        .update(surveys)
        .set({ pageCounter: sql`${surveys.pageCounter} + 1`, modified: sql`now()` })
        .where(eq(surveys.id, attributes.surveyId))
        .returning({ pageCounter: surveys.pageCounter });
      if (!raised) throw new Error('survey vanished');
      const siblings = await pageSiblings(tx, attributes.surveyId);
      const [created] = await tx
        .insert(surveyPages)
        .values({
          surveyId: attributes.surveyId,
          title: attributes.title ?? newPageTitle(raised.pageCounter - 1),
          isActive: attributes.isActive,
          displayOrder: siblings.length + 1,
        })
        .returning({ id: surveyPages.id });
      if (!created) throw new Error('insert returned no row');
      await closeGaps(tx, surveyPages, siblings);
      return created.id;
    });
    return sendPage(c, db, id, user, 201);
  });

  app.patch('/:id', describe({ summary: 'Update a legacy survey page', body: { resource: SURVEY_PAGE_TYPE, attributes: PagePatch }, answer: { resource: SURVEY_PAGE_TYPE } }), async (c) => {
    const user = c.get('user');
    const id = parseId(c.req.param('id'));
    const context = await findPage(db, id, user);
    if (!context || id === null) throw notFound('page');
    const { attributes } = await readResource(c, PagePatch, { type: SURVEY_PAGE_TYPE, id });
    const { displayOrder, ...rest } = attributes;
    await db.transaction(async (tx) => {
      await touchSurvey(tx, context.survey.id);
      if (Object.keys(rest).length) await tx.update(surveyPages).set(rest).where(eq(surveyPages.id, id));
      if (displayOrder !== undefined) await moveTo(tx, surveyPages, await pageSiblings(tx, context.survey.id), id, displayOrder);
    });
    return sendPage(c, db, id, user);
  });

  app.delete('/:id', describe({ summary: 'Delete a legacy survey page', answer: { empty: true } }), async (c) => {
    const id = parseId(c.req.param('id'));
    const context = await findPage(db, id, c.get('user'));
    if (!context || id === null) throw notFound('page');
    await db.transaction(async (tx) => {
      await touchSurvey(tx, context.survey.id);
      const refs = await jumpsTo(tx, context.survey.id, id);
      if (refs.length) throw conflict(pageInUseMessage(refs));
      await tx.update(surveyPages).set({ isDeleted: true }).where(eq(surveyPages.id, id));
      await tx
        .update(surveys)
        .set({ pageCounter: sql`greatest(${surveys.pageCounter} - 1, 0)` })
        .where(eq(surveys.id, context.survey.id));
      await closeGaps(tx, surveyPages, await pageSiblings(tx, context.survey.id));
    });
    return c.body(null, 204);
  });

  return app;
}

function serializeQuestion(question: SurveyQuestion) {
  const { id, ...attributes } = question;
  return toResource(SURVEY_QUESTION_TYPE, id, attributes);
}

async function sendQuestion(c: Parameters<typeof sendResource>[0], db: Db, id: number, status: 200 | 201 = 200) {
  const [row] = await db.select({ pageId: surveyQuestions.pageId }).from(surveyQuestions).where(eq(surveyQuestions.id, id));
  const question = row && (await loadQuestions(db, [row.pageId])).find((q) => q.id === String(id));
  if (!question) throw notFound('question');
  return sendResource(c, serializeQuestion(question), status);
}

function questionsRoutes(deps: Deps) {
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
    const { tagIds, ...values } = attributes;
    const type = values.questionType ?? 'placeholder';
    const id = await db.transaction(async (tx) => {
      await touchSurvey(tx, context.survey.id);
      const siblings = await questionSiblings(tx, context.page.id);
      const [created] = await tx
        .insert(surveyQuestions)
        .values({
          ...values,
          questionType: type,
          title: values.title ?? PLACEHOLDER_TITLE,
          translations: values.translations ?? {},
          displayOrder: siblings.length + 1,
        })
        .returning({ id: surveyQuestions.id });
      if (!created) throw new Error('insert returned no row');
      await closeGaps(tx, surveyQuestions, siblings);
      await writeTags(tx, { question: created.id }, tagIds);
      if (type === 'multiple') await addNoneOfTheAboveIfEmpty(tx, created.id);
      return created.id;
    });
    return sendQuestion(c, db, id, 201);
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
    const { tagIds, displayOrder, ...values } = attributes;
    await db.transaction(async (tx) => {
      await touchSurvey(tx, context.survey.id);
      if (values.questionType === 'dob' && context.question.questionType !== 'dob') {
        // Would this page become all date-of-birth while options jump to it?
        const others = await tx
          .select({ type: surveyQuestions.questionType })
          .from(surveyQuestions)
          .where(and(eq(surveyQuestions.pageId, context.page.id), eq(surveyQuestions.deleted, false), ne(surveyQuestions.id, id)));
        if (others.every((q) => q.type === 'dob') && (await jumpsTo(tx, context.survey.id, context.page.id)).length) {
          throw invalid([{ pointer: '/data/attributes/questionType', detail: DOB_PAGE_IS_TARGET }]);
        }
      }
      if (Object.keys(values).length) await tx.update(surveyQuestions).set(values).where(eq(surveyQuestions.id, id));
      await writeTags(tx, { question: id }, tagIds);
      if (displayOrder !== undefined) await moveTo(tx, surveyQuestions, await questionSiblings(tx, context.page.id), id, displayOrder);
      if (values.questionType === 'multiple') await addNoneOfTheAboveIfEmpty(tx, id);
    });
    return sendQuestion(c, db, id);
  });

  app.delete('/:id', describe({ summary: 'Delete a legacy survey question', answer: { empty: true } }), async (c) => {
    const id = parseId(c.req.param('id'));
    const context = await findQuestion(db, id, c.get('user'));
    if (!context || id === null) throw notFound('question');
    await db.transaction(async (tx) => {
      await touchSurvey(tx, context.survey.id);
      // Would the page be left with only date-of-birth questions while options jump to it?
      const others = await tx
        .select({ type: surveyQuestions.questionType })
        .from(surveyQuestions)
        .where(and(eq(surveyQuestions.pageId, context.page.id), eq(surveyQuestions.deleted, false), ne(surveyQuestions.id, id)));
      if (others.length > 0 && others.every((q) => q.type === 'dob') && (await jumpsTo(tx, context.survey.id, context.page.id)).length) {
        throw conflict(DOB_PAGE_IS_TARGET);
      }
      await tx.update(surveyQuestions).set({ deleted: true }).where(eq(surveyQuestions.id, id));
      await closeGaps(tx, surveyQuestions, await questionSiblings(tx, context.page.id));
    });
    return c.body(null, 204);
  });

  return app;
}

async function sendOption(c: Parameters<typeof sendResource>[0], db: Db, id: number, status: 200 | 201 = 200) {
  const [row] = await db.select().from(surveyOptions).where(eq(surveyOptions.id, id));
  if (!row) throw notFound('option');
  const { id: optionId, ...attributes } = toOption(row);
  return sendResource(c, toResource(SURVEY_OPTION_TYPE, optionId, attributes), status);
}

function optionsRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  app.post('/', describe({ summary: 'Create a legacy question option', body: { resource: SURVEY_OPTION_TYPE, attributes: OptionInput }, answer: { resource: SURVEY_OPTION_TYPE, status: 201 } }), async (c) => {
    const user = c.get('user');
    const { attributes } = await readResource(c, OptionInput, { type: SURVEY_OPTION_TYPE });
    const context = await requireParent(findQuestion(db, attributes.questionId, user), 'questionId', UNKNOWN_QUESTION);
    await assertTranslationLanguages(db, attributes.translations, '/data/attributes/translations');
    const transition = await resolveTransition(db, context, attributes.transitionTo, attributes.transitionTarget);
    const id = await db.transaction(async (tx) => {
      await touchSurvey(tx, context.survey.id);
      const siblings = await optionSiblings(tx, context.question.id);
      const n = siblings.length + 1;
      // Added after the others, then moved in front of a 'None of the Above' that is last.
      const position = newOptionIndex(siblings) + 1;
      const [created] = await tx
        .insert(surveyOptions)
        .values({
          ...attributes,
          ...transition,
          label: attributes.label ?? `Option ${n}`,
          value: attributes.value ?? String(n),
          displayOrder: n,
        })
        .returning({ id: surveyOptions.id });
      if (!created) throw new Error('insert returned no row');
      await closeGaps(tx, surveyOptions, siblings);
      if (position < n) await moveTo(tx, surveyOptions, await optionSiblings(tx, context.question.id), created.id, position);
      return created.id;
    });
    return sendOption(c, db, id, 201);
  });

  app.patch('/:id', describe({ summary: 'Update a legacy question option', body: { resource: SURVEY_OPTION_TYPE, attributes: OptionPatch }, answer: { resource: SURVEY_OPTION_TYPE } }), async (c) => {
    const user = c.get('user');
    const id = parseId(c.req.param('id'));
    const context = await findOption(db, id, user);
    if (!context || id === null) throw notFound('option');
    const { attributes } = await readResource(c, OptionPatch, { type: SURVEY_OPTION_TYPE, id });
    await assertTranslationLanguages(db, attributes.translations, '/data/attributes/translations');
    const { displayOrder, transitionTo, transitionTarget, ...values } = attributes;
    let transition: Awaited<ReturnType<typeof resolveTransition>> | undefined;
    if (transitionTo !== undefined || transitionTarget !== undefined) {
      // A target alone means a jump to that page; a new kind alone keeps the old target.
      const to =
        transitionTo !== undefined ? transitionTo : transitionTarget !== null ? 'page' : (context.option.transitionTo as TransitionTo | null);
      const target = transitionTarget !== undefined ? transitionTarget : context.option.transitionTarget;
      transition = await resolveTransition(db, context, to, target);
    }
    await db.transaction(async (tx) => {
      await touchSurvey(tx, context.survey.id);
      const set = { ...values, ...transition };
      if (Object.keys(set).length) await tx.update(surveyOptions).set(set).where(eq(surveyOptions.id, id));
      if (displayOrder !== undefined) await moveTo(tx, surveyOptions, await optionSiblings(tx, context.question.id), id, displayOrder);
    });
    return sendOption(c, db, id);
  });

  app.delete('/:id', describe({ summary: 'Delete a legacy question option', answer: { empty: true } }), async (c) => {
    const id = parseId(c.req.param('id'));
    const context = await findOption(db, id, c.get('user'));
    if (!context || id === null) throw notFound('option');
    await db.transaction(async (tx) => {
      await touchSurvey(tx, context.survey.id);
      await tx.update(surveyOptions).set({ deleted: true }).where(eq(surveyOptions.id, id));
      await closeGaps(tx, surveyOptions, await optionSiblings(tx, context.question.id));
    });
    return c.body(null, 204);
  });

  return app;
}

// ---------------------------------------------------------------------------------------------
// Engagement options

const engagementOptionColumns = {
  id: engagementOptions.id,
  engagementId: engagementOptions.engagementId,
  engagementName: engagements.name,
  optionId: engagementOptions.optionId,
  isDisqualified: engagementOptions.isDisqualified,
  weight: engagementOptions.weight,
};
type EngagementOptionRow = { id: number; engagementId: number; engagementName: string; optionId: number; isDisqualified: boolean; weight: number };

const engagementOptionListSpec: ListSpec<(typeof ENGAGEMENT_OPTION_SORTS)[number], 'optionId' | 'engagementId'> = {
  type: ENGAGEMENT_OPTION_TYPE,
  sorts: ENGAGEMENT_OPTION_SORTS,
  defaultSort: ENGAGEMENT_OPTION_DEFAULT_SORT,
  defaultLimit: 100,
  filters: ['optionId', 'engagementId'],
  fields: Object.keys(engagementOptionColumns).filter((k) => k !== 'id'),
};
const engagementOptionSorts = {
  engagementName: engagements.name,
  weight: engagementOptions.weight,
  isDisqualified: engagementOptions.isDisqualified,
};

function serializeEngagementOption(row: EngagementOptionRow, fields: Set<string> | null = null) {
  const value: EngagementOption = {
    id: String(row.id),
    engagementId: String(row.engagementId),
    engagementName: row.engagementName,
    optionId: String(row.optionId),
    isDisqualified: row.isDisqualified,
    weight: row.weight,
  };
  const { id, ...attributes } = value;
  return toResource(ENGAGEMENT_OPTION_TYPE, id, attributes, { fields });
}

const selectEngagementOptions = (db: Db) =>
  db.select(engagementOptionColumns).from(engagementOptions).innerJoin(engagements, eq(engagements.id, engagementOptions.engagementId));

async function findEngagementOption(db: Db, id: number | null, user: AuthUser) {
  if (id === null) return undefined;
  const [row] = await selectEngagementOptions(db).where(and(eq(engagementOptions.id, id), engagementScope(user)));
  return row && (await findOption(db, row.optionId, user)) ? (row as EngagementOptionRow) : undefined;
}

/**
 * The engagements an option may have settings for: those the user may see and, when the
 * survey belongs to an engagement, of that engagement's sponsor. Each bad one is a 422.
 */
async function assertOptionEngagements(db: Db, context: OptionContext, user: AuthUser, ids: { id: number; pointer: string }[]) {
  const issues: { pointer: string; detail: string }[] = [];
  const seen = new Set<number>();
  for (const { id, pointer } of ids) {
    if (seen.has(id)) issues.push({ pointer, detail: ENGAGEMENT_REPEATED });
    seen.add(id);
  }
  const wanted = [...seen];
  const found = wanted.length
    ? await db
        .select({ id: engagements.id, sponsorId: engagements.sponsorId })
        .from(engagements)
        .where(and(inArray(engagements.id, wanted), engagementScope(user)))
    : [];
  const ok = new Set(found.filter((e) => context.survey.sponsorId === null || e.sponsorId === context.survey.sponsorId).map((e) => e.id));
  for (const { id, pointer } of ids) if (!ok.has(id)) issues.push({ pointer, detail: OPTION_ENGAGEMENT_INVALID });
  if (issues.length) throw invalid(issues);
}

const pairTaken = () => conflict(ENGAGEMENT_OPTION_EXISTS, '/data/attributes/engagementId');

function engagementOptionsRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  app.get('/', describe({ summary: 'List option engagements', list: engagementOptionListSpec, answer: { list: engagementOptionListSpec.type } }), async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, engagementOptionListSpec);
    const conditions: (SQL | undefined)[] = [
      engagementScope(c.get('user')),
      // Only options still in a survey (not deleted along the way).
      sql`exists (select 1 from ${surveyOptions}
        join ${surveyQuestions} on ${surveyQuestions.id} = ${surveyOptions.questionId}
        join ${surveyPages} on ${surveyPages.id} = ${surveyQuestions.pageId}
        where ${surveyOptions.id} = ${engagementOptions.optionId} and not ${surveyOptions.deleted}
          and not ${surveyQuestions.deleted} and not ${surveyPages.isDeleted})`,
    ];
    for (const [name, column] of [
      ['optionId', engagementOptions.optionId],
      ['engagementId', engagementOptions.engagementId],
    ] as const) {
      const raw = q.filters[name];
      if (raw === undefined) continue;
      const id = parseId(raw);
      if (id === null) throw badRequest(`'${name}' must be an id.`, name);
      conditions.push(eq(column, id));
    }
    const where = and(...conditions);
    const counted = db.select({ n: count() }).from(engagementOptions).innerJoin(engagements, eq(engagements.id, engagementOptions.engagementId)).$dynamic();
    const page = await joinedPage(selectEngagementOptions(db).$dynamic(), counted, q, { where, sorts: engagementOptionSorts, id: engagementOptions.id });
    return sendList(c, (page.rows as EngagementOptionRow[]).map((r) => serializeEngagementOption(r, q.fields)), { total: page.total, page: q.page, limit: q.limit });
  });

  app.post('/', describe({ summary: 'Link an option to an engagement', body: { resource: ENGAGEMENT_OPTION_TYPE, attributes: EngagementOptionInput }, answer: { resource: ENGAGEMENT_OPTION_TYPE, status: 201 } }), async (c) => {
    const user = c.get('user');
    const { attributes } = await readResource(c, EngagementOptionInput, { type: ENGAGEMENT_OPTION_TYPE });
    const context = await requireParent(findOption(db, attributes.optionId, user), 'optionId', UNKNOWN_OPTION);
    await assertOptionEngagements(db, context, user, [{ id: attributes.engagementId, pointer: '/data/attributes/engagementId' }]);
    const [taken] = await db
      .select({ id: engagementOptions.id })
      .from(engagementOptions)
      .where(and(eq(engagementOptions.optionId, attributes.optionId), eq(engagementOptions.engagementId, attributes.engagementId)));
    if (taken) throw pairTaken();
    const [created] = await db
      .insert(engagementOptions)
      .values(attributes)
      .returning({ id: engagementOptions.id })
      .catch((error: unknown) => {
        if (pgErrorCode(error).code === '23505') throw pairTaken();
        throw error;
      });
    const row = created && (await findEngagementOption(db, created.id, user));
    if (!row) throw new Error('insert returned no row');
    return sendResource(c, serializeEngagementOption(row), 201);
  });

  app.patch('/:id', describe({ summary: "Update an option's engagement link", body: { resource: ENGAGEMENT_OPTION_TYPE, attributes: EngagementOptionPatch }, answer: { resource: ENGAGEMENT_OPTION_TYPE } }), async (c) => {
    const user = c.get('user');
    const id = parseId(c.req.param('id'));
    const existing = await findEngagementOption(db, id, user);
    if (!existing || id === null) throw notFound('engagement option');
    const { attributes } = await readResource(c, EngagementOptionPatch, { type: ENGAGEMENT_OPTION_TYPE, id });
    if (Object.keys(attributes).length) await db.update(engagementOptions).set(attributes).where(eq(engagementOptions.id, id));
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
    const settings = attributes.engagementOptions;
    await assertOptionEngagements(
      db,
      context,
      user,
      settings.map((s, i) => ({ id: s.engagementId, pointer: `/data/attributes/engagementOptions/${i}/engagementId` })),
    );
    await db.transaction(async (tx) => {
      await touchSurvey(tx, context.survey.id);
      const scope = engagementScope(user);
      // Settings for engagements the user cannot see are not theirs to remove.
      await tx
        .delete(engagementOptions)
        .where(
          and(
            eq(engagementOptions.optionId, optionId),
            scope ? inArray(engagementOptions.engagementId, tx.select({ id: engagements.id }).from(engagements).where(scope)) : undefined,
          ),
        );
      if (settings.length) await tx.insert(engagementOptions).values(settings.map((s) => ({ ...s, optionId })));
    });
    const rows = (await selectEngagementOptions(db)
      .where(and(eq(engagementOptions.optionId, optionId), engagementScope(user)))
      .orderBy(asc(engagements.name), asc(engagementOptions.id))) as EngagementOptionRow[];
    return sendList(c, rows.map((r) => serializeEngagementOption(r)), { total: rows.length, page: 1, limit: 1000 });
  });

  return app;
}

/** Mounts every legacy-survey resource under /api. */
export function mountLegacySurveyRoutes(app: Hono<AppEnv>, deps: Deps) {
  app.route('/api/surveys', surveysRoutes(deps));
  app.route('/api/pages', pagesRoutes(deps));
  app.route('/api/questions', questionsRoutes(deps));
  app.route('/api/options', optionsRoutes(deps));
  app.route('/api/engagements-options', engagementOptionsRoutes(deps));
  app.route('/api/update-engagements-options', updateEngagementOptionsRoutes(deps));
}
