import { type RefObject, useEffect } from 'react';

/** While `open`, Escape or a press outside `root` closes it (a menu or popover): `setOpen(false)`. */
export function useDismiss(open: boolean, setOpen: (open: boolean) => void, root: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    if (!open) return;
    const close = (event: Event) => {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('pointerdown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open, setOpen, root]);
}
