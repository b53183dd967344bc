/**
 * Where a widget keeps its participant's place between page loads: the runner's snapshot
 * (core/survey/runner.ts RunnerSnapshot: the submission, its token, the pages visited, the step,
 * the site chosen) in sessionStorage, so it lives as long as the tab and no longer. No answer
 * value, ZIP or contact detail is ever part of it: the partner's origin owns this storage and
 * every script of its page reads it, so what is typed stays in the runner's memory.
 *
 * Once the run reaches its outcome, its snapshot (then only the submission, its token, the
 * survey's identity and the language) moves to localStorage: a later visit to the channel in any
 * tab finds it, and the server says whether the channel's retake window still holds. It is read
 * before the tab's own: after an outcome, the channel's run in this browser is that one.
 *
 * One key per mount: `trial-widget:{channel}:{screener}`, or `…:{mountKey}` when the mount names
 * itself (the embed passes its mount index for every widget of a run but the first). Two widgets
 * mounted at once never share one: a key already held gets `:2`, `:3` (in mount order). A key is
 * held while its widget is mounted and freed when it is unmounted, so a widget mounted again
 * (an SPA's route change) finds its run.
 */
import type { RunnerSnapshot } from '@core/survey/runner';
import { jsonText } from '@core/participant/jsonText';

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
  /** The one storage for both (tests); null for none. Default: the browser's, when it allows them. */
  storage?: Storage | null;
}

/**
 * What storage holds was written by another version of the widget, or by the page itself: a
 * run is resumed only from what has a snapshot's shape (the runner checks the rest with the server).
 */
const isSnapshot = (s: unknown): s is RunnerSnapshot =>
  typeof s === 'object' &&
  s !== null &&
  Array.isArray((s as RunnerSnapshot).history) &&
  ['identity', 'submissionId', 'credentials', 'step'].every((k) => typeof (s as Record<string, unknown>)[k] === 'string');

/** The keys held by the widgets mounted on this page. */
const held: Record<string, true> = {};

export function runStore(options: RunStoreOptions): RunStore {
  const base = `trial-widget:${options.mediaChannelId}:${options.screenerId}${options.mountKey ? `:${options.mountKey}` : ''}`;
  let key = base;
  for (let n = 2; held[key]; n++) key = `${base}:${n}`;
  held[key] = true;
  let session = options.storage;
  let local = session;
  if (session === undefined) {
    try {
      session = sessionStorage;
      local = localStorage;
    } catch {
      // Storage blocked (third-party cookies off, sandboxed frame) or none: no resume, the run still works.
    }
  }
  return {
    key,
    read() {
      try {
        const raw = local?.getItem(key) ?? session?.getItem(key);
        const s: unknown = raw ? JSON.parse(raw) : null;
        return isSnapshot(s) ? s : null;
      } catch {
        return null;
      }
    },
    write(snapshot) {
      try {
        // The tab's last place goes with the outcome too.
        session?.removeItem(key);
        if (snapshot) (snapshot.step === 'finished' ? local : session)?.setItem(key, jsonText(snapshot));
        else local?.removeItem(key);
      } catch {
        // A full or blocked storage only costs the resume.
      }
    },
    release() {
      delete held[key];
    },
  };
}
