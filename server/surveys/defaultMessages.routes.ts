/**
 * GET /api/o-forms/o-form-default-messages: the survey messages every version starts from, in
 * English and Spanish. They are core's (core/model/surveyMessage.ts), not rows.
 */
import type { Hono } from 'hono';
import { DEFAULT_SURVEY_MESSAGES, OFORM_DEFAULT_MESSAGE, OFORM_DEFAULT_MESSAGE_TYPE, SURVEY_MESSAGE_TYPES } from '@core/model/surveyMessage';
import type { AppEnv } from '../context';
import { toResource } from '../http/serialize';
import { answerWholeList, wholeListRead } from '../http/wholeList';
import { describe } from '../openapi/describe';

export function oFormDefaultMessagesRoutes(app: Hono<AppEnv>) {
  app.get('/o-form-default-messages', describe(wholeListRead('List the default survey messages', OFORM_DEFAULT_MESSAGE)), (c) =>
    answerWholeList(c, async () =>
      SURVEY_MESSAGE_TYPES.flatMap((type) =>
        (['en', 'es'] as const).map((language) =>
          toResource(OFORM_DEFAULT_MESSAGE_TYPE, `${type}:${language}`, { messageType: type, language, message: DEFAULT_SURVEY_MESSAGES[type][language] }),
        ),
      ),
    ),
  );
}
