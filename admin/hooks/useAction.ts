import { useCallback, useRef, useState } from 'react';
import { failureText } from '../sections/surveys/surveyValues';

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
