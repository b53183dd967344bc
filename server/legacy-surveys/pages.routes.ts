/**
 * A legacy survey's pages (/api/pages): added, edited, moved and deleted through their survey
 * (server/legacy-surveys/pages.ts). Each page is answered with its questions and its survey's
 * page counter; another sponsor's page answers 404.
 */
import type { Context } from 'hono';
import { PageInput, PagePatch, SURVEY_PAGE, SURVEY_PAGE_TYPE, type SurveyPage } from '@core/model/legacySurvey';
import type { AppEnv, AuthUser, Deps } from '../context';
import type { Db } from '../db/open';
import { sendResource, toResource } from '../http/serialize';
import { UNKNOWN_SURVEY } from './messages';
import { createPage, deletePage, updatePage } from './pages';
import { findPage, orNotFound } from './parts';
import { surveyPartRoutes } from './partRoutes';
import { loadQuestions, toPage } from './structure';
import { findSurvey } from './surveys';

function serializePage(page: SurveyPage, pageCounter: number) {
  const { id, ...attributes } = page;
  return toResource(SURVEY_PAGE_TYPE, id, { ...attributes, pageCounter });
}

async function sendPage(c: Context<AppEnv>, db: Db, id: number, status: 200 | 201, user: AuthUser) {
  const context = await orNotFound(findPage(db, id, user), 'page');
  const questions = await loadQuestions(db, [id]);
  return sendResource(c, serializePage(toPage(context.page, questions), context.survey.pageCounter), status);
}

export function legacyPagesRoutes(deps: Deps) {
  return surveyPartRoutes(deps, {
    what: 'page',
    type: SURVEY_PAGE_TYPE,
    answer: SURVEY_PAGE,
    summaries: { create: 'Create a legacy survey page', update: 'Update a legacy survey page', remove: 'Delete a legacy survey page' },
    input: PageInput,
    patch: PagePatch,
    above: { key: 'surveyId', find: findSurvey, unknown: UNKNOWN_SURVEY },
    find: findPage,
    idOf: (context) => context.page.id,
    create: (db, _survey, attributes) => createPage(db, attributes),
    update: updatePage,
    remove: deletePage,
    send: sendPage,
  });
}
