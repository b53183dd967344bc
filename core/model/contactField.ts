import * as v from 'valibot';
import { flag, requiredText } from './fields';
import { CONTACT_FIELD_TYPES, type ContactFieldType } from './kinds';
import { answeredTranslations, translations } from './translations';
import { instant, resourceAnswer, type Answered } from './answers';

export const CONTACT_FIELD_TYPE = 'contact-fields';

export { CONTACT_FIELD_TYPES, type ContactFieldType };

export const CONTACT_FIELD_NAME_FORMAT = 'Use lower-case letters, digits and underscores, starting with a letter (for example first_name).';
export const CONTACT_FIELD_TYPE_INVALID = `Choose one of: ${CONTACT_FIELD_TYPES.join(', ')}.`;

const MACHINE_NAME = /^[a-z][a-z0-9_]*$/;

export const ContactFieldInput = v.strictObject({
  label: requiredText(255),
  /** A stable machine name, unique: what the participant's answer is stored under. */
  name: v.pipe(
    requiredText(64),
    v.check((s) => MACHINE_NAME.test(s), CONTACT_FIELD_NAME_FORMAT),
  ),
  required: v.optional(flag(), false),
  fieldType: v.optional(v.picklist(CONTACT_FIELD_TYPES, CONTACT_FIELD_TYPE_INVALID), 'text'),
  translations: v.optional(translations(255), {}),
});
export const ContactFieldPatch = v.partial(ContactFieldInput);

export type ContactFieldInput = v.InferInput<typeof ContactFieldInput>;

/** A contact field as the API answers it: the one description of its attributes. */
export const CONTACT_FIELD = resourceAnswer(
  CONTACT_FIELD_TYPE,
  v.object({
    label: v.string(),
    name: v.pipe(v.string(), v.description("A stable machine name, unique: what the participant's answer is stored under.")),
    required: v.boolean(),
    fieldType: v.picklist(CONTACT_FIELD_TYPES),
    translations: answeredTranslations(),
    created: instant(),
    modified: instant(),
  }),
);

export type ContactField = Answered<typeof CONTACT_FIELD>;

export const CONTACT_FIELD_SORTS = ['label', 'name', 'fieldType', 'required', 'created', 'modified'] as const;
export const CONTACT_FIELD_DEFAULT_SORT = 'label';
