/**
 * The contact form at the end of a qualified run: each of the screener's contact fields checked
 * by its type with core/validation (required ones enforced), and the consent (acceptTerms). The
 * widget runs this before sending and the server runs it again on what arrives, so both give
 * the same messages in the participant's language.
 */
import type { ContactFieldType } from '../model/contactField';
import { validateParticipantValue as validateValue, type ParticipantRule as Rule } from '../validation/ruleCheck';
import { kindRules } from './answers';
import { isAccepted, normalizeUsPhone } from '../validation/rules';

export interface ContactFormField {
  name: string;
  fieldType: ContactFieldType;
  required: boolean;
}

/** What a contact value may be: text, or a ticked/unticked box for checkbox fields. */
export type ContactValue = string | boolean;

/** The problems' key for the consent, beside the field names (which are lower-case machine names). */
export const ACCEPT_TERMS = 'acceptTerms';

/** A stored value never grows past this, whatever the field's type. */
const TEXT_LIMIT = 255;

/** A field's rules; a ZIP field's by `region`, the run's channel's (kindRules). */
export function contactFieldRules(field: ContactFormField, region?: string): Rule[] {
  const rules: Rule[] = field.required ? ['required'] : [];
  rules.push(...kindRules(field.fieldType, region));
  if (field.fieldType !== 'checkbox') rules.push({ rule: 'max', length: TEXT_LIMIT });
  return rules;
}

/** A value as it is checked and stored: text trimmed, a phone as 000-000-0000, a checkbox as a boolean; null for no answer. */
export function normalizeContactValue(field: ContactFormField, value: unknown): ContactValue | null {
  if (field.fieldType === 'checkbox') {
    if (isAccepted(value)) return true;
    if (value === false || value === 'false' || value === '' || value == null) return false;
    return null;
  }
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const text = value.trim();
  // A phone typed in any common US way is kept as 000-000-0000, here for the widget and the server alike.
  return text === '' ? null : field.fieldType === 'phone' ? normalizeUsPhone(text) : text;
}

/**
 * Each field's first problem by field name, and the consent's under `acceptTerms`; empty when
 * the form may be sent. Values of names that are not fields of the form are not looked at.
 */
export function checkContact(
  fields: readonly ContactFormField[],
  values: Readonly<Record<string, unknown>>,
  acceptTerms: unknown,
  lang = 'en',
  region?: string,
): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const field of fields) {
    const given = values[field.name];
    const value = normalizeContactValue(field, given);
    // Something that is neither text nor a box (a list, an object) is no answer at all.
    const unusable = value === null && given !== undefined && given !== null && typeof given !== 'string';
    const problem = validateValue(unusable ? null : value, unusable ? ['required'] : contactFieldRules(field, region), lang);
    if (problem) problems[field.name] = problem;
  }
  const consent = validateValue(acceptTerms === true, ['acceptTerms'], lang);
  if (consent) problems[ACCEPT_TERMS] = consent;
  return problems;
}

/** The values to store: one per field of the form, normalized; fields left empty are left out. */
export function contactValues(fields: readonly ContactFormField[], values: Readonly<Record<string, unknown>>): Record<string, ContactValue> {
  const out: Record<string, ContactValue> = {};
  for (const field of fields) {
    const value = normalizeContactValue(field, values[field.name]);
    if (value !== null) out[field.name] = value;
  }
  return out;
}
