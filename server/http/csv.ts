/**
 * CSV for spreadsheets: RFC 4180 quoting, and cells that a spreadsheet would run as a formula
 * (starting with = + - @ or a tab or carriage return) prefixed with an apostrophe (OWASP CSV
 * injection).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvRow = (cells: readonly unknown[]): string => cells.map(csvCell).join(',');
