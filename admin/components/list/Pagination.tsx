import { useId } from 'react';
import { PAGE_SIZES } from './useResourceList';
import './list.css';

/** Page numbers to offer: the first, the last, and the current one with its neighbours. */
export function pageItems(page: number, pageCount: number): (number | 'gap')[] {
  const wanted = new Set([1, pageCount, page - 1, page, page + 1].filter((p) => p >= 1 && p <= pageCount));
  const sorted = [...wanted].sort((a, b) => a - b);
  const out: (number | 'gap')[] = [];
  sorted.forEach((p, i) => {
    const previous = sorted[i - 1];
    if (previous !== undefined && p - previous > 1) out.push(p - previous === 2 ? p - 1 : 'gap');
    out.push(p);
  });
  return out;
}

export interface PaginationProps {
  page: number;
  limit: number;
  total: number;
  onPage: (page: number) => void;
  onLimit: (limit: number) => void;
  pageSizes?: readonly number[];
}

export function Pagination({ page, limit, total, onPage, onLimit, pageSizes = PAGE_SIZES }: PaginationProps) {
  const sizeId = useId();
  const pageCount = Math.max(1, Math.ceil(total / limit));
  const from = total === 0 ? 0 : (page - 1) * limit + 1;
  const to = Math.min(total, page * limit);

  return (
    <div className="pagination">
      <div className="page-size">
        <label htmlFor={sizeId}>Rows per page</label>
        <select id={sizeId} className="input" value={limit} onChange={(event) => onLimit(Number(event.target.value))}>
          {pageSizes.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </div>
      <p className="page-summary" aria-live="polite">
        {total === 0 ? 'No results' : `Showing ${from}–${to} of ${total}`}
      </p>
      <nav aria-label="Pagination">
        <ul className="page-list">
          <li>
            <button type="button" className="page-button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
              Previous
            </button>
          </li>
          {pageItems(page, pageCount).map((item, index) =>
            item === 'gap' ? (
              <li key={`gap-${index}`} className="page-gap" aria-hidden="true">
                …
              </li>
            ) : (
              <li key={item}>
                <button
                  type="button"
                  className={item === page ? 'page-button is-current' : 'page-button'}
                  aria-label={`Page ${item}`}
                  aria-current={item === page ? 'page' : undefined}
                  onClick={() => item !== page && onPage(item)}
                >
                  {item}
                </button>
              </li>
            ),
          )}
          <li>
            <button type="button" className="page-button" disabled={page >= pageCount} onClick={() => onPage(page + 1)}>
              Next
            </button>
          </li>
        </ul>
      </nav>
    </div>
  );
}
