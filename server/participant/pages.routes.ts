/** GET /api/o-forms/o-form-containers: a survey page to show. */
import { PARTICIPANT_ANSWERS } from '@core/participant/responses';
import { type Deps } from '../context';
import { badRequest, notFound } from '../http/errors';
import { parseId } from '../http/query';
import { sendDocument } from '../http/serialize';
import { readableForm, type ParticipantApp } from './api';
import { loadSurvey, pageDocument } from './runSurvey';
import { describe } from '../openapi/describe';

export function participantOFormContainersRoutes(app: ParticipantApp, deps: Deps) {
  const { db } = deps;

  /** One page with its active questions: the first page, or the page with an identity. */
  app.get(
    '/o-form-containers',
    describe({
      summary: 'Participant: read a survey page to show',
      access: 'public',
      query: {
        oFormId: { description: 'The survey version.', required: true, schema: { type: 'string', pattern: '^[1-9][0-9]*$' } },
        type: {
          description: "'firstContainerPerForm' for the first page; give this or identity.",
          schema: { type: 'string', enum: ['firstContainerPerForm'] },
        },
        identity: "The page's identity; give this or type.",
        include: 'Related resources to include.',
        mediaChannelId: 'The media channel the page is shown through.',
      },
      answer: { document: PARTICIPANT_ANSWERS.page },
    }),
    async (c) => {
      const params = new URL(c.req.url).searchParams;
      for (const key of params.keys()) {
        if (!['oFormId', 'type', 'identity', 'include', 'mediaChannelId'].includes(key)) throw badRequest(`Unknown query parameter '${key}'.`, key);
      }
      const type = params.get('type');
      const identity = params.get('identity');
      if (type !== null && type !== 'firstContainerPerForm') throw badRequest("'type' may only be firstContainerPerForm.", 'type');
      if ((type === null) === (identity === null))
        throw badRequest("Give either 'type=firstContainerPerForm' or 'identity'.", identity === null ? 'type' : 'identity');
      const rawId = params.get('oFormId');
      if (rawId === null) throw badRequest("'oFormId' is required.", 'oFormId');
      const form = await readableForm(deps, c, parseId(rawId));
      const survey = await loadSurvey(db, form);
      const page = identity === null ? survey.pages[0] : survey.pages.find((p) => p.identity === identity);
      if (!page) throw notFound('page');
      return sendDocument(c, pageDocument(survey, page));
    },
  );
}
