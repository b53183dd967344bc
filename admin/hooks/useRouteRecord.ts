import { useParams } from 'react-router-dom';
import type { ApiClient } from '@core/api/client';
import { useApi } from '../state/services';
import { type AsyncState, useAsync } from './useAsync';

/**
 * The record a view or edit screen shows: the one the route's `param` (:id unless said) names,
 * read with `read` from the API module `factory` (a stable, module-level function).
 */
export function useRouteRecord<A, T>(factory: (client: ApiClient) => A, read: (api: A, id: string) => Promise<T>, param = 'id'): AsyncState<T> {
  const { [param]: id = '' } = useParams();
  const api = useApi(factory);
  return useAsync(() => read(api, id), [api, id]);
}
