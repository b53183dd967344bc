/** JSON:API sort strings: comma-separated fields, descending ones prefixed with '-'. */
export interface SortKey {
  field: string;
  descending: boolean;
}

export function parseSort(sort: string): SortKey[] {
  return sort
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => (part.startsWith('-') ? { field: part.slice(1), descending: true } : { field: part, descending: false }));
}

export const formatSort = (keys: readonly SortKey[]): string => keys.map((k) => (k.descending ? `-${k.field}` : k.field)).join(',');

/**
 * A click on a column header: the column already leading the sort flips direction (keeping
 * the tie-breakers); any other column becomes the only sort, ascending.
 */
export function toggleSort(sort: string, field: string): string {
  const keys = parseSort(sort);
  const [first, ...rest] = keys;
  if (first?.field === field) return formatSort([{ field, descending: !first.descending }, ...rest]);
  return field;
}

/** The aria-sort of a column: only the leading sort field is announced. */
export function sortDirection(sort: string, field: string): 'ascending' | 'descending' | undefined {
  const first = parseSort(sort)[0];
  if (first?.field !== field) return undefined;
  return first.descending ? 'descending' : 'ascending';
}
