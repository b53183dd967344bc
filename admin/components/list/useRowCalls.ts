import { useCallback, useState } from 'react';
import { ApiError } from '@core/api/client';
import { useNotify } from '../../state/notices';

/**
 * Calls about single rows of a list (a resend), several running at once: `waiting` holds the
 * rows whose call has not ended, so their buttons wait and say so; a failed call is a notice,
 * the server's message or `failure`.
 */
export function useRowCalls<K>() {
  const notify = useNotify();
  const [waiting, setWaiting] = useState<ReadonlySet<K>>(new Set());
  const run = useCallback(
    async (key: K, call: () => Promise<void>, failure: string) => {
      setWaiting((current) => new Set(current).add(key));
      try {
        await call();
      } catch (error) {
        notify('error', error instanceof ApiError ? error.message : failure);
      } finally {
        setWaiting((current) => {
          const next = new Set(current);
          next.delete(key);
          return next;
        });
      }
    },
    [notify],
  );
  return { waiting, run };
}
