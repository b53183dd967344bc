/**
 * A legacy page's questions (/api/questions): added, edited (with their tags), moved and deleted
 * through their survey (server/legacy-surveys/questions.ts). A question's category, tags and
 * translations' languages must exist; another sponsor's question answers 404.
 */
import { QuestionInput, QuestionPatch, SURVEY_QUESTION } from '@core/model/legacySurvey';
import type { Deps } from '../context';
import type { Db } from '../db/open';
import { UNKNOWN_PAGE } from './messages';
import { findPage, findQuestion } from './parts';
import { surveyPartRoutes } from './partRoutes';
import { createQuestion, deleteQuestion, updateQuestion } from './questions';
import { loadQuestion } from './structure';
import { assertCategory, assertTags } from '../surveys';
import { assertTranslationLanguages } from '../languages';

/** A question's translations name only known, non-default languages (checked by their codes). */
async function assertQuestionTranslations(db: Db, map: Record<string, unknown> | undefined) {
  if (!map) return;
  await assertTranslationLanguages(db, Object.fromEntries(Object.keys(map).map((k) => [k, ''])), '/data/attributes/translations');
}

export function legacyQuestionsRoutes(deps: Deps) {
  return surveyPartRoutes(deps, {
    what: 'question',
    answer: SURVEY_QUESTION,
    summaries: { create: 'Create a legacy survey question', update: 'Update a legacy survey question', remove: 'Delete a legacy survey question' },
    input: QuestionInput,
    patch: QuestionPatch,
    above: { key: 'pageId', find: findPage, unknown: UNKNOWN_PAGE },
    find: findQuestion,
    check: async (db, attributes) => {
      await assertCategory(db, attributes.questionCategoryId, '/data/attributes/questionCategoryId');
      await assertTags(db, attributes.tagIds);
      await assertQuestionTranslations(db, attributes.translations);
    },
    create: createQuestion,
    update: updateQuestion,
    remove: deleteQuestion,
    load: loadQuestion,
  });
}
