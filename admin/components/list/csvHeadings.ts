/**
 * An exported list names its columns as the screen does: the API's CSV heads each column with the
 * attribute's name (`piName`), which integrations read; a person opening the file reads the
 * screen's column headers ('PI Name'). Only the heading row changes; the cells stay as sent.
 */
import { inWords } from '../format';
import type { Column } from './DataTable';

/** Attribute name → heading: a column showing one attribute gives its header; one showing several ('12 / 30') names each in words. */
export function csvHeadingsOf<T>(columns: readonly Column<T>[]): Map<string, string> {
  const headings = new Map<string, string>([['id', 'ID']]);
  for (const column of columns) {
    const fields = column.exportFields ?? (column.sortField ? [column.sortField] : []);
    for (const field of fields) if (!headings.has(field)) headings.set(field, fields.length === 1 ? column.header : inWords(field));
  }
  return headings;
}

const quoted = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);

/** The file with its first row's names replaced by their headings (the names are plain words: no quoting to undo). */
export function relabelCsv(text: string, headings: ReadonlyMap<string, string>): string {
  const end = text.indexOf('\r\n');
  const head = end === -1 ? text : text.slice(0, end);
  const rest = end === -1 ? '' : text.slice(end);
  return (
    head
      .split(',')
      .map((name) => quoted(headings.get(name) ?? inWords(name)))
      .join(',') + rest
  );
}
