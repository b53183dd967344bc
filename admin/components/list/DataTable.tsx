import type { ReactNode } from 'react';
import { sortDirection } from './sort';
import './list.css';
import type { AsyncState } from '../../hooks/useAsync';

export interface Column<T> {
  id: string;
  /** The header's text; also names the column in the Columns menu. */
  header: string;
  /** Shown in the header cell instead of `header` (e.g. a select-all box). */
  headerContent?: ReactNode;
  /** The API's sort field; makes the header a sort button. */
  sortField?: string;
  /** The attributes this column shows, as CSV columns; default the sort field; [] for none. */
  exportFields?: readonly string[];
  /** False for columns that cannot be hidden (actions, selection). */
  hideable?: boolean;
  cell: (row: T) => ReactNode;
  className?: string;
  /** The cell that names its row (a row header, th scope=row), e.g. the outcome a row is about. */
  rowHeader?: boolean;
}

/** The attributes a CSV export of these columns asks for, in their order. */
export const exportFieldsOf = <T,>(columns: readonly Column<T>[]): string[] => [
  ...new Set(columns.flatMap((c) => c.exportFields ?? (c.sortField ? [c.sortField] : []))),
];

export interface DataTableProps<T> {
  /** Names the table for assistive technology, e.g. 'Sponsors'. */
  caption: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  sort?: string;
  onSort?: (field: string) => void;
  loading?: boolean;
  emptyMessage: string;
}

const SORT_MARK = { ascending: '▲', descending: '▼' } as const;

export function DataTable<T>({ caption, columns, rows, rowKey, sort = '', onSort, loading, emptyMessage }: DataTableProps<T>) {
  return (
    // A region that may scroll sideways (a phone, many columns) must be reachable by keyboard.
    // Named apart from the section around it, which often carries the same caption.
    <div className="table-wrap" tabIndex={0} role="region" aria-label={`${caption} table`}>
      <table className={loading ? 'data-table is-loading' : 'data-table'} aria-busy={loading || undefined}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => {
              const direction = column.sortField ? sortDirection(sort, column.sortField) : undefined;
              return (
                <th key={column.id} scope="col" className={column.className} aria-sort={column.sortField ? (direction ?? 'none') : undefined}>
                  {column.headerContent ??
                    (column.sortField && onSort ? (
                      <button type="button" className="sort-button" onClick={() => onSort(column.sortField as string)}>
                        {column.header}
                        <span className={direction ? 'sort-mark is-active' : 'sort-mark'} aria-hidden="true">
                          {direction ? SORT_MARK[direction] : '↕'}
                        </span>
                      </button>
                    ) : (
                      column.header
                    ))}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td className="table-message" colSpan={columns.length}>
                {loading ? 'Loading…' : emptyMessage}
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map((column) =>
                  column.rowHeader ? (
                    <th key={column.id} scope="row" className={column.className}>
                      {column.cell(row)}
                    </th>
                  ) : (
                    <td key={column.id} className={column.className}>
                      {column.cell(row)}
                    </td>
                  ),
                )}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

/** A DataTable of one loaded page of records, keyed by their ids (the panels of view screens). */
export function PageTable<T extends { id: string }>({
  page,
  ...table
}: Omit<DataTableProps<T>, 'rows' | 'rowKey' | 'loading'> & { page: AsyncState<{ items: T[] }> }) {
  return <DataTable {...table} rowKey={(row) => row.id} rows={page.data?.items ?? []} loading={page.loading} />;
}
