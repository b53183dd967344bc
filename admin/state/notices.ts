/**
 * Short messages about what just happened ("Sponsor deleted."), shown as toasts over the screen
 * (they never move it). A toast may offer one action, e.g. Undo after a deactivation.
 */
import { useCallback } from 'react';
import { atom, useSetAtom } from 'jotai';

export interface NoticeAction {
  label: string;
  run: () => void;
}

export interface Notice {
  id: number;
  kind: 'success' | 'error';
  text: string;
  action?: NoticeAction;
}

export const noticesAtom = atom<Notice[]>([]);

const NOTICE_LIFETIME_MS = 6000;
/** Long enough to read the toast and reach its button. */
export const ACTION_NOTICE_LIFETIME_MS = 12_000;
let nextId = 1;

export function useNotify() {
  const setNotices = useSetAtom(noticesAtom);
  return useCallback(
    (kind: Notice['kind'], text: string, options: { action?: NoticeAction } = {}) => {
      const id = nextId++;
      const dismiss = () => setNotices((list) => list.filter((n) => n.id !== id));
      const action = options.action && {
        label: options.action.label,
        run: () => {
          dismiss();
          options.action?.run();
        },
      };
      setNotices((list) => [...list, { id, kind, text, action }]);
      // Errors stay until dismissed: they may need reading twice.
      if (kind === 'success') setTimeout(dismiss, action ? ACTION_NOTICE_LIFETIME_MS : NOTICE_LIFETIME_MS);
    },
    [setNotices],
  );
}
