/**
 * A legacy page's questions (/api/questions): added, edited (with their tags), moved and deleted
 * through their survey (server/legacy-surveys/questions.ts). A question's category, tags and
 * translations' languages must exist; another sponsor's question answers 404.
 */
import { Hono } from 'hono';
import { QuestionInput, QuestionPatch, SURVEY_QUESTION, SURVEY_QUESTION_TYPE } from '@core/model/legacySurvey';
import type { AppEnv, Deps } from '../context';
import type { Db } from '../db/open';
import { authenticate } from '../auth/guards';
import { readResource, requireParent } from '../http/body';
import { parseId } from '../http/query';
import { sendResource, toResource } from '../http/serialize';
import { UNKNOWN_PAGE } from './messages';
import { findPage, findQuestion, orNotFound } from './parts';
import { createQuestion, deleteQuestion, updateQuestion } from './questions';
import { loadQuestion } from './structure';
import { assertCategory, assertTags } from '../surveys';
import { describe } from '../openapi/describe';
import { assertTranslationLanguages } from '../languages';

/** A question's translations name only known, non-default languages (checked by their codes). */
async function assertQuestionTranslations(db: Db, map: Record<string, unknown> | undefined) {
  if (!map) return;
  await assertTranslationLanguages(db, Object.fromEntries(Object.keys(map).map((k) => [k, ''])), '/data/attributes/translations');
}

async function sendQuestion(c: Parameters<typeof sendResource>[0], db: Db, id: number, status: 200 | 201 = 200) {
  const question = await orNotFound(loadQuestion(db, id), 'question');
  const { id: questionId, ...attributes } = question;
  return sendResource(c, toResource(SURVEY_QUESTION_TYPE, questionId, attributes), status);
}

export function legacyQuestionsRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  app.post(
    '/',
    describe({
      summary: 'Create a legacy survey question',
      body: { resource: SURVEY_QUESTION_TYPE, attributes: QuestionInput },
      answer: { resource: SURVEY_QUESTION, status: 201 },
    }),
    async (c) => {
      const user = c.get('user');
      const { attributes } = await readResource(c, QuestionInput, { type: SURVEY_QUESTION_TYPE });
      const context = await requireParent(findPage(db, attributes.pageId, user), 'pageId', UNKNOWN_PAGE);
      await assertCategory(db, attributes.questionCategoryId, '/data/attributes/questionCategoryId');
      await assertTags(db, attributes.tagIds);
      await assertQuestionTranslations(db, attributes.translations);
      return sendQuestion(c, db, await createQuestion(db, context, attributes), 201);
    },
  );

  app.patch(
    '/:id',
    describe({
      summary: 'Update a legacy survey question',
      body: { resource: SURVEY_QUESTION_TYPE, attributes: QuestionPatch },
      answer: { resource: SURVEY_QUESTION },
    }),
    async (c) => {
      const user = c.get('user');
      const context = await orNotFound(findQuestion(db, parseId(c.req.param('id')), user), 'question');
      const id = context.question.id;
      const { attributes } = await readResource(c, QuestionPatch, { type: SURVEY_QUESTION_TYPE, id });
      await assertCategory(db, attributes.questionCategoryId, '/data/attributes/questionCategoryId');
      await assertTags(db, attributes.tagIds);
      await assertQuestionTranslations(db, attributes.translations);
      await updateQuestion(db, context, attributes);
      return sendQuestion(c, db, id);
    },
  );

  app.delete('/:id', describe({ summary: 'Delete a legacy survey question', answer: { empty: true } }), async (c) => {
    const context = await orNotFound(findQuestion(db, parseId(c.req.param('id')), c.get('user')), 'question');
    await deleteQuestion(db, context);
    return c.body(null, 204);
  });

  return app;
}
