import { useEffect } from 'react';
import { BulkBar, selectionColumn, useSelection } from './BulkActions';
import type { BulkOptions } from './bulk';
import { ColumnPicker } from './ColumnPicker';
import { DataTable, exportFieldsOf, type Column } from './DataTable';
import { ExportCsvButton } from './ExportCsvButton';
import type { ListFilterField } from './filters';
import { ListFilters } from './ListFilters';
import { Pagination } from './Pagination';
import type { ResourceList } from './useResourceList';
import { useHiddenColumns } from './useHiddenColumns';
import './list.css';

export interface ListViewProps<T> {
  list: ResourceList<T>;
  columns: readonly Column<T>[];
  caption: string;
  rowKey?: (row: T) => string;
  /** Shown when there are no records at all, e.g. 'No sponsors yet.' */
  emptyMessage: string;
  /** Filters beside the search; their names must be the list's `filterNames`. */
  filters?: readonly ListFilterField[];
  /** Lets the user hide columns, remembered per user under this key (wide lists). */
  columnsKey?: string;
  /** Row selection and the actions on the selected rows. */
  bulk?: BulkOptions<T>;
}

const byId = (row: unknown) => String((row as { id: string }).id);

/**
 * A browse screen's body, driven by `useResourceList`: filters, Columns and Export CSV above,
 * then the selected rows' actions, the sortable table and pagination. Each part shows only when
 * the screen asks for it.
 */
export function ListView<T>({ list, columns, caption, rowKey = byId, emptyMessage, filters, columnsKey, bulk }: ListViewProps<T>) {
  const { loading, items, total, query, setPage } = list;
  const lastPage = Math.max(1, Math.ceil(total / query.limit));
  const { hidden, setHidden } = useHiddenColumns(columnsKey);
  const selection = useSelection<T>();
  const narrowed = query.searchQuery !== '' || Object.keys(query.filters).length > 0;

  // Deleting the last row of the last page, or a shrinking result, leaves an empty page: step back.
  useEffect(() => {
    if (!loading && items.length === 0 && total > 0 && query.page > lastPage) setPage(lastPage);
  }, [loading, items.length, total, query.page, lastPage, setPage]);

  // Another search or filter is another set of rows: what was selected no longer applies.
  const { clear } = selection;
  const narrowing = JSON.stringify([query.searchQuery, query.filters]);
  useEffect(() => clear(), [narrowing, clear]);

  const visible = columns.filter((c) => c.hideable === false || !hidden.has(c.id));
  const label = bulk?.label ?? rowKey;
  const tableColumns = bulk ? [selectionColumn(selection, items, rowKey, label), ...visible] : visible;
  const tools = list.loadCsv || columnsKey;

  return (
    <section className="list-view" aria-label={caption}>
      {(filters || tools) && (
        <div className="list-toolbar">
          {filters && <ListFilters fields={filters} values={query.filters} onChange={list.setFilter} onClear={list.clearFilters} active={narrowed} />}
          {tools && (
            <div className="list-tools">
              {columnsKey && <ColumnPicker columns={columns} hidden={hidden} onChange={setHidden} />}
              {list.loadCsv && <ExportCsvButton load={list.loadCsv} params={list.params} fields={exportFieldsOf(visible)} columns={visible} />}
            </div>
          )}
        </div>
      )}
      {bulk && (
        <BulkBar options={bulk} state={selection} page={items} total={total} params={list.params} load={list.load} rowKey={rowKey} onDone={list.reload} />
      )}
      {list.error && (
        <div className="form-errors" role="alert">
          {list.error}{' '}
          <button type="button" className="btn-link" onClick={list.reload}>
            Try again
          </button>
        </div>
      )}
      <DataTable
        caption={caption}
        columns={tableColumns}
        rows={items}
        rowKey={rowKey}
        sort={query.sort}
        onSort={list.toggleSort}
        loading={loading}
        emptyMessage={
          query.searchQuery
            ? `Nothing matches “${query.searchQuery}”${Object.keys(query.filters).length > 0 ? ' with these filters' : ''}.`
            : Object.keys(query.filters).length > 0
              ? 'Nothing matches these filters.'
              : emptyMessage
        }
      />
      <Pagination page={query.page} limit={query.limit} total={total} onPage={setPage} onLimit={list.setLimit} />
    </section>
  );
}
