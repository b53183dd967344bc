/**
 * A screener's contact fields with their weights (the order the contact form asks them in),
 * replaced as a whole by POST /api/contact-fields-screeners/update/{screenerId}.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { CONTACT_FIELD_SCREENER_SORTS } from '@core/model/contactFieldScreener';
import type { AuthUser } from '../context';
import type { Db } from '../db/open';
import { contactFieldScreeners, contactFields, screeners } from '../db/schema';
import { countOf, joinedPage } from '../http/list';
import type { ListQuery } from '../http/query';
import { screenerScope } from './access';
import { Invalid } from '../errors';
import { pgErrorCode } from '../http/sql';
import { chooseFromList } from '@core/validation/chooseFromList';

export const UNKNOWN_CONTACT_FIELD = chooseFromList('contact fields');

/** A screener's contact-field link as the API shows it: the link with its field's details. */
export const contactFieldLinkColumns = {
  id: contactFieldScreeners.id,
  screenerId: contactFieldScreeners.screenerId,
  contactFieldId: contactFieldScreeners.contactFieldId,
  weight: contactFieldScreeners.weight,
  label: contactFields.label,
  name: contactFields.name,
  required: contactFields.required,
  fieldType: contactFields.fieldType,
};

/**
 * Replaces the screener's contact fields and their weights in one transaction (422 naming each
 * unknown field, nothing written); answers them by weight.
 */
export async function setScreenerContactFields(db: Db, screenerId: number, list: readonly { contactFieldId: number; weight: number }[]) {
  const ids = list.map((l) => l.contactFieldId);
  const found = ids.length ? await db.select({ id: contactFields.id }).from(contactFields).where(inArray(contactFields.id, ids)) : [];
  const known = new Set(found.map((f) => f.id));
  const issues = list.flatMap((l, i) =>
    known.has(l.contactFieldId) ? [] : [{ pointer: `/data/attributes/contactFieldScreeners/${i}/contactFieldId`, detail: UNKNOWN_CONTACT_FIELD }],
  );
  if (issues.length) throw new Invalid(issues);
  await db
    .transaction(async (tx) => {
      await tx.delete(contactFieldScreeners).where(eq(contactFieldScreeners.screenerId, screenerId));
      if (list.length) await tx.insert(contactFieldScreeners).values(list.map((l) => ({ screenerId, ...l })));
    })
    .catch((error: unknown) => {
      if (pgErrorCode(error).code === '23503') throw new Invalid([{ pointer: '/data/attributes/contactFieldScreeners', detail: UNKNOWN_CONTACT_FIELD }]);
      throw error;
    });
  return db
    .select(contactFieldLinkColumns)
    .from(contactFieldScreeners)
    .innerJoin(contactFields, eq(contactFields.id, contactFieldScreeners.contactFieldId))
    .where(eq(contactFieldScreeners.screenerId, screenerId))
    .orderBy(asc(contactFieldScreeners.weight), asc(contactFieldScreeners.id));
}

/** A page of the contact-field links of the screeners the user may see, of one screener when given. */
export function contactFieldLinkPage(
  db: Db,
  user: AuthUser,
  screenerId: number | undefined,
  q: Pick<ListQuery<(typeof CONTACT_FIELD_SCREENER_SORTS)[number]>, 'sort' | 'limit' | 'offset'>,
) {
  const where = and(screenerScope(user), screenerId === undefined ? undefined : eq(contactFieldScreeners.screenerId, screenerId));
  const counted = countOf(db, contactFieldScreeners).innerJoin(screeners, eq(screeners.id, contactFieldScreeners.screenerId)).$dynamic();
  const select = db
    .select(contactFieldLinkColumns)
    .from(contactFieldScreeners)
    .innerJoin(screeners, eq(screeners.id, contactFieldScreeners.screenerId))
    .innerJoin(contactFields, eq(contactFields.id, contactFieldScreeners.contactFieldId))
    .$dynamic();
  const sorts = { weight: contactFieldScreeners.weight, label: contactFields.label };
  return joinedPage(select, counted, q, { where, sorts, id: contactFieldScreeners.id });
}
