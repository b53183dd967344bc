/**
 * Where a widget keeps its participant's place between page loads: the runner's snapshot
 * (core/oform/runner.ts RunnerSnapshot: the submission, its token, the pages, the step, the
 * answers typed on the page on screen and not sent yet, the ZIP, the site chosen) in
 * sessionStorage, so it lives as long as the tab and no longer. Contact details are never part
 * of it: they stay in the runner's memory.
 *
 * One key per mount: `trial-widget:{channel}:{screener}`, or `…:{mountKey}` when the mount names
 * itself (the embed passes its mount index for every widget of a run but the first). Two widgets
 * mounted at once never share one: a key already held gets `:2`, `:3` (in mount order). A key is
 * held while its widget is mounted and freed when it is unmounted, so a widget mounted again
 * (an SPA's route change) finds its run.
 */
import type { RunnerSnapshot } from '../core/oform/runner';

export interface RunStore {
  /** The key this mount holds (for tests and diagnosis). */
  key: string;
  read(): RunnerSnapshot | null;
  /** Keeps `snapshot`; null forgets the run. */
  write(snapshot: RunnerSnapshot | null): void;
  /** Frees the key (the widget is unmounted). */
  release(): void;
}

export interface RunStoreOptions {
  mediaChannelId: string;
  screenerId: string;
  /** Names this mount among the page's widgets of the same channel and screener. */
  mountKey?: string;
  /** The storage to use (tests); null for none. Default: sessionStorage when the browser allows it. */
  storage?: Storage | null;
}

/** The keys held by the widgets mounted on this page. */
const held: Record<string, true> = {};

function sessionStore(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    // Storage blocked (third-party cookies off, sandboxed frame): no resume, the run still works.
    return null;
  }
}

export function runStore(options: RunStoreOptions): RunStore {
  const base = `trial-widget:${options.mediaChannelId}:${options.screenerId}${options.mountKey ? `:${options.mountKey}` : ''}`;
  let key = base;
  for (let n = 2; held[key]; n++) key = `${base}:${n}`;
  held[key] = true;
  const store = options.storage === undefined ? sessionStore() : options.storage;
  return {
    key,
    read() {
      try {
        const raw = store?.getItem(key);
        const s = raw ? (JSON.parse(raw) as RunnerSnapshot) : null;
        return s && typeof s.identity === 'string' && Array.isArray(s.history) && typeof s.step === 'string' ? s : null;
      } catch {
        return null;
      }
    },
    write(snapshot) {
      try {
        if (snapshot) store?.setItem(key, JSON.stringify(snapshot));
        else store?.removeItem(key);
      } catch {
        // A full or blocked storage only costs the resume.
      }
    },
    release() {
      delete held[key];
    },
  };
}
