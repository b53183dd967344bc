import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

/** SPEC: smooth scroll to a hash is delayed 1500 ms, so the screen's data has rendered first. */
export const HASH_SCROLL_DELAY_MS = 1500;
/** How long after that a section still loading may appear and be scrolled to. */
const LATE_SECTION_MS = 10_000;

/**
 * A deep link such as /engagements/view/7#sites scrolls smoothly to the element with that id,
 * 1.5 s after the screen opens (or the hash changes); a section whose data arrives later is
 * scrolled to when it appears. Without motion when the user asks for less.
 */
export function useScrollToHash(): void {
  const { pathname, hash, key } = useLocation();
  useEffect(() => {
    let id: string;
    try {
      id = decodeURIComponent(hash.slice(1));
    } catch {
      return;
    }
    if (!id) return;
    const scroll = (target: HTMLElement) => {
      const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
      target.scrollIntoView({ behavior: reduced ? 'auto' : 'smooth', block: 'start' });
    };
    let observer: MutationObserver | undefined;
    let giveUp: ReturnType<typeof setTimeout> | undefined;
    const timer = setTimeout(() => {
      const target = document.getElementById(id);
      if (target) return scroll(target);
      observer = new MutationObserver(() => {
        const late = document.getElementById(id);
        if (!late) return;
        observer?.disconnect();
        scroll(late);
      });
      observer.observe(document.body, { childList: true, subtree: true });
      giveUp = setTimeout(() => observer?.disconnect(), LATE_SECTION_MS);
    }, HASH_SCROLL_DELAY_MS);
    return () => {
      clearTimeout(timer);
      clearTimeout(giveUp);
      observer?.disconnect();
    };
  }, [pathname, hash, key]);
}
