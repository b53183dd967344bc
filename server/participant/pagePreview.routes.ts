/** POST (or PATCH) /api/o-forms/o-form-submission-page-preview/:id: where a page's answers lead, nothing stored. */
import { participantCall, type ParticipantCall, type ParticipantCallEnv } from './callDescription';
import { PageAnswersAttributes } from '@core/participant/requests';
import type { ParticipantAnswer } from '@core/participant/responses';
import { nowOf, type Deps } from '../context';
import { notFound } from '../http/errors';
import { languageParam, parseParams } from '../http/params';
import { parseId } from '../http/query';
import { sendDocument } from '../http/serialize';
import { answerProblemsResponse, readableForm, type ParticipantApp } from './api';
import { answerProblems, fieldsOfPage, loadSurvey, nextAfter, pageDocument, surveyIdOfPage } from './runSurvey';
import type { Context } from 'hono';
import type { AppEnv } from '../context';

/** The language the preview's refusals are in (English unless said). */
const PREVIEW_QUERY = { language: languageParam('The language previewed.') };

export function participantOFormSubmissionPagePreviewRoutes(app: ParticipantApp, deps: Deps) {
  const { db } = deps;

  /** Preview: where a page's answers lead, writing nothing (public for approved surveys, staff for the rest). */
  const doc = {
    summary: "Preview: where a page's answers lead (nothing stored)",
    access: 'public',
    query: PREVIEW_QUERY,
    attributes: PageAnswersAttributes,
    answer: 'pageSaved',
  } satisfies ParticipantCall;
  const preview = async (c: Context<AppEnv & ParticipantCallEnv<typeof doc>>) => {
    const { language = 'en' } = parseParams(PREVIEW_QUERY, (name) => c.req.query(name));
    const pageId = parseId(c.req.param('id'));
    const surveyId = pageId === null ? null : await surveyIdOfPage(db, pageId);
    if (surveyId === null) throw notFound('page');
    const form = await readableForm(deps, c, surveyId);
    const { answers } = await c.var.body.read();
    const survey = await loadSurvey(db, form);
    const page = survey.pages.find((p) => p.id === pageId);
    if (!page) throw notFound('page');
    const problems = answerProblems(fieldsOfPage(survey, page.id), answers, language, nowOf(deps));
    if (Object.keys(problems).length > 0) return answerProblemsResponse(c, problems);
    const next = nextAfter(survey, page, answers);
    return sendDocument(c, {
      meta: {
        success: true,
        nextContainerIdentity: next.page?.identity ?? null,
        nextContainerEntryId: null,
        nextOFormIdentity: next.surveyIdentity,
        nextPage: next.page && pageDocument(survey, next.page),
      },
    } satisfies ParticipantAnswer<'pageSaved'>);
  };
  // The participant client POSTs every call with a body; PATCH answers the same.
  app.post('/o-form-submission-page-preview/:id', participantCall(doc), preview);
  app.patch('/o-form-submission-page-preview/:id', participantCall(doc), preview);
}
