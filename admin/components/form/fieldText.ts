/** A value from the API as a form field holds it: its text, '' for none. */
export const fieldText = (value: string | number | null | undefined): string => (value === null || value === undefined ? '' : String(value));

/** A field's text as the API takes it: '' is no number; anything else is sent as a number (NaN fails validation beside the field). */
export const numberOrNull = (value: string): number | null => (value.trim() === '' ? null : Number(value));
