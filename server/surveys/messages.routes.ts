/**
 * A versioned survey version's own messages (/api/o-forms/o-form-messages), written only while
 * the version is not approved. The defaults they replace are oform-default-messages.ts's.
 */
import type { Hono } from 'hono';
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  OFORM_MESSAGE_TYPE,
  OFormMessageInput,
  OFormMessagePatch,
  type OFormMessage,
  type OFormMessageType,
} from '@core/model/oformMessage';
import type { AppEnv, AuthUser } from '../context';
import type { Db } from '../db/open';
import { engagements, oFormMessages, oForms } from '../db/schema';
import { engagementScope } from '../engagements';
import { readResource } from '../http/body';
import { badRequest, conflict, invalid, notFound } from '../http/errors';
import { parseId, parseListQuery, type ListSpec } from '../http/query';
import { sendList, sendResource, toResource } from '../http/serialize';
import { pgErrorCode } from '../http/sql';
import { findForm, lockEditable } from './versions';
import { tablePage } from '../http/list';
import { describe } from '../openapi/describe';
import { chooseFromList } from '@core/validation/chooseFromList';

export const MESSAGE_EXISTS = 'This version already has a message of this type in this language; change that one instead.';
const UNKNOWN_VERSION = chooseFromList('a survey version');

const listSpec: ListSpec<'messageType' | 'language', 'o_form_identity' | 'o_form_version_id' | 'language'> = {
  type: OFORM_MESSAGE_TYPE,
  sorts: ['messageType', 'language'],
  defaultSort: 'messageType,language',
  defaultLimit: 100,
  filters: ['o_form_identity', 'o_form_version_id', 'language'],
};

type Row = typeof oFormMessages.$inferSelect;
const toMessage = (row: Row): OFormMessage => ({
  id: String(row.id),
  oFormIdentity: row.oFormIdentity,
  oFormVersionId: row.oFormVersionId,
  messageType: row.messageType as OFormMessageType,
  language: row.language,
  message: row.message,
});
const serialize = (row: Row) => {
  const { id, ...attributes } = toMessage(row);
  return toResource(OFORM_MESSAGE_TYPE, id, attributes);
};

/** Versions whose engagement the user may see: the surveys' own sponsor scope. */
const visibleVersionIds = (db: Db, user: AuthUser) =>
  db.select({ id: oForms.id }).from(oForms).innerJoin(engagements, eq(engagements.id, oForms.engagementId)).where(engagementScope(user));

export function oFormMessagesRoutes(app: Hono<AppEnv>, db: Db) {
  app.get('/o-form-messages', describe({ summary: 'List survey messages', list: listSpec, answer: { list: listSpec.type } }), async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, listSpec);
    const versionId = q.filters.o_form_version_id;
    if (versionId !== undefined && parseId(versionId) === null) throw badRequest("'o_form_version_id' must be a survey version id.", 'o_form_version_id');
    const where = and(
      inArray(oFormMessages.oFormVersionId, visibleVersionIds(db, c.get('user'))),
      q.filters.o_form_identity ? eq(oFormMessages.oFormIdentity, q.filters.o_form_identity) : undefined,
      versionId ? eq(oFormMessages.oFormVersionId, Number(versionId)) : undefined,
      q.filters.language ? eq(oFormMessages.language, q.filters.language) : undefined,
    );
    const sorts = { messageType: oFormMessages.messageType, language: oFormMessages.language };
    const { rows, total } = await tablePage(db, oFormMessages, q, { where, sorts, id: oFormMessages.id });
    return sendList(c, rows.map(serialize), { total, page: q.page, limit: q.limit });
  });

  app.post('/o-form-messages', describe({ summary: 'Create a survey message', body: { resource: OFORM_MESSAGE_TYPE, attributes: OFormMessageInput }, answer: { resource: OFORM_MESSAGE_TYPE, status: 201 } }), async (c) => {
    const user = c.get('user');
    const { attributes } = await readResource(c, OFormMessageInput, { type: OFORM_MESSAGE_TYPE });
    const form = await findForm(db, attributes.oFormVersionId, user);
    if (!form) throw invalid([{ pointer: '/data/attributes/oFormVersionId', detail: UNKNOWN_VERSION }]);
    const row = await db
      .transaction(async (tx) => {
        await lockEditable(tx, form.id);
        const [created] = await tx
          .insert(oFormMessages)
          .values({ ...attributes, oFormIdentity: form.identity })
          .returning();
        return created;
      })
      .catch((error: unknown) => {
        if (pgErrorCode(error).code === '23505') throw conflict(MESSAGE_EXISTS, '/data/attributes/messageType');
        throw error;
      });
    if (!row) throw new Error('insert returned no row');
    return sendResource(c, serialize(row), 201);
  });

  app.patch('/o-form-messages/:id', describe({ summary: 'Update a survey message', body: { resource: OFORM_MESSAGE_TYPE, attributes: OFormMessagePatch }, answer: { resource: OFORM_MESSAGE_TYPE } }), async (c) => {
    const user = c.get('user');
    const id = parseId(c.req.param('id'));
    const [existing] = id === null ? [] : await db.select().from(oFormMessages).where(eq(oFormMessages.id, id));
    const form = existing ? await findForm(db, existing.oFormVersionId, user) : undefined;
    if (!existing || !form || id === null) throw notFound('survey message');
    const { attributes } = await readResource(c, OFormMessagePatch, { type: OFORM_MESSAGE_TYPE, id });
    const row = await db.transaction(async (tx) => {
      await lockEditable(tx, form.id);
      const [updated] = await tx
        .update(oFormMessages)
        .set({ message: attributes.message, modified: sql`now()` })
        .where(eq(oFormMessages.id, id))
        .returning();
      return updated;
    });
    if (!row) throw notFound('survey message');
    return sendResource(c, serialize(row));
  });
}

