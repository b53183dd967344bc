import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStore } from 'jotai';
import { IDLE_SIGN_OUT_MESSAGE, authStatusAtom, currentUserAtom, signOutReasonAtom } from '../../admin/state/auth';
import { IDLE_LIMIT_MS, REFRESH_INTERVAL_MS, createSession } from '../../admin/state/session';
import { ACCESS_COOKIE, REFRESH_COOKIE, cookieTokenStore } from '../../admin/state/tokens';
import { API, fakeServer, json, makeUser, memoryTokens, type Handler } from './helpers';

const me = makeUser('Admin');

function setup(handler: Handler, tokens = memoryTokens({ access: 'old-access', refresh: 'old-refresh' })) {
  const store = createStore();
  const server = fakeServer(handler);
  const session = createSession({ baseUrl: API, tokens, store, fetch: server.fetch });
  return { store, server, session, tokens };
}

/** Signs jane in with a0/r0, answers each refresh with the next pair (a1/r1, a2/r2…), and signs out. */
function issuingServer() {
  const issued = { count: 0 };
  const handler: Handler = (_request, url) => {
    if (url.pathname === '/api/jwt/login') return json({ success: true, access: 'a0', refresh: 'r0', data: { user: me } });
    if (url.pathname === '/api/jwt/refresh') {
      issued.count += 1;
      return json({ success: true, access: `a${issued.count}`, refresh: `r${issued.count}` });
    }
    if (url.pathname === '/api/jwt/logout') return json({ success: true });
    return undefined;
  };
  return { handler, issued };
}

afterEach(() => vi.useRealTimers());

describe('session', () => {
  it('refreshes once on a 401 and replays the call with the new token', async () => {
    const handler: Handler = (request, url) => {
      if (url.pathname === '/api/jwt/refresh') return json({ success: true, access: 'new-access', refresh: 'new-refresh' });
      if (url.pathname === '/api/users/me') {
        return request.headers.get('Authorization') === 'Bearer new-access'
          ? json({ data: { type: 'users', id: '1', attributes: { ...me, id: undefined } } })
          : json({ errors: [{ status: '401', title: 'Unauthorized' }] }, 401);
      }
      return undefined;
    };
    const { store, server, session, tokens } = setup(handler);
    await session.restore();
    expect(store.get(authStatusAtom)).toBe('signedIn');
    expect(store.get(currentUserAtom)?.username).toBe('jane');
    expect(tokens.current).toEqual({ access: 'new-access', refresh: 'new-refresh' });
    expect(server.requests.map((r) => r.path)).toEqual(['users/me', 'jwt/refresh', 'users/me']);
    expect(server.requests[1]?.body).toEqual({ refresh_token: 'old-refresh' });
    session.dispose();
  });

  it('signs out when the refresh is refused', async () => {
    const handler: Handler = (_request, url) => {
      if (url.pathname === '/api/jwt/refresh') return json({ success: false }, 401);
      return json({ errors: [{ status: '401', title: 'Unauthorized' }] }, 401);
    };
    const { store, session, tokens } = setup(handler);
    store.set(authStatusAtom, 'signedIn');
    await expect(session.client.get('sponsors/1')).rejects.toMatchObject({ status: 401 });
    expect(store.get(authStatusAtom)).toBe('signedOut');
    expect(tokens.current).toBeNull();
  });

  it('refreshes the access token every five minutes while signed in', async () => {
    vi.useFakeTimers();
    const { handler, issued } = issuingServer();
    const { session, tokens, server } = setup(handler, memoryTokens(null));
    await session.signIn({ username: 'jane', password: 'pw', code: '', lang: 'en' });
    expect(tokens.current).toEqual({ access: 'a0', refresh: 'r0' });

    await vi.advanceTimersByTimeAsync(REFRESH_INTERVAL_MS - 1000);
    expect(issued.count).toBe(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(issued.count).toBe(1);
    expect(tokens.current).toEqual({ access: 'a1', refresh: 'r1' });
    await vi.advanceTimersByTimeAsync(REFRESH_INTERVAL_MS);
    expect(issued.count).toBe(2);

    await session.signOut();
    expect(server.requests.find((r) => r.path === 'jwt/logout')?.body).toEqual({ refresh_token: 'r2' });
    await vi.advanceTimersByTimeAsync(REFRESH_INTERVAL_MS * 3);
    expect(issued.count).toBe(2);
  });

  it('signs out a tab left untouched for 30 minutes, and keeps refreshing one in use', async () => {
    vi.useFakeTimers();
    const { handler, issued } = issuingServer();
    const store = createStore();
    const tokens = memoryTokens(null);
    const server = fakeServer(handler);
    let poke = () => {};
    const session = createSession({
      baseUrl: API,
      tokens,
      store,
      fetch: server.fetch,
      watchActivity: (onActivity) => {
        poke = onActivity;
        return () => {
          poke = () => {};
        };
      },
    });
    await session.signIn({ username: 'jane', password: 'pw', code: '', lang: 'en' });

    // Used every few minutes for an hour: refreshed all along.
    for (let minute = 0; minute < 60; minute += 5) {
      poke();
      await vi.advanceTimersByTimeAsync(REFRESH_INTERVAL_MS);
    }
    expect(issued.count).toBe(12);
    expect(store.get(authStatusAtom)).toBe('signedIn');

    // Then left alone: refreshed until the idle limit, then signed out with the reason kept.
    await vi.advanceTimersByTimeAsync(IDLE_LIMIT_MS);
    expect(store.get(authStatusAtom)).toBe('signedOut');
    expect(tokens.current).toBeNull();
    expect(store.get(signOutReasonAtom)).toBe(IDLE_SIGN_OUT_MESSAGE);
    expect(server.requests.some((r) => r.path === 'jwt/logout')).toBe(true);
    const refreshedWhileIdle = issued.count - 12;
    expect(refreshedWhileIdle).toBeLessThan(IDLE_LIMIT_MS / REFRESH_INTERVAL_MS);
  });

  it('keeps the tokens in the two auth cookies', () => {
    const store = cookieTokenStore(document);
    store.write({ access: 'acc.ess', refresh: 'ref=resh' });
    expect(document.cookie).toContain(`${ACCESS_COOKIE}=acc.ess`);
    expect(document.cookie).toContain(REFRESH_COOKIE);
    expect(store.read()).toEqual({ access: 'acc.ess', refresh: 'ref=resh' });
    store.clear();
    expect(store.read()).toBeNull();
  });
});
