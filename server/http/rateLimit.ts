/**
 * Fixed-window rate limits with the counters in the database (table rate_limits), so every
 * server process counts the same requests. Over the limit: 429 with Retry-After.
 */
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { AppEnv, Clock } from '../context';
import type { Db } from '../db/open';
import { rowsOf, textArray } from '../db/rows';
import { rateLimits } from '../db/schema';
import { ApiProblem } from './errors';

export interface RateLimitRule {
  /** Names what is counted (e.g. `submissions:ip:1.2.3.4`); null skips counting. */
  key: (c: Context<AppEnv>) => string | null;
  limit: number;
  windowSeconds: number;
}

/** The fixed window `now` falls in: when it started and when the next starts. */
export function windowOf(windowSeconds: number, now: number): { windowStart: Date; resetAt: Date } {
  const windowMs = windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now / windowMs) * windowMs);
  return { windowStart, resetAt: new Date(windowStart.getTime() + windowMs) };
}

/** Counts one hit for `key` in the current window and answers how many it holds now. */
export async function hit(db: Db, key: string, windowSeconds: number, now: number): Promise<{ count: number; resetAt: Date }> {
  const { windowStart, resetAt } = windowOf(windowSeconds, now);
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart, count: 1 })
    .onConflictDoUpdate({ target: [rateLimits.key, rateLimits.windowStart], set: { count: sql`${rateLimits.count} + 1` } })
    .returning({ count: rateLimits.count });
  return { count: row?.count ?? 1, resetAt };
}

/**
 * The statement counting one hit for each key of `keys` (a text[] literal) in the window that
 * starts at `windowStart`, answering each key's count. Rows are taken in key order, so two calls
 * sharing keys cannot deadlock. Alone (hitAll) or inside another statement (a page answer's save).
 */
export const hitsStatement = (keys: string | Placeholder | SQL, windowStart: string | Placeholder): SQL =>
  countedHitsStatement(sql`(select k as key, 1 as hits from unnest(${keys}::text[]) as k) as h`, windowStart);

/**
 * hitsStatement for several calls at once: `source` is a FROM item with columns `key` (each key
 * once) and `hits` (how many calls count against it); each key's count after them is answered.
 */
export const countedHitsStatement = (source: SQL, windowStart: string | Placeholder): SQL => sql`
  insert into ${rateLimits} (key, window_start, count)
  select h.key, ${windowStart}::timestamptz, h.hits from ${source} order by h.key
  on conflict (key, window_start) do update set count = ${rateLimits}.count + excluded.count
  returning key, count`;

/** Counts one hit for each of `keys` in the current window in one statement (a participant call counts against its address and its channel). */
export async function hitAll(db: Db, keys: readonly string[], windowSeconds: number, now: number): Promise<{ counts: Map<string, number>; resetAt: Date }> {
  const { windowStart, resetAt } = windowOf(windowSeconds, now);
  if (keys.length === 0) return { counts: new Map(), resetAt };
  const rows = rowsOf(await db.execute(hitsStatement(textArray([...new Set(keys)]), windowStart.toISOString())));
  return { counts: new Map(rows.map((r) => [String(r.key), Number(r.count)])), resetAt };
}

export const tooManyRequests = (retryAfterSeconds: number) =>
  new ApiProblem(429, [
    {
      status: '429',
      title: 'Too Many Requests',
      detail: `Too many requests. Please wait ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'} and try again.`,
      meta: { retryAfter: retryAfterSeconds },
    },
  ]);

/** Counts each request in the window the clock's instant falls in. */
export const rateLimit = (db: Db, rules: readonly RateLimitRule[], clock: Clock) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const now = clock().getTime();
    for (const rule of rules) {
      const key = rule.key(c);
      if (key === null) continue;
      const { count, resetAt } = await hit(db, key, rule.windowSeconds, now);
      if (count > rule.limit) {
        const retryAfter = Math.max(1, Math.ceil((resetAt.getTime() - now) / 1000));
        c.header('Retry-After', String(retryAfter));
        throw tooManyRequests(retryAfter);
      }
    }
    await next();
  });

/** Old windows are of no further use; called now and then (e.g. at start). Windows that started before `now` less `olderThanSeconds` go. */
export async function pruneRateLimits(db: Db, olderThanSeconds: number, now: number): Promise<void> {
  const cutoff = new Date(now - olderThanSeconds * 1000).toISOString();
  await db.delete(rateLimits).where(sql`${rateLimits.windowStart} < ${cutoff}::timestamptz`);
}
