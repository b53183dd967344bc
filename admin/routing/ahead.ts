/**
 * What a route asks the API for before its screen's code has arrived (state/prefetch.ts holds
 * the answers for the screen's identical requests). A route's ahead function makes the very
 * calls its screen makes first, with the same arguments, through the client it is given.
 */
import { createContext } from 'react';
import type { Params } from 'react-router-dom';
import type { ApiClient } from '@core/api/client';
import type { User } from '@core/model/user';

export interface AheadContext {
  client: ApiClient;
  /** Who asks: a screen may ask for some lists only for some roles, and its route the same. */
  user: User | null;
  params: Params;
  search: URLSearchParams;
}

export type Ahead = (context: AheadContext) => void;

export interface LazyAhead {
  /** Runs the route's calls, at once when their code is in memory, else as soon as it is. */
  run(context: AheadContext): void;
  preload(): void;
}

export function lazyAhead(load: () => Promise<Ahead>): LazyAhead {
  let loaded: Ahead | null = null;
  let loading: Promise<Ahead> | null = null;
  const once = () => {
    loading ??= load().then(
      (ahead) => (loaded = ahead),
      (error: unknown) => {
        loading = null;
        throw error;
      },
    );
    return loading;
  };
  return {
    run: (context) => {
      if (loaded) loaded(context);
      // Without its code the route merely waits for its screen, as before.
      else
        once().then(
          (ahead) => ahead(context),
          () => undefined,
        );
    },
    preload: () => void once().catch(() => undefined),
  };
}

/** A call made ahead fails quietly: the screen makes it again and shows its own error. */
export const quietly = (...calls: Promise<unknown>[]): void => {
  for (const call of calls) call.catch(() => undefined);
};

/** Starts the screen at a location ahead of showing it (router.tsx's startScreen, bound by the entry); nothing in tests. */
export const StartScreenContext = createContext<(location: { pathname: string; search: string }) => void>(() => undefined);
