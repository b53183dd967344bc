import type { ReactNode } from 'react';
import { sortDirection } from './sort';

export interface Column<T> {
  id: string;
  header: string;
  /** The API's sort field; makes the header a sort button. */
  sortField?: string;
  cell: (row: T) => ReactNode;
  className?: string;
}

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
    <div className="table-wrap">
      <table className={loading ? 'data-table is-loading' : 'data-table'} aria-busy={loading || undefined}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => {
              const direction = column.sortField ? sortDirection(sort, column.sortField) : undefined;
              return (
                <th
                  key={column.id}
                  scope="col"
                  className={column.className}
                  aria-sort={column.sortField ? (direction ?? 'none') : undefined}
                >
                  {column.sortField && onSort ? (
                    <button type="button" className="sort-button" onClick={() => onSort(column.sortField as string)}>
                      {column.header}
                      <span className={direction ? 'sort-mark is-active' : 'sort-mark'} aria-hidden="true">
                        {direction ? SORT_MARK[direction] : '↕'}
                      </span>
                    </button>
                  ) : (
                    column.header
                  )}
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
                {columns.map((column) => (
                  <td key={column.id} className={column.className}>
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
