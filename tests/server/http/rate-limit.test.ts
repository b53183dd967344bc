import { afterEach, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { like } from 'drizzle-orm';
import type { AppEnv } from '../../../server/context';
import { rateLimits } from '../../../server/db/schema';
import { hit, hitAll, pruneRateLimits, rateLimit } from '../../../server/http/rateLimit';
import { ApiProblem } from '../../../server/http/errors';
import { useHarness, type Harness } from '../harness';

let h: Harness;
useHarness((harness) => {
  h = harness;
});
afterEach(() => h.clock.release());

describe('rate limits in the database', () => {
  it('counts hits per key and window', async () => {
    const now = Date.UTC(2026, 10, 22, 10, 0, 5);
    expect((await hit(h.db, 'k:a', 60, now)).count).toBe(1);
    expect((await hit(h.db, 'k:a', 60, now + 1000)).count).toBe(2);
    expect((await hit(h.db, 'k:b', 60, now)).count).toBe(1);
    const next = await hit(h.db, 'k:a', 60, now + 60_000);
    expect(next.count).toBe(1);
    expect(next.resetAt.toISOString()).toBe('2026-11-22T10:02:00.000Z');
  });

  it('counts several keys in one statement, and calls at once sharing keys neither deadlock nor lose a hit', async () => {
    const now = Date.UTC(2026, 10, 22, 12, 0, 5);
    const first = await hitAll(h.db, ['many:channel', 'many:address-1', 'many:channel'], 60, now);
    expect(Object.fromEntries(first.counts)).toEqual({ 'many:channel': 1, 'many:address-1': 1 });
    expect(first.resetAt.toISOString()).toBe('2026-11-22T12:01:00.000Z');
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        hitAll(h.db, i % 2 ? ['many:channel', `many:address-${i % 3}`] : [`many:address-${i % 3}`, 'many:channel'], 60, now),
      ),
    );
    const after = await hitAll(h.db, ['many:channel'], 60, now);
    expect(after.counts.get('many:channel')).toBe(22);
    // Keys are data (an address from a header): quotes, backslashes, commas and braces stay as sent.
    const odd = 'odd "key" \\ with, comma {x}';
    expect((await hitAll(h.db, [odd], 60, now)).counts.get(odd)).toBe(1);
    expect((await h.db.select().from(rateLimits).where(like(rateLimits.key, 'odd %'))).map((r) => r.key)).toEqual([odd]);
  });

  it('answers 429 with Retry-After until the window ends, per key', async () => {
    h.clock.set('2026-11-22T14:00:50Z');
    const app = new Hono<AppEnv>();
    app.use('*', rateLimit(h.db, [{ key: (c) => `t:${c.req.header('x-client') ?? 'none'}`, limit: 2, windowSeconds: 60 }], h.clock));
    app.get('/', (c) => c.text('ok'));
    app.onError((e, c) => (e instanceof ApiProblem ? c.json({ errors: e.errors }, e.status as 429) : c.text('boom', 500)));
    const call = (client: string) => app.request('/', { headers: { 'x-client': client } });
    expect((await call('one')).status).toBe(200);
    expect((await call('one')).status).toBe(200);
    const limited = await call('one');
    expect(limited.status).toBe(429);
    // The window began at 14:00:00 and ends at 14:01:00.
    expect(limited.headers.get('retry-after')).toBe('10');
    expect(((await limited.json()) as { errors: { detail: string }[] }).errors[0]!.detail).toBe('Too many requests. Please wait 10 seconds and try again.');
    expect((await call('two')).status).toBe(200);
    h.clock.advance(9_000);
    expect((await call('one')).headers.get('retry-after')).toBe('1');
    h.clock.advance(1_000);
    expect((await call('one')).status).toBe(200);
  });

  it('prunes windows older than a day before the instant it is given, and keeps the rest', async () => {
    const now = Date.UTC(2026, 10, 22, 12, 0, 0);
    await hit(h.db, 'prune:three-days', 60, now - 3 * 24 * 3600 * 1000);
    await hit(h.db, 'prune:a-day-and-a-minute', 60, now - (24 * 3600 + 60) * 1000);
    await hit(h.db, 'prune:an-hour', 60, now - 3600 * 1000);
    await hit(h.db, 'prune:now', 60, now);
    await pruneRateLimits(h.db, 24 * 3600, now);
    const left = await h.db.select({ key: rateLimits.key }).from(rateLimits).where(like(rateLimits.key, 'prune:%'));
    expect(left.map((r) => r.key).sort()).toEqual(['prune:an-hour', 'prune:now']);
  });
});
