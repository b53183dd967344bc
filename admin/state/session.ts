/**
 * The signed-in session: the API client every screen uses, sign-in and sign-out, restoring a
 * session from the cookies on load, and keeping the access token fresh (every five minutes,
 * and once more when a call is refused with 401). Its state is published in jotai atoms.
 */
import type { createStore } from 'jotai';
import { ApiError, createApiClient, type ApiClient } from '@core/api/client';
import { authApi } from '@core/api/auth';
import type { LoginInput, LoginResult, User } from '@core/model/user';
import { DEFAULT_LANGUAGE } from '@core/i18n';
import { IDLE_SIGN_OUT_MESSAGE, authStatusAtom, currentUserAtom, signOutReasonAtom } from './auth';
import { createAuthFetch } from './authFetch';
import { createPrefetchCache } from './prefetch';
import type { TokenStore, Tokens } from './tokens';

export type JotaiStore = ReturnType<typeof createStore>;

/** SPEC section 9: "token refresh every 5"; the access token lives 15 minutes. */
export const REFRESH_INTERVAL_MS = 5 * 60_000;
/** The server ends a session unused for 30 minutes; an open but untouched tab must not keep it alive. */
export const IDLE_LIMIT_MS = 30 * 60_000;

const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;

/** Calls `onActivity` whenever the user does something in the page; answers how to stop. */
export type ActivityWatcher = (onActivity: () => void) => () => void;

const watchWindow: ActivityWatcher = (onActivity) => {
  for (const name of ACTIVITY_EVENTS) window.addEventListener(name, onActivity, { passive: true, capture: true });
  return () => {
    for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, onActivity, { capture: true });
  };
};

export interface SessionOptions {
  /** Origin plus `/api`. */
  baseUrl: string;
  tokens: TokenStore;
  store: JotaiStore;
  fetch?: typeof fetch;
  language?: string;
  refreshIntervalMs?: number;
  idleLimitMs?: number;
  watchActivity?: ActivityWatcher;
  /** Leaves the admin for a server page (single sign-on); a full page navigation by default. */
  leave?: (url: string) => void;
}

export interface Session {
  client: ApiClient;
  /** Asks ahead for what a screen is about to ask `client` for (state/prefetch.ts). */
  prefetchClient: ApiClient;
  /** Confirms the session found in the cookies, if any, by loading the current user. */
  restore(): Promise<void>;
  /** Never throws for refused credentials: the result's `success` and `data.message` say why. */
  signIn(input: LoginInput, authService?: string): Promise<LoginResult>;
  /** The single sign-on services the server offers (none when it cannot say). */
  ssoServices(): Promise<readonly string[]>;
  /** Resolves to the new access token, or null when the server ended the session. */
  refresh(): Promise<string | null>;
  /** Revokes the refresh token and forgets the session. */
  signOut(): Promise<void>;
  leave(url: string): void;
  /** Continues the session with tokens a call answered (a password change) and the user it changed. */
  adopt(tokens: Tokens, user: User): void;
  /** Shows a change to the signed-in user (two-factor turned on, say). */
  updateUser(user: User): void;
  dispose(): void;
}

const looksLikeUser = (value: unknown): value is User => typeof value === 'object' && value !== null && Array.isArray((value as { roles?: unknown }).roles);

export function createSession(options: SessionOptions): Session {
  const { tokens, store } = options;
  const interval = options.refreshIntervalMs ?? REFRESH_INTERVAL_MS;
  let timer: ReturnType<typeof setInterval> | null = null;
  let refreshing: Promise<string | null> | null = null;
  let signingOut: Promise<void> | null = null;
  const idleLimit = options.idleLimitMs ?? IDLE_LIMIT_MS;
  let lastActivity = Date.now();
  let stopWatching: (() => void) | null = null;

  // Looked up on each call so that a test's stubbed global fetch is honoured.
  const baseFetch: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  const authFetch = createAuthFetch({ fetch: baseFetch, refresh: () => refresh(), onExpired: () => end() });
  const ahead = createPrefetchCache();
  const clientOptions = { baseUrl: options.baseUrl, language: options.language ?? DEFAULT_LANGUAGE, getToken: () => tokens.read()?.access };
  const client = createApiClient({ ...clientOptions, fetch: ahead.reusing(authFetch) });
  const prefetchClient = createApiClient({ ...clientOptions, fetch: ahead.recording(authFetch) });
  const auth = authApi(client);

  const stopTimer = () => {
    if (timer !== null) clearInterval(timer);
    timer = null;
    stopWatching?.();
    stopWatching = null;
  };

  const startTimer = () => {
    stopTimer();
    lastActivity = Date.now();
    stopWatching = (options.watchActivity ?? watchWindow)(() => {
      lastActivity = Date.now();
    });
    timer = setInterval(() => {
      if (Date.now() - lastActivity >= idleLimit) {
        void signOut().then(() => store.set(signOutReasonAtom, IDLE_SIGN_OUT_MESSAGE));
        return;
      }
      refresh().then(
        (access) => {
          if (access === null) end();
        },
        // Offline for a moment: the next tick, or the next 401, tries again.
        () => undefined,
      );
    }, interval);
  };

  function begin(user: User) {
    store.set(currentUserAtom, user);
    store.set(authStatusAtom, 'signedIn');
    startTimer();
  }

  function end() {
    stopTimer();
    tokens.clear();
    store.set(currentUserAtom, null);
    store.set(authStatusAtom, 'signedOut');
  }

  async function renew(): Promise<string | null> {
    const current = tokens.read();
    if (!current) return null;
    const result = await auth.refresh(current.refresh);
    if (!result.success || !result.access || !result.refresh) return null;
    tokens.write({ access: result.access, refresh: result.refresh });
    return result.access;
  }

  // Concurrent 401s share one refresh: refresh tokens are single-use on the server.
  function refresh(): Promise<string | null> {
    if (!refreshing) refreshing = renew().finally(() => (refreshing = null));
    return refreshing;
  }

  function signOut(): Promise<void> {
    if (!signingOut) {
      signingOut = (async () => {
        stopTimer();
        const current = tokens.read();
        // Revoking is best effort: the cookies go either way.
        if (current) await auth.logout(current.refresh).catch(() => undefined);
        end();
      })().finally(() => (signingOut = null));
    }
    return signingOut;
  }

  return {
    client,
    prefetchClient,

    async restore() {
      if (!tokens.read()) {
        end();
        return;
      }
      store.set(authStatusAtom, 'checking');
      try {
        begin(await auth.me());
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) end();
        else {
          // The server is unreachable: keep the cookies so a reload can restore the session later.
          store.set(currentUserAtom, null);
          store.set(authStatusAtom, 'signedOut');
        }
      }
    },

    async signIn(input, authService) {
      const result = await auth.login(input, authService);
      if (!result.success) return result;
      if (!result.access || !result.refresh) {
        return { success: false, data: { message: 'The server did not start a session. Try again.' } };
      }
      tokens.write({ access: result.access, refresh: result.refresh });
      const user = result.data?.user;
      begin(looksLikeUser(user) ? user : await auth.me());
      return result;
    },

    ssoServices: () => auth.ssoServices(),

    refresh,

    signOut,

    leave(url) {
      (options.leave ?? ((target: string) => window.location.assign(target)))(url);
    },

    adopt(next, user) {
      tokens.write(next);
      begin(user);
    },

    updateUser(user) {
      if (store.get(authStatusAtom) === 'signedIn') store.set(currentUserAtom, user);
    },

    dispose: stopTimer,
  };
}
