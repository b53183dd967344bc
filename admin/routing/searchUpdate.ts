import { useCallback, useEffect, useRef } from 'react';
import { type NavigateOptions, useSearchParams } from 'react-router-dom';

/** A change to the query string, from what it is about to be: the change's own copy, free to change and return. */
export type SearchChange = (current: URLSearchParams) => URLSearchParams;

/**
 * The location's query string, and a way to change it that builds on the changes already asked
 * for. react-router's setSearchParams hands its updater the query string of the render it came
 * from, so two changes made before the router renders the first (two filters chosen quickly, on
 * a busy machine) would start from the same string and the second would drop the first. The
 * changes asked for and not yet rendered are kept here, and the next one starts from the last.
 */
export function useSearchUpdate(): [URLSearchParams, (change: SearchChange, options?: NavigateOptions) => void] {
  const [params, setParams] = useSearchParams();
  const shown = params.toString();
  const rendered = useRef(shown);
  rendered.current = shown;
  /** The query string rendered when the first pending change was asked for, and each asked for since, in order. */
  const pending = useRef<{ from: string; asked: string[] } | null>(null);
  // The last one asked for is on screen: nothing is on the way any more.
  useEffect(() => {
    if (pending.current?.asked.at(-1) === shown) pending.current = null;
  }, [shown]);
  const change = useCallback(
    (next: SearchChange, options?: NavigateOptions) => {
      const now = rendered.current;
      const p = pending.current;
      // Still on the way while the location shows where they started or one of them; elsewhere
      // (Back, a link), the location moved on its own and the next change starts from there.
      const onTheWay = p !== null && (now === p.from || p.asked.includes(now));
      const search = next(new URLSearchParams(onTheWay ? p.asked.at(-1) : now)).toString();
      pending.current = onTheWay ? { from: p.from, asked: [...p.asked, search] } : { from: now, asked: [search] };
      setParams(new URLSearchParams(search), options);
    },
    [setParams],
  );
  return [params, change];
}
