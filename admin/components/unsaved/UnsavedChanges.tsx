/**
 * Unsaved work is never lost silently. Forms and builder editors report whether they hold
 * changes the server does not have (`useUnsavedChanges`); while any does, leaving the screen
 * (a link, Back, the address bar within the admin) asks first, and reloading or closing the tab
 * gets the browser's own prompt. An editor that saves by itself (the builders' autosave) may
 * give `settle`, which is awaited before asking: a change that saves on the way out costs no
 * question.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useBlocker } from 'react-router-dom';
import { useConfirm } from '../confirm/ConfirmProvider';

export interface UnsavedSource {
  /** True while this editor holds changes the server does not have. */
  isDirty: () => boolean;
  /** Saves what can be saved on the way out; resolves when done (or failed). */
  settle?: () => Promise<unknown>;
}

interface Registry {
  add(source: UnsavedSource): () => void;
}

const RegistryContext = createContext<Registry | null>(null);

export const LEAVE_TITLE = 'Leave without saving?';
export const LEAVE_MESSAGE = 'This page has changes that are not saved. If you leave now, they are lost.';
/** How long leaving waits for editors that save by themselves. */
const SETTLE_TIMEOUT_MS = 5000;

export function UnsavedChangesProvider({ children }: { children: ReactNode }) {
  const sources = useRef(new Set<UnsavedSource>());
  const confirm = useConfirm();
  const anyDirty = useCallback(() => [...sources.current].some((s) => s.isDirty()), []);

  const blocker = useBlocker(({ currentLocation, nextLocation }) => currentLocation.pathname !== nextLocation.pathname && anyDirty());
  const blockerRef = useRef(blocker);
  blockerRef.current = blocker;

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    let current = true;
    void (async () => {
      const settling = [...sources.current].filter((s) => s.isDirty()).map((s) => s.settle?.());
      if (settling.length > 0) {
        await Promise.race([Promise.allSettled(settling), new Promise((resolve) => setTimeout(resolve, SETTLE_TIMEOUT_MS))]);
      }
      if (!current) return;
      const leave = !anyDirty() || (await confirm({ title: LEAVE_TITLE, message: LEAVE_MESSAGE, confirmLabel: 'Leave', cancelLabel: 'Stay', danger: true }));
      if (!current) return;
      if (leave) blockerRef.current.proceed?.();
      else blockerRef.current.reset?.();
    })();
    return () => {
      current = false;
    };
  }, [blocker.state, anyDirty, confirm]);

  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (!anyDirty()) return;
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [anyDirty]);

  const registry = useMemo<Registry>(
    () => ({
      add(source) {
        sources.current.add(source);
        return () => sources.current.delete(source);
      },
    }),
    [],
  );
  return <RegistryContext.Provider value={registry}>{children}</RegistryContext.Provider>;
}

/**
 * Reports this component's unsaved changes while it is mounted. `isDirty` is read when someone
 * tries to leave, so it should look at refs or the latest render's values, not a stale closure
 * (it is kept up to date on every render).
 */
export function useUnsavedChanges(isDirty: () => boolean, settle?: () => Promise<unknown>): void {
  const registry = useContext(RegistryContext);
  const latest = useRef({ isDirty, settle });
  latest.current = { isDirty, settle };
  useEffect(() => {
    if (!registry) return;
    return registry.add({
      isDirty: () => latest.current.isDirty(),
      settle: () => latest.current.settle?.() ?? Promise.resolve(),
    });
  }, [registry]);
}

/** Unsaved while `value` differs from `stored`, what the server holds in the same shape (editors with a Save button). */
export function useUnsavedValue(value: unknown, stored: unknown): void {
  useUnsavedChanges(() => JSON.stringify(value) !== JSON.stringify(stored));
}
