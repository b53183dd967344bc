/**
 * Undo and redo of the builder's edits within the session. Each edit is recorded once it is
 * saved, with the calls that take it back and do it again; both go through the API like any
 * edit, so what is undone is saved at once. A question or page deleted and brought back gets a
 * new id: the history maps the old id to the new one, so earlier edits of it still apply.
 */
import { useCallback, useMemo, useRef, useState } from 'react';

export const HISTORY_LIMIT = 50;

export interface HistoryEntry {
  /** What the edit was, for the Undo and Redo buttons: 'question title', 'delete question 2'. */
  label: string;
  undo: () => Promise<void>;
  redo: () => Promise<void>;
}

export interface BuilderHistory {
  record(entry: HistoryEntry): void;
  /** The id a question has now (after a delete was undone, another than it had). */
  resolve(id: string): string;
  alias(from: string, to: string): void;
  /** As resolve and alias, for pages (whose ids are counted apart from questions'). */
  resolvePage(id: string): string;
  aliasPage(from: string, to: string): void;
  undo(): Promise<void>;
  redo(): Promise<void>;
  canUndo: string | null;
  canRedo: string | null;
  busy: boolean;
  /** Changes after each undo or redo: the editors read the survey afresh. */
  revision: number;
}

export function useBuilderHistory(afterChange: () => Promise<void>): BuilderHistory {
  const past = useRef<HistoryEntry[]>([]);
  const future = useRef<HistoryEntry[]>([]);
  const aliases = useRef(new Map<string, string>());
  const [revision, setRevision] = useState(0);
  const [busy, setBusy] = useState(false);
  const [, setTick] = useState(0);
  const changed = () => setTick((n) => n + 1);

  const resolve = useCallback((id: string) => {
    let current = id;
    for (let seen = 0; aliases.current.has(current) && seen < 1000; seen++) current = aliases.current.get(current)!;
    return current;
  }, []);
  const alias = useCallback((from: string, to: string) => {
    if (from !== to) aliases.current.set(from, to);
  }, []);
  const resolvePage = useCallback((id: string) => resolve(`page:${id}`).slice('page:'.length), [resolve]);
  const aliasPage = useCallback((from: string, to: string) => alias(`page:${from}`, `page:${to}`), [alias]);
  const record = useCallback((entry: HistoryEntry) => {
    past.current = [...past.current, entry].slice(-HISTORY_LIMIT);
    future.current = [];
    changed();
  }, []);
  const step = useCallback(
    async (from: { current: HistoryEntry[] }, to: { current: HistoryEntry[] }, run: (e: HistoryEntry) => Promise<void>) => {
      const entry = from.current.at(-1);
      if (!entry || busy) return;
      setBusy(true);
      try {
        await run(entry);
        from.current = from.current.slice(0, -1);
        to.current = [...to.current, entry];
      } finally {
        await afterChange().catch(() => undefined);
        setRevision((n) => n + 1);
        setBusy(false);
      }
    },
    [afterChange, busy],
  );
  const undo = useCallback(() => step(past, future, (e) => e.undo()), [step]);
  const redo = useCallback(() => step(future, past, (e) => e.redo()), [step]);

  return useMemo(
    () => ({
      record,
      resolve,
      alias,
      resolvePage,
      aliasPage,
      undo,
      redo,
      canUndo: past.current.at(-1)?.label ?? null,
      canRedo: future.current.at(-1)?.label ?? null,
      busy,
      revision,
    }),
    // past/future are refs: the tick and revision say when they changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [record, resolve, alias, resolvePage, aliasPage, undo, redo, busy, revision, past.current, future.current],
  );
}
