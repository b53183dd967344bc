import { useState } from 'react';
import { ApiError } from '@core/api/client';

/**
 * A call with its busy flag. A failure goes to `onFailure` (a notice, or an error beside the
 * control) as the server's message, else as `failure`; `run` resolves whether the call succeeded.
 */
export function useBusyCall(onFailure: (message: string) => void) {
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<unknown>, failure: string): Promise<boolean> => {
    setBusy(true);
    try {
      await action();
      return true;
    } catch (error) {
      onFailure(error instanceof ApiError ? error.message : failure);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}
