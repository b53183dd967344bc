import { useTopBar } from '../../state/topBar';
import { useDeleteWithConfirm } from '../useDeleteWithConfirm';
import { type ResourceList, type ResourceListOptions, useApiResourceList } from './useResourceList';

export interface IndexListOptions<T> extends Omit<ResourceListOptions<T>, 'load' | 'loadCsv'> {
  /** Names the kind of record in the delete question and notice, e.g. 'Sponsor'. */
  what: string;
  /** Where the top bar's Add goes; no Add where absent or false. */
  add?: string | false;
  searchPlaceholder?: string;
}

/**
 * A browse screen's list of a resource (core/api client), its Delete that asks first, and its
 * top bar: Add where the screen offers it, and the search box.
 */
export function useIndexList<T>(
  api: Parameters<typeof useApiResourceList<T>>[0] & { remove: (id: string) => Promise<void> },
  { what, add, searchPlaceholder, ...options }: IndexListOptions<T>,
): { list: ResourceList<T>; remove: (id: string, name?: string) => Promise<boolean> } {
  const list = useApiResourceList(api, options);
  const remove = useDeleteWithConfirm(api.remove, what);
  useTopBar({
    buttons: add ? [{ label: 'Add', to: add }] : [],
    search: searchPlaceholder ? { ...list.search, placeholder: searchPlaceholder } : list.search,
  });
  return { list, remove };
}
