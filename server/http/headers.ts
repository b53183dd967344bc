/**
 * Headers added to an answer already made (middlewares after `await next()`). Hono's
 * `c.header()` rebuilds the whole Response for every header set at that point, which on every
 * request cost more than the route's own work; the answer's headers are set in place instead,
 * unless they are immutable (a Response from fetch), when Hono rebuilds it once.
 */
import type { Context } from 'hono';

export function setAnswerHeaders(c: Context, headers: Record<string, string>): void {
  try {
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  } catch {
    for (const [name, value] of Object.entries(headers)) c.header(name, value);
  }
}
