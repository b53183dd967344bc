/**
 * Asking ahead (admin/state/prefetch.ts through the session): a screen's GET takes the answer
 * its route asked for while the screen's code loaded, once, and asks again after a write, after
 * the answer grew old, or when asking ahead failed.
 */
import { describe, expect, it } from 'vitest';
import { createStore } from 'jotai';
import { createPrefetchCache, PREFETCH_TTL_MS } from '../../admin/state/prefetch';
import { createSession } from '../../admin/state/session';
import { API, fakeServer, json, listDocument, memoryTokens, type Handler } from './helpers';

function setup(handler: Handler) {
  const server = fakeServer(handler);
  const session = createSession({ baseUrl: API, tokens: memoryTokens({ access: 'a', refresh: 'r' }), store: createStore(), fetch: server.fetch });
  const gets = (path: string) => server.requests.filter((r) => r.method === 'GET' && r.path === path).length;
  return { server, session, gets };
}

let served = 0;
const sponsors: Handler = (request, url) => {
  if (url.pathname !== '/api/sponsors') return undefined;
  if (request.method === 'POST') return json({ data: { type: 'sponsors', id: '9', attributes: { name: 'New' } } }, 201);
  served += 1;
  return json(listDocument('sponsors', [{ id: served, name: `Answer ${served}` }]));
};

describe('asking ahead', () => {
  it("answers the screen's identical GET with what was asked ahead, once", async () => {
    const { session, gets } = setup(sponsors);
    const ahead = session.prefetchClient.list<{ name: string }>('sponsors', { page: 1, sort: 'name' });
    const [first, screen] = await Promise.all([ahead, session.client.list<{ name: string }>('sponsors', { page: 1, sort: 'name' })]);
    expect(gets('sponsors')).toBe(1);
    expect(screen.items.map((s) => s.name)).toEqual(first.items.map((s) => s.name));
    // Taken once: a reload asks the server.
    await session.client.list('sponsors', { page: 1, sort: 'name' });
    expect(gets('sponsors')).toBe(2);
    // Another query is another answer.
    await session.prefetchClient.list('sponsors', { page: 2, sort: 'name' });
    await session.client.list('sponsors', { page: 1, sort: 'name' });
    expect(gets('sponsors')).toBe(4);
  });

  it('asks once when the same page is asked ahead twice (a link pointed at, then clicked)', async () => {
    const { session, gets } = setup(sponsors);
    await Promise.all([session.prefetchClient.list('sponsors'), session.prefetchClient.list('sponsors')]);
    await session.client.list('sponsors');
    expect(gets('sponsors')).toBe(1);
  });

  it('asks again after a write, since the write may change the answer', async () => {
    const { session, gets } = setup(sponsors);
    await session.prefetchClient.list('sponsors');
    await session.client.create('sponsors', 'sponsors', { name: 'New' });
    await session.client.list('sponsors');
    expect(gets('sponsors')).toBe(2);
  });

  it('does not hand out an answer older than its time to live, nor a failed attempt', async () => {
    let now = 0;
    const cache = createPrefetchCache(() => now);
    let calls = 0;
    const network: typeof fetch = async () => {
      calls += 1;
      return new Response(`answer ${calls}`);
    };
    await cache.recording(network)('http://x/api/a');
    now = PREFETCH_TTL_MS + 1;
    expect(await (await cache.reusing(network)('http://x/api/a')).text()).toBe('answer 2');

    const failing: typeof fetch = () => Promise.reject(new TypeError('offline'));
    await expect(cache.recording(failing)('http://x/api/b')).rejects.toThrow('offline');
    expect(await (await cache.reusing(network)('http://x/api/b')).text()).toBe('answer 3');
  });
});

describe('asking ahead late', () => {
  it('does not ask for what the screen is already asking for', async () => {
    const { session, gets } = setup(sponsors);
    const screen = session.client.list('sponsors', { page: 3 });
    await expect(session.prefetchClient.list('sponsors', { page: 3 })).rejects.toThrow();
    await screen;
    expect(gets('sponsors')).toBe(1);
  });
});
