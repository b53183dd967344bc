/**
 * Builds the Hono app from the route modules. No side effects: tests call `createApp(deps)`
 * and `app.request()`.
 */
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { JSON_API_MEDIA_TYPE } from '../core/jsonapi';
import type { AppEnv, Deps } from './context';
import { ApiProblem, internalError, notFound, payloadTooLarge } from './http/errors';
import { authRoutes } from './routes/auth';
import { countriesRoutes } from './routes/countries';
import { sponsorsRoutes } from './routes/sponsors';
import { usersRoutes } from './routes/users';
import { webRoutes } from './routes/web';

const JSON_BODY_LIMIT = 1024 * 1024;

export function createApp(deps: Deps) {
  const app = new Hono<AppEnv>();

  app.use('*', async (c, next) => {
    const requestId = randomUUID();
    c.set('requestId', requestId);
    const started = performance.now();
    await next();
    c.header('X-Request-Id', requestId);
    deps.log.info('request', {
      requestId,
      method: c.req.method,
      path: new URL(c.req.url).pathname,
      status: c.res.status,
      ms: Math.round(performance.now() - started),
    });
  });

  app.use('/api/*', bodyLimit({ maxSize: JSON_BODY_LIMIT, onError: () => { throw payloadTooLarge('1 MB'); } }));

  app.route('/api/jwt', authRoutes(deps));
  app.route('/api/users', usersRoutes(deps));
  app.route('/api/sponsors', sponsorsRoutes(deps));
  app.route('/api/countries', countriesRoutes(deps));
  app.all('/api/*', () => {
    throw notFound('API route');
  });
  app.get('/jwt/saml', (c) =>
    c.text('Single sign-on is not configured on this server. Sign in with your username and password.', 501),
  );
  app.route('/', webRoutes(deps));

  app.onError((error, c) => {
    const requestId = c.get('requestId') ?? randomUUID();
    const send = (status: number, errors: unknown[]) =>
      c.body(JSON.stringify({ errors }), status as 400, { 'Content-Type': JSON_API_MEDIA_TYPE, 'X-Request-Id': requestId });
    if (error instanceof ApiProblem) return send(error.status, error.errors);
    if (error instanceof HTTPException && error.status < 500) {
      return send(error.status, [{ status: String(error.status), title: error.message || 'Bad Request' }]);
    }
    deps.log.error('unexpected error', {
      requestId,
      method: c.req.method,
      path: new URL(c.req.url).pathname,
      error: error instanceof Error ? error.stack ?? error.message : String(error),
    });
    return send(500, [internalError(requestId)]);
  });

  return app;
}

export type App = ReturnType<typeof createApp>;
