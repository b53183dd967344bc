/**
 * A browse screen's state: page, page size, sort, search and filters kept in the URL's query
 * string (so reload and Back restore them), and the page of records they select.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchUpdate } from '../../routing/searchUpdate';
import { ApiError, type DownloadedFile, type ListResult } from '@core/api/client';
import type { ListParams } from '@core/jsonapi';
import type { TopBarSearch } from '../../state/topBar';
import { parseSort, toggleSort } from './sort';

/** SPEC section 9. */
export const PAGE_SIZES = [10, 20, 50, 100, 1000] as const;
export const DEFAULT_PAGE_SIZE = 20;

export interface ListQuery {
  page: number;
  limit: number;
  sort: string;
  searchQuery: string;
  /** The screen's filters that have a value, by their API parameter names. */
  filters: Record<string, string>;
}

export interface ListQueryOptions {
  /** e.g. SPONSOR_DEFAULT_SORT from core/model. */
  defaultSort: string;
  /** Fields the API accepts in `sort`; anything else in the URL falls back to the default. */
  sortable: readonly string[];
  defaultLimit?: number;
  /** Filters staff set on the screen (API parameter names), kept in the URL under the same names. */
  filterNames?: readonly string[];
}

export function readListQuery(params: URLSearchParams, options: ListQueryOptions): ListQuery {
  const defaultLimit = options.defaultLimit ?? DEFAULT_PAGE_SIZE;
  const page = Number(params.get('page'));
  const limit = Number(params.get('limit'));
  const sort = params.get('sort') ?? '';
  const sortOk = sort !== '' && parseSort(sort).every((k) => options.sortable.includes(k.field));
  return {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    limit: (PAGE_SIZES as readonly number[]).includes(limit) ? limit : defaultLimit,
    sort: sortOk ? sort : options.defaultSort,
    searchQuery: params.get('searchQuery') ?? '',
    filters: Object.fromEntries(
      (options.filterNames ?? []).flatMap((name) => {
        const value = params.get(name)?.trim();
        return value ? [[name, value]] : [];
      }),
    ),
  };
}

/** The query string for `query`, leaving defaults out and other parameters as they were. */
export function writeListQuery(base: URLSearchParams, query: ListQuery, options: ListQueryOptions): URLSearchParams {
  const out = new URLSearchParams(base);
  const put = (key: string, value: string, fallback: string) => (value === fallback ? out.delete(key) : out.set(key, value));
  put('page', String(query.page), '1');
  put('limit', String(query.limit), String(options.defaultLimit ?? DEFAULT_PAGE_SIZE));
  put('sort', query.sort, options.defaultSort);
  put('searchQuery', query.searchQuery.trim(), '');
  for (const name of options.filterNames ?? []) put(name, query.filters[name]?.trim() ?? '', '');
  return out;
}

export const toListParams = (query: ListQuery): ListParams => ({
  ...query.filters,
  page: query.page,
  limit: query.limit,
  sort: query.sort,
  searchQuery: query.searchQuery.trim() || undefined,
});

/** A list's first request for the location's query string (its route asks for it ahead, routing/ahead.ts). */
export const firstPageParams = (search: URLSearchParams, options: ListQueryOptions): ListParams => toListParams(readListQuery(search, options));

