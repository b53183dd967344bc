/**
 * A screener's contact fields with their weights (the order the contact form asks them in),
 * replaced as a whole by POST /api/contact-fields-screeners/update/{screenerId}.
 */
import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/open';
import { contactFieldScreeners, contactFields } from '../db/schema';
import { invalid } from '../http/errors';
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
  if (issues.length) throw invalid(issues);
  await db
    .transaction(async (tx) => {
      await tx.delete(contactFieldScreeners).where(eq(contactFieldScreeners.screenerId, screenerId));
      if (list.length) await tx.insert(contactFieldScreeners).values(list.map((l) => ({ screenerId, ...l })));
    })
    .catch((error: unknown) => {
      if (pgErrorCode(error).code === '23503') throw invalid([{ pointer: '/data/attributes/contactFieldScreeners', detail: UNKNOWN_CONTACT_FIELD }]);
      throw error;
    });
  return db
    .select(contactFieldLinkColumns)
    .from(contactFieldScreeners)
    .innerJoin(contactFields, eq(contactFields.id, contactFieldScreeners.contactFieldId))
    .where(eq(contactFieldScreeners.screenerId, screenerId))
    .orderBy(asc(contactFieldScreeners.weight), asc(contactFieldScreeners.id));
}
