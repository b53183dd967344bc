/**
 * The kinds of survey questions and of contact fields, as plain lists: the entity schemas
 * (./survey.ts, ./contactField.ts) validate with them and the participant transport reads answers
 * with them, so this module carries no schema code (the widget imports it).
 */

/** The JSON:API type of a survey question (a page's `included` holds them). */
export const OFORM_FIELD_TYPE = 'o-form-fields';

/** Question types. New questions start as `placeholder`. */
export const FIELD_TYPES = ['placeholder', 'single', 'multiple', 'dropdown', 'yes_no', 'text', 'number', 'email', 'phone', 'zip', 'date', 'dob'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const CONTACT_FIELD_TYPES = ['text', 'email', 'phone', 'zip', 'date', 'checkbox'] as const;
export type ContactFieldType = (typeof CONTACT_FIELD_TYPES)[number];
