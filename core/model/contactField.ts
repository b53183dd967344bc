import * as v from 'valibot';
import { flag, requiredText } from './fields';
import { CONTACT_FIELD_TYPES, type ContactFieldType } from './kinds';
import { translations, type Translations } from './translations';

export const CONTACT_FIELD_TYPE = 'contact-fields';

export { CONTACT_FIELD_TYPES, type ContactFieldType };

export const CONTACT_FIELD_NAME_FORMAT =
  'Use lower-case letters, digits and underscores, starting with a letter (for example first_name).';
export const CONTACT_FIELD_TYPE_INVALID = `Choose one of: ${CONTACT_FIELD_TYPES.join(', ')}.`;

const MACHINE_NAME = /^[a-z][a-z0-9_]*$/;

export const ContactFieldInput = v.strictObject({
  label: requiredText(255),
  /** A stable machine name, unique: what the participant's answer is stored under. */
  name: v.pipe(requiredText(64), v.check((s) => MACHINE_NAME.test(s), CONTACT_FIELD_NAME_FORMAT)),
  required: v.optional(flag(), false),
  fieldType: v.optional(v.picklist(CONTACT_FIELD_TYPES, CONTACT_FIELD_TYPE_INVALID), 'text'),
  translations: v.optional(translations(255), {}),
});
export const ContactFieldPatch = v.partial(ContactFieldInput);

export type ContactFieldInput = v.InferInput<typeof ContactFieldInput>;

export interface ContactField {
  id: string;
  label: string;
  name: string;
  required: boolean;
  fieldType: ContactFieldType;
  /** Map of API iso code to the label in that language. */
  translations: Translations;
  created: string;
  modified: string;
}

export const CONTACT_FIELD_SORTS = ['label', 'name', 'fieldType', 'required', 'created', 'modified'] as const;
export const CONTACT_FIELD_DEFAULT_SORT = 'label';
