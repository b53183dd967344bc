/** Short messages about what just happened ("Sponsor deleted."), shown above the screen. */
import { useCallback } from 'react';
import { atom, useSetAtom } from 'jotai';

export interface Notice {
  id: number;
  kind: 'success' | 'error';
  text: string;
}

export const noticesAtom = atom<Notice[]>([]);

const NOTICE_LIFETIME_MS = 6000;
let nextId = 1;

export function useNotify() {
  const setNotices = useSetAtom(noticesAtom);
  return useCallback(
    (kind: Notice['kind'], text: string) => {
      const id = nextId++;
      setNotices((list) => [...list, { id, kind, text }]);
      // Errors stay until dismissed: they may need reading twice.
      if (kind === 'success') {
        setTimeout(() => setNotices((list) => list.filter((n) => n.id !== id)), NOTICE_LIFETIME_MS);
      }
    },
    [setNotices],
  );
}
