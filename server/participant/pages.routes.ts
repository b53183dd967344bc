/** GET /api/o-forms/o-form-containers: a survey page to show. */
import type { Deps } from '../context';
import { badRequest, notFound } from '../http/errors';
import { choiceParam, idParam, required, textParam } from '../http/params';
import { parseQuery } from '../http/query';
import { sendDocument } from '../http/serialize';
import { readableForm, type ParticipantApp } from './api';
import { CHANNEL_QUERY } from './cors';
import { loadSurvey, pageDocument } from './runSurvey';
import { participantCall } from './callDescription';

/** Which page: the version's first (`type`) or the one of an identity, with its questions. */
const PAGE_QUERY = {
  oFormId: required(idParam('survey version', 'The survey version.')),
  type: choiceParam(['firstContainerPerForm'], "'firstContainerPerForm' for the first page; give this or identity."),
  identity: textParam("The page's identity; give this or type."),
  include: choiceParam(['oFormFields'], "oFormFields: the page's questions (always included)."),
  ...CHANNEL_QUERY,
};

export function participantOFormContainersRoutes(app: ParticipantApp, deps: Deps) {
  const { db } = deps;

  /** One page with its active questions: the first page, or the page with an identity. */
  app.get(
    '/o-form-containers',
    participantCall({
      summary: 'Participant: read a survey page to show',
      access: 'public',
      query: PAGE_QUERY,
      answer: 'page',
    }),
    async (c) => {
      const params = new URL(c.req.url).searchParams;
      const { oFormId, type, identity } = parseQuery(params, PAGE_QUERY);
      if ((type === undefined) === (identity === undefined))
        throw badRequest("Give either 'type=firstContainerPerForm' or 'identity'.", identity === undefined ? 'type' : 'identity');
      const form = await readableForm(deps, c, oFormId);
      const survey = await loadSurvey(db, form);
      const page = identity === undefined ? survey.pages[0] : survey.pages.find((p) => p.identity === identity);
      if (!page) throw notFound('page');
      return sendDocument(c, pageDocument(survey, page));
    },
  );
}
