/**
 * A versioned survey version's own messages (/api/o-forms/o-form-messages), written only while
 * the version is not approved. The defaults they replace are DEFAULT_SURVEY_MESSAGES (core/model/surveyMessage.ts).
 */
import type { Hono } from 'hono';
import type * as v from 'valibot';
import {
  OFORM_MESSAGE,
  OFORM_MESSAGE_TYPE,
  SurveyMessageInput,
  SurveyMessagePatch,
  type SurveyMessage,
  type SurveyMessageType,
} from '@core/model/surveyMessage';
import type { AppEnv, AuthUser } from '../context';
import type { Db } from '../db/open';
import { createUnder, rowMember, updateAtPath } from '../http/memberWrites';
import type { ListSpec } from '../http/query';
import { answerRows } from '../http/listAnswer';
import { modelResource } from '../http/serialize';
import { findForm } from './versions';
import {
  VERSION_MESSAGE_FILTERS,
  addVersionMessage,
  findVersionMessage,
  updateVersionMessage,
  versionMessagePage,
  type VersionMessageRow as Row,
} from './versionMessages';
import { resourceCreation, resourceUpdate } from '../http/resourceWrites';
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

/** A message with its version, when the user may reach the version. */
async function findMessage(db: Db, id: number, user: AuthUser) {
  const existing = await findVersionMessage(db, id);
  const form = existing && (await findForm(db, existing.oFormVersionId, user));
  return existing && form ? { existing, form } : undefined;
}

export function oFormMessagesRoutes(app: Hono<AppEnv>, db: Db) {
  const message = rowMember(
    'survey message',
    (id, user) => findMessage(db, id, user),
    ({ existing }) => serialize(existing),
  );

  app.get('/o-form-messages', describe({ summary: 'List survey messages', list: listSpec, answer: { list: OFORM_MESSAGE } }), (c) =>
    answerRows(c, listSpec, (q) => versionMessagePage(db, c.get('user'), q), serialize),
  );

  app.post(
    '/o-form-messages',
    describe(resourceCreation('Create a survey message', OFORM_MESSAGE, SurveyMessageInput)),
    createUnder(
      message,
      { key: 'oFormVersionId', find: (id, user) => findForm(db, id, user), unknown: UNKNOWN_VERSION },
      async (form, attributes: v.InferOutput<typeof SurveyMessageInput>) => (await addVersionMessage(db, form, attributes)).id,
    ),
  );

  app.patch(
    '/o-form-messages/:id',
    describe(resourceUpdate('Update a survey message', OFORM_MESSAGE, SurveyMessagePatch)),
    updateAtPath(message, ({ existing, form }, attributes: v.InferOutput<typeof SurveyMessagePatch>) =>
      updateVersionMessage(db, form.id, existing.id, attributes.message),
    ),
  );
}
