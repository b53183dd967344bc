import { useEffect } from 'react';
import { DataTable, type Column } from './DataTable';
import { Pagination } from './Pagination';
import type { ResourceList } from './useResourceList';

export interface ListViewProps<T> {
  list: ResourceList<T>;
  columns: readonly Column<T>[];
  caption: string;
  rowKey?: (row: T) => string;
  /** Shown when there are no records at all, e.g. 'No sponsors yet.' */
  emptyMessage: string;
}

const byId = (row: unknown) => String((row as { id: string }).id);

/** A browse screen's body: error, sortable table and pagination, all driven by `useResourceList`. */
export function ListView<T>({ list, columns, caption, rowKey = byId, emptyMessage }: ListViewProps<T>) {
  const { loading, items, total, query, setPage } = list;
  const lastPage = Math.max(1, Math.ceil(total / query.limit));

  // Deleting the last row of the last page, or a shrinking result, leaves an empty page: step back.
  useEffect(() => {
    if (!loading && items.length === 0 && total > 0 && query.page > lastPage) setPage(lastPage);
  }, [loading, items.length, total, query.page, lastPage, setPage]);

  return (
    <section className="list-view" aria-label={caption}>
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
        columns={columns}
        rows={items}
        rowKey={rowKey}
        sort={query.sort}
        onSort={list.toggleSort}
        loading={loading}
        emptyMessage={query.searchQuery ? `Nothing matches “${query.searchQuery}”.` : emptyMessage}
      />
      <Pagination page={query.page} limit={query.limit} total={total} onPage={setPage} onLimit={list.setLimit} />
    </section>
  );
}
