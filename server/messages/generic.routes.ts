/**
 * Generic messages (SPEC sections 3, 7; Admin or Super User): the texts the participant
 * runner shows (buttons, errors, outcome defaults), each with translations per language.
 * Staff list, read and change them; the set of keys is the runner's, so there is no create or
 * delete.
 */
import { Hono } from 'hono';
import {
  GENERIC_MESSAGE,
  GENERIC_MESSAGE_DEFAULT_LIMIT,
  GENERIC_MESSAGE_DEFAULT_SORT,
  GENERIC_MESSAGE_SORTS,
  GENERIC_MESSAGE_TYPE,
  GenericMessagePatch,
  type GenericMessage,
  type MessageType,
} from '@core/model/genericMessage';
import type { AppEnv, Deps } from '../context';
import { STAFF_ADMIN_ROLES, authenticate, requireRole } from '../auth/guards';
import type { ListSpec } from '../http/query';
import { answerRows } from '../http/listAnswer';
import { rowAtPath } from '../http/pathRow';
import { memberRead, rowReader } from '../http/memberRead';
import { sendResource, modelResource } from '../http/serialize';
import { assertTranslationLanguages } from '../languages';
import { describe } from '../openapi/describe';
import { resourceUpdate } from '../http/resourceWrites';
import { findGenericMessage, GENERIC_MESSAGE_FILTERS, genericMessagePage, updateGenericMessage, type GenericMessageRow as Row } from './genericMessages';

const listSpec: ListSpec<(typeof GENERIC_MESSAGE_SORTS)[number], typeof GENERIC_MESSAGE_FILTERS> = {
  type: GENERIC_MESSAGE_TYPE,
  sorts: GENERIC_MESSAGE_SORTS,
  defaultSort: GENERIC_MESSAGE_DEFAULT_SORT,
  defaultLimit: GENERIC_MESSAGE_DEFAULT_LIMIT,
  filters: GENERIC_MESSAGE_FILTERS,
  fields: GENERIC_MESSAGE.names,
};

const toGenericMessage = (row: Row): GenericMessage => ({
  id: String(row.id),
  keyName: row.keyName,
  message: row.message,
  translations: row.translations,
  messageType: row.messageType as MessageType,
  created: row.created.toISOString(),
  modified: row.modified.toISOString(),
});

const serialize = (row: Row, fields: Set<string> | null = null) => modelResource(GENERIC_MESSAGE_TYPE, toGenericMessage(row), fields);

export function genericMessagesRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps), requireRole(...STAFF_ADMIN_ROLES));

  app.get('/', describe({ summary: 'List generic messages', list: listSpec, answer: { list: GENERIC_MESSAGE } }), (c) =>
    answerRows(c, listSpec, (q) => genericMessagePage(db, q), serialize),
  );

  app.get(
    '/:id',
    describe({ summary: 'Read a generic message', read: listSpec, answer: { resource: GENERIC_MESSAGE } }),
    memberRead(
      listSpec,
      'generic message',
      rowReader((id) => findGenericMessage(db, id), serialize),
    ),
  );

  /** `translations` replaces the whole map: languages left out lose their translation. */
  app.patch('/:id', describe(resourceUpdate('Update a generic message', GENERIC_MESSAGE, GenericMessagePatch)), async (c) => {
    const { id } = await rowAtPath(c, 'generic message', (id) => findGenericMessage(db, id));
    const { attributes } = await c.var.body.read({ id });
    await assertTranslationLanguages(db, attributes.translations, '/data/attributes/translations');
    return sendResource(c, serialize(await updateGenericMessage(db, id, attributes)));
  });

  return app;
}
