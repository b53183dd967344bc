/**
 * Columns every browse screen shows alike: the record's active badge and its row actions.
 * A screen composes them with its own columns.
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { formatDate } from '../format';
import { StatusBadge } from '../StatusBadge';
import { displayValue } from '../ViewFields';
import type { Column } from './DataTable';
import { RowActions } from './RowActions';
import './list.css';

/** The active badge, sorted (and exported) by isActive. */
export const activeColumn = <T extends { isActive: boolean }>(header: string): Column<T> => ({
  id: 'active',
  header,
  sortField: 'isActive',
  cell: (row) => <StatusBadge active={row.isActive} />,
});

/** The column that names the record and links to its screen, sorted (and exported) by that field. */
export const linkColumn = <T,>(field: keyof T & string, header: string, to: (row: T) => string): Column<T> => ({
  id: field,
  header,
  sortField: field,
  cell: (row) => <Link to={to(row)}>{String(row[field])}</Link>,
});

/**
 * A column of one field, sorted (and exported) by it: as it reads on view screens (a dash for
 * nothing), or `plain` as the text it is.
 */
export const fieldColumn = <T,>(field: keyof T & string, header: string, plain?: 'plain'): Column<T> => ({
  id: field,
  header,
  sortField: field,
  cell: (row) => (plain ? String(row[field] ?? '') : displayValue(row[field])),
});

/** When the record last changed (its day), sorted by it. */
export const modifiedColumn = <T extends { modified: string }>(header: string): Column<T> => ({
  id: 'modified',
  header,
  sortField: 'modified',
  cell: (row) => formatDate(row.modified),
});

export interface RowActionLinks<T> {
  /** Where the row's View and Edit go; no button where absent or undefined for that row. */
  view?: (row: T) => string | undefined;
  edit?: (row: T) => string | undefined;
  /**
   * Delete: asks first (useDeleteWithConfirm's function), and the list reloads once the record is
   * gone. No button where absent, or for a row `when` refuses.
   */
  remove?: { confirmAndDelete: (id: string, name?: string) => Promise<boolean>; reload: () => void; when?: (row: T) => boolean };
}

/** What a row is called, for the delete question: its name or title when it has one. */
function rowName(row: object): string | undefined {
  for (const key of ['name', 'title', 'label'] as const) {
    const value: unknown = key in row ? (row as Record<typeof key, unknown>)[key] : undefined;
    if (typeof value === 'string' && value.trim()) return value;
  }
  return undefined;
}

/** The column of a row's own buttons: never hidden, nothing of it exported. */
export const buttonsColumn = <T,>(header: string, cell: (row: T) => ReactNode): Column<T> => ({
  id: 'actions',
  header,
  className: 'col-actions',
  hideable: false,
  cell,
});

/** The Actions column (never hidden): View, Edit and Delete as the screen allows them per row. */
export function actionsColumn<T extends { id: string }>({ view, edit, remove }: RowActionLinks<T>): Column<T> {
  return buttonsColumn('Actions', (row) => (
    <RowActions
      view={view?.(row)}
      edit={edit?.(row)}
      onDelete={
        remove && (remove.when?.(row) ?? true)
          ? async () => {
              if (await remove.confirmAndDelete(row.id, rowName(row))) remove.reload();
            }
          : undefined
      }
    />
  ));
}
