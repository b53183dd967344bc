/**
 * Renders the real admin (route table, layouts, guards, screens) against a fake API server
 * given as a function from request to response.
 */
import { afterEach, expect, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createStore } from 'jotai';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import type { RoleName, User } from '@core/model/user';
import { buildRoutes } from '../../admin/router';
import { authStatusAtom, currentUserAtom } from '../../admin/state/auth';
import { AdminProviders } from '../../admin/providers';
import { createSession, type Session } from '../../admin/state/session';
import type { TokenStore, Tokens } from '../../admin/state/tokens';

export const API = 'http://admin.test/api';

/** Catches the files a screen saves (each an object URL made of a blob): answers the blobs, in order. */
export function captureSavedFiles(): Blob[] {
  const created: Blob[] = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    created.push(blob as Blob);
    return 'blob:csv';
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  return created;
}

export type Handler = (request: Request, url: URL) => Response | undefined | Promise<Response | undefined>;

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/vnd.api+json' } });
}

export const notFound = () => json({ errors: [{ status: '404', title: 'Not Found' }] }, 404);
/** The server's refusal: one JSON:API error, its status the response's. */
export const refusal = (status: number, title: string, detail: string, source: Record<string, string>) =>
  json({ errors: [{ status: String(status), title, detail, source }] }, status);

/** A recorded request: method, path below /api, query and parsed JSON body. */
export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  authorization: string | null;
}

/** JSON bodies parsed; anything else (a multipart upload) kept as text. */
function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The attributes a recorded JSON:API write (POST or PATCH) sent. */
export function sentAttributes(request: { body: unknown } | undefined): Record<string, unknown> {
  return (request?.body as { data: { attributes: Record<string, unknown> } }).data.attributes;
}

/** A clipboard (jsdom has none) whose writeText records what is copied. */
export function stubClipboard(writeText = vi.fn(async (_text: string): Promise<void> => undefined)) {
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  return writeText;
}

export function fakeServer(handler: Handler) {
  const requests: Recorded[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.clone().text();
    requests.push({
      method: request.method,
      path: url.pathname.replace(/^\/api\//, ''),
      query: url.searchParams,
      body: text ? parseBody(text) : null,
      authorization: request.headers.get('Authorization'),
    });
    return (await handler(request, url)) ?? notFound();
  };
  return { fetch, requests };
}

export function memoryTokens(initial: Tokens | null = null): TokenStore & { current: Tokens | null } {
  const store = {
    current: initial,
    read: () => store.current,
    write: (tokens: Tokens) => {
      store.current = tokens;
    },
    clear: () => {
      store.current = null;
    },
  };
  return store;
}

export function makeUser(role: RoleName | null, overrides: Partial<User> = {}): User {
  return {
    id: '1',
    username: 'jane',
    email: 'jane@example.com',
    isActive: true,
    secretVerified: false,
    locale: 'en',
    identityProvider: null,
    mustChangePassword: false,
    created: '2026-01-01T00:00:00.000Z',
    modified: '2026-01-01T00:00:00.000Z',
    roles: role ? [{ id: '1', name: role }] : [],
    sponsors: [],
    ...overrides,
  };
}

const sessions: Session[] = [];
afterEach(() => {
  cleanup();
  while (sessions.length > 0) sessions.pop()?.dispose();
});

export interface RenderOptions {
  path?: string;
  /** Signed in as this user; anonymous when null. */
  user?: User | null;
  handler?: Handler;
  /** Sets atoms before the first render. */
  prepare?: (store: ReturnType<typeof createStore>) => void;
}

export function renderAdmin({ path = '/', user = null, handler = () => undefined, prepare }: RenderOptions = {}) {
  const store = createStore();
  prepare?.(store);
  const server = fakeServer(handler);
  const tokens = memoryTokens(user ? { access: 'access-1', refresh: 'refresh-1' } : null);
  const leave = vi.fn<(url: string) => void>();
  const session = createSession({ baseUrl: API, tokens, store, fetch: server.fetch, leave });
  sessions.push(session);
  store.set(currentUserAtom, user);
  store.set(authStatusAtom, user ? 'signedIn' : 'signedOut');
  const router = createMemoryRouter(buildRoutes(), { initialEntries: [path] });
  const view = render(
    <AdminProviders session={session} store={store}>
      <RouterProvider router={router} />
    </AdminProviders>,
  );
  const location = () => router.state.location.pathname + router.state.location.search;
  return { ...view, router, location, store, session, server, tokens, leave };
}

/** A JSON:API list document. */
export function listDocument(type: string, rows: readonly object[], total = rows.length) {
  return {
    data: rows.map((row) => {
      const { id, ...attributes } = row as { id: unknown };
      return { type, id: String(id), attributes };
    }),
    meta: { total, page: 1, limit: 20 },
  };
}

export function resourceDocument(type: string, row: object) {
  const { id, ...attributes } = row as { id?: unknown };
  return { data: { type, id: String(id), attributes } };
}

/**
 * A removal behind the confirmation dialog: `ask` opens it, asking `question`; Cancel closes it
 * and `removed` stays empty. Asked again and answered `confirm`: `removed` holds `expected`, the
 * list loads once more (`lists` counts its loads) and `notice` shows.
 */
export async function expectRemovalConfirmed(removal: {
  ask: () => void;
  question: string;
  confirm: string;
  removed: string[];
  expected: string[];
  lists: () => number;
  notice: string;
}) {
  const before = removal.lists();
  removal.ask();
  let dialog = await screen.findByRole('dialog');
  expect(within(dialog).getByText(removal.question)).toBeTruthy();
  fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(removal.removed).toEqual([]);

  removal.ask();
  dialog = await screen.findByRole('dialog');
  fireEvent.click(within(dialog).getByRole('button', { name: removal.confirm }));
  await waitFor(() => expect(removal.removed).toEqual(removal.expected));
  await waitFor(() => expect(removal.lists()).toBe(before + 1));
  expect(await screen.findByText(removal.notice)).toBeTruthy();
}
