/**
 * Answers fetched ahead of a screen: when a route is opened (or its nav link pointed at), its
 * first requests go out at once, while the screen's code is still loading, and the screen's
 * identical GET then takes that answer instead of asking again. So no screen waits on its code
 * before asking for data.
 */

/** Long enough for a screen's code to arrive on a slow line, short enough that nothing stale is shown. */
export const PREFETCH_TTL_MS = 10_000;

export interface PrefetchCache {
  /** For the screens' client: a GET answered from a held answer (once), anything else forgetting them all. */
  reusing(next: typeof fetch): typeof fetch;
  /** For the prefetching client: a GET whose answer is held for the next identical GET. */
  recording(next: typeof fetch): typeof fetch;
}

interface Held {
  at: number;
  response: Promise<Response>;
}

export function createPrefetchCache(now: () => number = Date.now, ttlMs = PREFETCH_TTL_MS): PrefetchCache {
  const held = new Map<string, Held>();
  // The screens' GETs in flight: asking ahead for one of them would ask twice.
  const asking = new Map<string, number>();
  // The same URL asked for as JSON:API or as CSV is two answers.
  const keyOf = (request: Request) => `${request.headers.get('Accept') ?? ''} ${request.url}`;
  const isGet = (input: RequestInfo | URL, init?: RequestInit) => (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase() === 'GET';
  const take = (key: string): Promise<Response> | undefined => {
    const entry = held.get(key);
    held.delete(key);
    return entry && now() - entry.at <= ttlMs ? entry.response : undefined;
  };

  return {
    reusing: (next) => (input, init) => {
      if (!isGet(input, init)) {
        // A write may change what was fetched ahead: ask again after it.
        held.clear();
        return next(input, init);
      }
      const request = new Request(input, init);
      const key = keyOf(request);
      const taken = take(key);
      if (taken) return taken;
      asking.set(key, (asking.get(key) ?? 0) + 1);
      const response = next(request);
      const done = () => {
        const left = (asking.get(key) ?? 1) - 1;
        if (left > 0) asking.set(key, left);
        else asking.delete(key);
      };
      response.then(done, done);
      return response;
    },
    recording: (next) => (input, init) => {
      if (!isGet(input, init)) return next(input, init);
      const request = new Request(input, init);
      const key = keyOf(request);
      if (asking.has(key)) return Promise.reject(new DOMException('The screen is asking for this already.', 'AbortError'));
      const existing = held.get(key);
      if (existing && now() - existing.at <= ttlMs) return existing.response.then((r) => r.clone());
      for (const [k, entry] of held) if (now() - entry.at > ttlMs) held.delete(k);
      const response = next(request);
      const entry = { at: now(), response };
      held.set(key, entry);
      // A failed attempt is not kept: the screen asks for itself.
      response.catch(() => held.get(key) === entry && held.delete(key));
      // The held answer stays unread for the screen; the prefetcher reads a copy.
      return response.then((r) => r.clone());
    },
  };
}
