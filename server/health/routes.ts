/**
 * `GET /api/health` for load balancers and monitors: 200 when the database answers, 503 when it
 * does not. Public, and says nothing beyond that.
 */
import { Hono } from 'hono';
import { sql } from 'drizzle-orm';
import type { AppEnv, Deps } from '../context';
import { describe } from '../openapi/describe';

const TIMEOUT_MS = 2000;

export function healthRoutes(deps: Deps) {
  const app = new Hono<AppEnv>();
  app.get(
    '/',
    describe({
      summary: 'Health: whether the database answers',
      access: 'public',
      answer: {
        json: {
          type: 'object',
          required: ['status', 'database'],
          properties: { status: { const: 'ok' }, database: { const: 'ok' }, ms: { type: 'integer', description: 'How long the database took.' } },
        },
        description: 'The database answers.',
        refusals: {
          schema: { type: 'object', required: ['status', 'database'], properties: { status: { const: 'unavailable' }, database: { const: 'unreachable' } } },
          statuses: { '503': 'The database does not answer (within 2 seconds).' },
        },
      },
    }),
    async (c) => {
      const started = performance.now();
      try {
        await Promise.race([deps.db.execute(sql`select 1`), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), TIMEOUT_MS).unref())]);
        return c.json({ status: 'ok', database: 'ok', ms: Math.round(performance.now() - started) }, 200, { 'Cache-Control': 'no-store' });
      } catch {
        return c.json({ status: 'unavailable', database: 'unreachable' }, 503, { 'Cache-Control': 'no-store' });
      }
    },
  );
  return app;
}
