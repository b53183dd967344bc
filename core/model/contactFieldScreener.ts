/** A contact field attached to a screener, in the order of its weight (SPEC sections 3, 7, 9). */
import * as v from 'valibot';
import { message } from '../validation/messages';
import { CONTACT_FIELD_TYPES } from './kinds';
import { idNumber } from './fields';
import { answered, count, recordId, resourceAnswer } from './answers';

export const CONTACT_FIELD_SCREENER_TYPE = 'contact-fields-screeners';
export const CONTACT_FIELD_SCREENER_SORTS = ['weight', 'label'] as const;
export const CONTACT_FIELD_SCREENER_DEFAULT_SORT = 'weight';
export const CONTACT_FIELD_SCREENER_LIMIT = 100;

/** The whole set of a screener's contact fields, replacing the old set. */
export const ContactFieldScreenersUpdate = v.strictObject({
  contactFieldScreeners: v.pipe(
    v.array(
      v.strictObject({
        contactFieldId: idNumber(),
        weight: v.pipe(v.number(message('integer')), v.integer(message('integer')), v.minValue(0, message('integer')), v.maxValue(100_000, message('integer'))),
      }),
    ),
    v.maxLength(100, 'At most 100 contact fields.'),
    v.check((list) => new Set(list.map((l) => l.contactFieldId)).size === list.length, 'Each contact field may be attached only once.'),
  ),
});
export type ContactFieldScreenersUpdate = v.InferInput<typeof ContactFieldScreenersUpdate>;

/** A screener's link to a contact field as the API answers it, with the field's label, name, required and type. */
export const CONTACT_FIELD_SCREENER = resourceAnswer(
  CONTACT_FIELD_SCREENER_TYPE,
  v.object({
    screenerId: recordId(),
    contactFieldId: recordId(),
    weight: count(),
    label: v.string(),
    name: v.string(),
    required: v.boolean(),
    fieldType: v.picklist(CONTACT_FIELD_TYPES),
  }),
);
/** What a reader parses a link with: its id beside the described attributes. */
export const ContactFieldScreener = answered(CONTACT_FIELD_SCREENER);
export type ContactFieldScreener = v.InferOutput<typeof ContactFieldScreener>;