export function useListQuery(options: ListQueryOptions) {
  const [params, changeSearch] = useSearchUpdate();
  const query = readListQuery(params, options);
  const optionsRef = useRef(options);
  optionsRef.current = options;

  const update = useCallback(
    (change: (current: ListQuery) => Partial<ListQuery>, replace = false) =>
      changeSearch(
        (previous) => {
          const current = readListQuery(previous, optionsRef.current);
          return writeListQuery(previous, { ...current, ...change(current) }, optionsRef.current);
        },
        { replace },
      ),
    [changeSearch],
  );

  return {
    query,
    setPage: useCallback((page: number) => update(() => ({ page })), [update]),
    setLimit: useCallback((limit: number) => update(() => ({ limit, page: 1 })), [update]),
    toggleSort: useCallback((field: string) => update((c) => ({ sort: toggleSort(c.sort, field), page: 1 })), [update]),
    // Replacing, not pushing: Back should not step through every search typed.
    setSearch: useCallback((searchQuery: string) => update(() => ({ searchQuery, page: 1 }), true), [update]),
    setFilter: useCallback((name: string, value: string) => update((c) => ({ filters: { ...c.filters, [name]: value }, page: 1 })), [update]),
    /** Clears the filters and the search at once. */
    clearFilters: useCallback(() => update(() => ({ filters: {}, searchQuery: '', page: 1 })), [update]),
  };
}

export interface ListData<T> {
  items: T[];
  total: number;
  loading: boolean;
  error: string | null;
  reload: () => void;
}

export const LOAD_FAILED = 'Could not load data';

/** Loads a page of records for `params`, dropping answers to superseded requests. */
export function useListData<T>(load: (params: ListParams) => Promise<ListResult<T>>, params: ListParams): ListData<T> {
  const key = JSON.stringify(params);
  const loadRef = useRef(load);
  loadRef.current = load;
  const [version, setVersion] = useState(0);
  const [state, setState] = useState<Omit<ListData<T>, 'reload'>>({ items: [], total: 0, loading: true, error: null });

  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true, error: null }));
    loadRef.current(JSON.parse(key) as ListParams).then(
      (result) => current && setState({ items: result.items, total: result.total, loading: false, error: null }),
      (error: unknown) => current && setState((previous) => ({ ...previous, loading: false, error: error instanceof ApiError ? error.message : LOAD_FAILED })),
    );
    return () => {
      current = false;
    };
  }, [key, version]);

  const reload = useCallback(() => setVersion((n) => n + 1), []);
  return { ...state, reload };
}

export interface ResourceListOptions<T> extends ListQueryOptions {
  load: (params: ListParams) => Promise<ListResult<T>>;
  /** The whole list as CSV for the same parameters (core/api's `listCsv`); shows Export CSV. */
  loadCsv?: (params: ListParams) => Promise<DownloadedFile>;
  /** Fixed filters of this screen, e.g. `{ sponsorId }`. */
  filters?: ListParams;
}

export type ResourceList<T> = ReturnType<typeof useListQuery> &
  ListData<T> & {
    /** Wire to the top bar: `useTopBar({ search: list.search })`. */
    search: TopBarSearch;
    /** The parameters of the current page (fixed filters, screen filters, search, sort). */
    params: ListParams;
    load: (params: ListParams) => Promise<ListResult<T>>;
    loadCsv?: (params: ListParams) => Promise<DownloadedFile>;
  };

/** Everything a browse screen needs: URL-backed query, the loaded page, and the search wiring. */
export function useResourceList<T>({ load, loadCsv, filters, ...options }: ResourceListOptions<T>): ResourceList<T> {
  const listQuery = useListQuery(options);
  const { query } = listQuery;
  const params = useMemo(
    () => ({ ...filters, ...toListParams(query) }),
    [JSON.stringify(filters), query.page, query.limit, query.sort, query.searchQuery, JSON.stringify(query.filters)],
  );
  const data = useListData(load, params);
  return { ...listQuery, ...data, params, load, loadCsv, search: { value: query.searchQuery, onSearch: listQuery.setSearch } };
}

/** useResourceList over a resource's API client (core/api): its list, and its CSV export. */
export function useApiResourceList<T>(
  api: { list: ResourceListOptions<T>['load']; listCsv?: ResourceListOptions<T>['loadCsv'] },
  options: Omit<ResourceListOptions<T>, 'load' | 'loadCsv'>,
): ResourceList<T> {
  return useResourceList({ load: api.list, loadCsv: api.listCsv, ...options });
}
