/** A participant's e-mail address among the contact values they left. */

/** The first e-mail field's value of a contact, when it is one. */
export function participantEmail(form: readonly { name: string; fieldType: string }[], values: Readonly<Record<string, unknown>>): string | null {
  const value = form.filter((f) => f.fieldType === 'email').map((f) => values[f.name]).find((v) => typeof v === 'string' && /^[^@\s]+@[^@\s]+$/.test(v.trim()));
  return typeof value === 'string' ? value.trim() : null;
}
