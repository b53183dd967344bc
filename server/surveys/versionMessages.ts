/**
 * A survey version's own messages kept: a page of those the user may see (the surveys' own
 * sponsor scope), and their writes, each under the version's lock so an approved version keeps
 * its messages.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type * as v from 'valibot';
import type { SurveyMessageInput } from '@core/model/surveyMessage';
import type { AuthUser } from '../context';
import type { Db } from '../db/open';
import { engagements, oFormMessages, oForms } from '../db/schema';
import { engagementScope } from '../engagements';
import { Conflict } from '../errors';
import { tablePage } from '../http/list';
import { filterConditions, idFilter } from '../http/filters';
import { mapParam, textParam } from '../http/params';
import type { ListQuery } from '../http/query';
import { rethrowConstraint } from '../http/sql';
import { lockEditable } from './versions';

export const MESSAGE_EXISTS = 'This version already has a message of this type in this language; change that one instead.';

export type VersionMessageRow = typeof oFormMessages.$inferSelect;

/** Versions whose engagement the user may see: the surveys' own sponsor scope. */
const visibleVersionIds = (db: Db, user: AuthUser) =>
  db.select({ id: oForms.id }).from(oForms).innerJoin(engagements, eq(engagements.id, oForms.engagementId)).where(engagementScope(user));

/** The list's filters: one survey's, one version's or one language's messages. */
export const VERSION_MESSAGE_FILTERS = {
  o_form_identity: mapParam(textParam("Only this survey's messages (its identity)."), (identity) => eq(oFormMessages.oFormIdentity, identity)),
  o_form_version_id: idFilter(oFormMessages.oFormVersionId, 'survey version'),
  language: mapParam(textParam('Only messages in this language (its code).'), (language) => eq(oFormMessages.language, language)),
};

/** A page of the messages the user may see. */
export function versionMessagePage(db: Db, user: AuthUser, q: ListQuery<'messageType' | 'language', typeof VERSION_MESSAGE_FILTERS>) {
  const where = and(inArray(oFormMessages.oFormVersionId, visibleVersionIds(db, user)), ...filterConditions(q.filters, VERSION_MESSAGE_FILTERS));
  const sorts = { messageType: oFormMessages.messageType, language: oFormMessages.language };
  return tablePage(db, oFormMessages, q, { where, sorts, id: oFormMessages.id });
}

/** The message as kept, whoever's version it is of: the caller checks the version's scope. */
export async function findVersionMessage(db: Db, id: number | null): Promise<VersionMessageRow | undefined> {
  const [row] = id === null ? [] : await db.select().from(oFormMessages).where(eq(oFormMessages.id, id));
  return row;
}

/** The new message; a second one of a type and language in the version is a conflict. */
export async function addVersionMessage(
  db: Db,
  form: { id: number; identity: string },
  attributes: v.InferOutput<typeof SurveyMessageInput>,
): Promise<VersionMessageRow> {
  const row = await db
    .transaction(async (tx) => {
      await lockEditable(tx, form.id);
      const [created] = await tx
        .insert(oFormMessages)
        .values({ ...attributes, oFormIdentity: form.identity })
        .returning();
      return created;
    })
    .catch((error: unknown) => rethrowConstraint(error, { unique: () => new Conflict(MESSAGE_EXISTS, '/data/attributes/messageType') }));
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** The message changed; undefined when it went in the meantime. */
export async function updateVersionMessage(db: Db, formId: number, id: number, message: string): Promise<VersionMessageRow | undefined> {
  return db.transaction(async (tx) => {
    await lockEditable(tx, formId);
    const [updated] = await tx.update(oFormMessages).set({ message, modified: sql`now()` }).where(eq(oFormMessages.id, id)).returning();
    return updated;
  });
}
