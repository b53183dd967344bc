/**
 * A value an editor saves by itself (when it loses focus): one save at a time, the value the
 * server last accepted remembered, and leaving the screen saves what is left before asking.
 */
import { useEffect, useRef } from 'react';
import { useAction } from '../../hooks/useAction';
import { useUnsavedChanges } from './UnsavedChanges';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function useAutosave<T>(value: T, stored: T, write: (value: T) => Promise<void>, failure: string) {
  const action = useAction();
  const saved = useRef(stored);
  useEffect(() => {
    saved.current = stored;
  }, [stored]);
  const latest = useRef({ value, write });
  latest.current = { value, write };
  const queue = useRef<Promise<unknown>>(Promise.resolve());

  const save = () => {
    queue.current = queue.current.then(async () => {
      const next = latest.current.value;
      if (same(next, saved.current)) return;
      if (await action.run(() => latest.current.write(next), failure)) saved.current = next;
    });
    return queue.current;
  };
  useUnsavedChanges(() => !same(latest.current.value, saved.current), save);
  return { save, busy: action.busy, error: action.error };
}
