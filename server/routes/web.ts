/**
 * Everything outside /api: the widget script, the demo partner page and the admin SPA.
 */
import path from 'node:path';
import fs from 'node:fs';
import { Hono } from 'hono';
import type { AppEnv, Deps } from '../context';
import { ADMIN_DOCUMENT_HEADERS } from '../http/security';
import { notBuilt, resolveUnder, sendFile } from '../http/static';

const DEMO_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Demo partner page</title>
<style>body{font-family:Georgia,serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#222}</style>
</head>
<body>
<h1>Healthy Living Today</h1>
<p>A partner website. The survey below is the embedded participant widget.</p>
<div data-trial-widget></div>
<script async src="/widget.js" data-media-channel-id="demo" data-screener-id="demo"></script>
</body>
</html>
`;

export function webRoutes(deps: Deps) {
  const app = new Hono<AppEnv>();
  const adminRoot = path.join(deps.config.distDir, 'admin');
  const widgetFile = path.join(deps.config.distDir, 'widget', 'widget.js');

  app.get('/widget.js', (c) => (fs.existsSync(widgetFile) ? sendFile(c, widgetFile, 'revalidate') : notBuilt(c, 'widget')));
  app.get('/demo', (c) => c.redirect('/demo/'));
  app.get('/demo/', (c) => c.html(DEMO_PAGE));

  app.get('*', (c) => {
    const urlPath = new URL(c.req.url).pathname;
    const file = resolveUnder(adminRoot, urlPath);
    if (file && !file.endsWith('index.html')) {
      return sendFile(c, file, urlPath.startsWith('/assets/') ? 'immutable' : 'revalidate');
    }
    // A missing asset is a 404, not the SPA: a stale chunk must fail loudly so the admin can offer a reload.
    if (urlPath.startsWith('/assets/') || path.extname(urlPath) !== '') return c.text('Not found', 404);
    const index = path.join(adminRoot, 'index.html');
    return fs.existsSync(index) ? sendFile(c, index, 'revalidate', ADMIN_DOCUMENT_HEADERS) : notBuilt(c, 'admin');
  });

  return app;
}
