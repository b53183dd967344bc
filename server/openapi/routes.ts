/**
 * The API's own description: `GET /api/openapi.json` (OpenAPI 3.1, written from the route table)
 * and `GET /api/docs`, a page that renders it with the vendored Redoc. Both are public: they
 * describe the API's shape, never its data, and partners integrating the widget need them.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import type { AppEnv } from '../context';
import { sendFile } from '../http/static';
import { buildOpenApi, type OpenApiBuild, type RouteEntry } from './document';
import { describe } from './describe';

const REDOC = fileURLToPath(new URL('./vendor/redoc.standalone.js', import.meta.url));
const VERSION = (JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

// Redoc reads its options from the element's attributes, so the page needs no script of its own;
// search would start a worker from a blob: URL, which the page's policy refuses.
const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Trial Recruit API</title>
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<style>body{margin:0}</style>
</head>
<body>
<redoc spec-url="/api/openapi.json" disable-search expand-responses="200,201"></redoc>
<script src="/api/docs/redoc.standalone.js"></script>
</body>
</html>
`;

/** `routes` is read on the first request, once every route is registered. */
export function openApiRoutes(routes: () => readonly RouteEntry[]) {
  const app = new Hono<AppEnv>();
  let built: OpenApiBuild | null = null;
  const document = () => (built ??= buildOpenApi(routes(), { version: VERSION })).document;

  app.get('/openapi.json', describe({ summary: 'This OpenAPI document', access: 'public', answer: { media: 'application/json' } }), (c) =>
    c.json(document(), 200, { 'Cache-Control': 'no-cache' }),
  );
  app.get('/docs', describe({ summary: 'The API reference, browsable', access: 'public', answer: { media: 'text/html' } }), (c) =>
    c.html(DOCS_PAGE, 200, { 'Cache-Control': 'no-cache' }),
  );
  app.get(
    '/docs/redoc.standalone.js',
    describe({ summary: "The reference page's renderer (Redoc)", access: 'public', answer: { media: 'text/javascript' } }),
    (c) => sendFile(c, REDOC, 'revalidate'),
  );
  return app;
}
