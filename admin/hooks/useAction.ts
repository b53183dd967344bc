import { useCallback, useRef, useState } from 'react';
import { ApiError } from '@core/api/client';

/**
 * What a failed call shows: the server's own message first when it gave one (not for a lost
 * connection), then the SPEC's text for the action.
 */
export function failureText(error: unknown, fallback: string): string {
  // The server's documents carry a detail; what the client made up itself (no answer, a proxy's
  // page) carries only a title and is not shown.
  const details = error instanceof ApiError && error.status > 0 ? error.errors.map((e) => e.detail).filter(Boolean) : [];
  return details.length ? `${details.join(' ')} ${fallback}` : fallback;
}

/** One call at a time, with its busy flag and the message of its last failure. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const running = useRef(false);
  const run = useCallback(async (action: () => Promise<void>, failure: string): Promise<boolean> => {
    if (running.current) return false;
    running.current = true;
    setBusy(true);
    setError(null);
    try {
      await action();
      return true;
    } catch (error) {
      setError(failureText(error, failure));
      return false;
    } finally {
      running.current = false;
      setBusy(false);
    }
  }, []);
  return { busy, error, run, setError };
}
