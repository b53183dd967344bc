/**
 * A versioned survey version's own messages (/api/o-forms/o-form-messages), written only while
 * the version is not approved. The defaults they replace are DEFAULT_SURVEY_MESSAGES (core/model/surveyMessage.ts).
 */
import type { Hono } from 'hono';
import {
  OFORM_MESSAGE,
  OFORM_MESSAGE_TYPE,
  SurveyMessageInput,
  SurveyMessagePatch,
  type SurveyMessage,
  type SurveyMessageType,
} from '@core/model/surveyMessage';
import type { AppEnv } from '../context';
import type { Db } from '../db/open';
import { invalid, notFound } from '../http/errors';
import { parseId, type ListSpec } from '../http/query';
import { answerRows } from '../http/listAnswer';
import { sendResource, modelResource } from '../http/serialize';
import { findForm } from './versions';
import {
  VERSION_MESSAGE_FILTERS,
  addVersionMessage,
  findVersionMessage,
  updateVersionMessage,
  versionMessagePage,
  type VersionMessageRow as Row,
} from './versionMessages';
import { describe } from '../openapi/describe';
import { chooseFromList } from '@core/validation/chooseFromList';

export { MESSAGE_EXISTS } from './versionMessages';
const UNKNOWN_VERSION = chooseFromList('a survey version');

const listSpec: ListSpec<'messageType' | 'language', typeof VERSION_MESSAGE_FILTERS> = {
  type: OFORM_MESSAGE_TYPE,
  sorts: ['messageType', 'language'],
  defaultSort: 'messageType,language',
  defaultLimit: 100,
  filters: VERSION_MESSAGE_FILTERS,
};

const toMessage = (row: Row): SurveyMessage => ({
  id: String(row.id),
  oFormIdentity: row.oFormIdentity,
  oFormVersionId: row.oFormVersionId,
  messageType: row.messageType as SurveyMessageType,
  language: row.language,
  message: row.message,
});
const serialize = (row: Row) => modelResource(OFORM_MESSAGE_TYPE, toMessage(row));

export function oFormMessagesRoutes(app: Hono<AppEnv>, db: Db) {
  app.get('/o-form-messages', describe({ summary: 'List survey messages', list: listSpec, answer: { list: OFORM_MESSAGE } }), (c) =>
    answerRows(c, listSpec, (q) => versionMessagePage(db, c.get('user'), q), serialize),
  );

  app.post(
    '/o-form-messages',
    describe({
      summary: 'Create a survey message',
      body: { resource: OFORM_MESSAGE_TYPE, attributes: SurveyMessageInput },
      answer: { resource: OFORM_MESSAGE, status: 201 },
    }),
    async (c) => {
      const user = c.get('user');
      const { attributes } = await c.var.body.read();
      const form = await findForm(db, attributes.oFormVersionId, user);
      if (!form) throw invalid([{ pointer: '/data/attributes/oFormVersionId', detail: UNKNOWN_VERSION }]);
      const row = await addVersionMessage(db, form, attributes);
      return sendResource(c, serialize(row), 201);
    },
  );

  app.patch(
    '/o-form-messages/:id',
    describe({
      summary: 'Update a survey message',
      body: { resource: OFORM_MESSAGE_TYPE, attributes: SurveyMessagePatch },
      answer: { resource: OFORM_MESSAGE },
    }),
    async (c) => {
      const user = c.get('user');
      const id = parseId(c.req.param('id'));
      const existing = await findVersionMessage(db, id);
      const form = existing ? await findForm(db, existing.oFormVersionId, user) : undefined;
      if (!existing || !form || id === null) throw notFound('survey message');
      const { attributes } = await c.var.body.read({ id });
      const row = await updateVersionMessage(db, form.id, id, attributes.message);
      if (!row) throw notFound('survey message');
      return sendResource(c, serialize(row));
    },
  );
}
