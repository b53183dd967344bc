/**
 * Which columns of a wide list a user has hidden, remembered in this browser per user and list
 * (localStorage), so the list looks the same after a reload or the next sign-in.
 */
import { useCallback, useState } from 'react';
import { useAtomValue } from 'jotai';
import { currentUserAtom } from '../../state/auth';

const storageKey = (userId: string, listKey: string) => `trial-recruit:hidden-columns:${userId}:${listKey}`;

function read(key: string | null): string[] {
  if (!key) return [];
  try {
    const value: unknown = JSON.parse(window.localStorage.getItem(key) ?? '[]');
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    // Storage unavailable (private mode) or a value we did not write: show every column.
    return [];
  }
}

export function useHiddenColumns(listKey: string | undefined) {
  const user = useAtomValue(currentUserAtom);
  const key = listKey && user ? storageKey(user.id, listKey) : null;
  const [state, setState] = useState(() => ({ key, hidden: read(key) }));
  // Another user or list in the same component: read theirs.
  const hidden = state.key === key ? state.hidden : read(key);
  if (state.key !== key) setState({ key, hidden });

  const setHidden = useCallback(
    (next: string[]) => {
      setState({ key, hidden: next });
      if (!key) return;
      try {
        window.localStorage.setItem(key, JSON.stringify(next));
      } catch {
        // Not remembered, still applied.
      }
    },
    [key],
  );
  return { hidden: new Set(hidden), setHidden };
}
