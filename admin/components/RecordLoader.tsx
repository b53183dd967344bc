import type { ReactNode } from 'react';
import { ApiError } from '@core/api/client';
import type { AsyncState } from '../hooks/useAsync';
import { ForbiddenMessage, NotFoundMessage } from './ErrorMessages';
import { Loading } from './Loading';

export const LOAD_RECORD_FAILED = 'Could not load data';

/**
 * The states of a screen about one record: loading, missing (404), forbidden (403), failed
 * (with Try again), and loaded, which renders `children(record)`.
 */
export function RecordLoader<T>({
  state,
  resource,
  children,
}: {
  state: AsyncState<T>;
  /** Names the record in the 403/404 texts, e.g. 'sponsor'. */
  resource: string;
  children: (record: T) => ReactNode;
}) {
  if (state.error) {
    const status = state.error instanceof ApiError ? state.error.status : 0;
    if (status === 404) return <NotFoundMessage resource={resource} />;
    if (status === 403) return <ForbiddenMessage resource={resource} />;
    return (
      <div className="form-errors" role="alert">
        {state.error instanceof ApiError ? state.error.message : LOAD_RECORD_FAILED}{' '}
        <button type="button" className="btn-link" onClick={state.reload}>
          Try again
        </button>
      </div>
    );
  }
  if (state.data === undefined) return <Loading />;
  return <>{children(state.data)}</>;
}
