/**
 * A legacy survey's pages (/api/pages): added, edited, moved and deleted through their survey
 * (server/legacy-surveys/pages.ts). Each page is answered with its questions and its survey's
 * page counter; another sponsor's page answers 404.
 */
import { PageInput, PagePatch, SURVEY_PAGE } from '@core/model/legacySurvey';
import type { AuthUser, Deps } from '../context';
import type { Db } from '../db/open';
import { UNKNOWN_SURVEY } from './messages';
import { createPage, deletePage, updatePage } from './pages';
import { findPage } from './parts';
import { surveyPartRoutes } from './partRoutes';
import { loadQuestions, toPage } from './structure';
import { findSurvey } from './surveys';

/** A page with its questions and its survey's page counter. */
async function loadPage(db: Db, id: number, user: AuthUser) {
  const context = await findPage(db, id, user);
  return context && { ...toPage(context.page, await loadQuestions(db, [id])), pageCounter: context.survey.pageCounter };
}

export function legacyPagesRoutes(deps: Deps) {
  return surveyPartRoutes(deps, {
    what: 'page',
    answer: SURVEY_PAGE,
    summaries: { create: 'Create a legacy survey page', update: 'Update a legacy survey page', remove: 'Delete a legacy survey page' },
    input: PageInput,
    patch: PagePatch,
    above: { key: 'surveyId', find: findSurvey, unknown: UNKNOWN_SURVEY },
    find: findPage,
    create: (db, _survey, attributes) => createPage(db, attributes),
    update: updatePage,
    remove: deletePage,
    load: loadPage,
  });
}
