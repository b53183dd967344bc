import type { CONTACT_FIELD_TYPES } from '@core/model/contactField';

export const CONTACT_FIELD_LABELS = {
  label: 'Label',
  name: 'Name',
  type: 'Type',
  required: 'Required',
  translations: 'Translations',
  modified: 'Modified',
} as const;

export const TYPE_LABELS: Record<(typeof CONTACT_FIELD_TYPES)[number], string> = {
  text: 'Text',
  email: 'Email',
  phone: 'Phone',
  zip: 'ZIP code',
  date: 'Date',
  checkbox: 'Checkbox',
};
