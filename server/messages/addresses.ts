/** A participant's e-mail address among the contact values they left. */

/** The first e-mail field's value of a contact, when it is one. */
export function participantEmail(form: readonly { name: string; fieldType: string }[], values: Readonly<Record<string, unknown>>): string | null {
  const value = form
    .filter((f) => f.fieldType === 'email')
    .map((f) => values[f.name])
    .find((v) => typeof v === 'string' && /^[^@\s]+@[^@\s]+$/.test(v.trim()));
  return typeof value === 'string' ? value.trim() : null;
}

/** The first phone field's value of a contact as a number to text (E.164; US numbers of 10 digits get +1); null when there is none. */
export function participantPhone(form: readonly { name: string; fieldType: string }[], values: Readonly<Record<string, unknown>>): string | null {
  const value = form
    .filter((f) => f.fieldType === 'phone')
    .map((f) => values[f.name])
    .find((v) => typeof v === 'string' && v.trim() !== '');
  if (typeof value !== 'string') return null;
  const digits = value.replace(/\D/g, '');
  if (value.trim().startsWith('+')) return digits.length >= 8 && digits.length <= 15 ? `+${digits}` : null;
  if (digits.length === 10) return `+1${digits}`;
  if (digits.length === 11 && digits.startsWith('1')) return `+${digits}`;
  return null;
}
