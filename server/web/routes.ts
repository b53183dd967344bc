/**
 * Everything outside /api: the widget script, the demo partner page and the admin SPA.
 */
import { channelToFrame, channelToTake, parseFrameQuery } from '../channels';
import { countOnChannel, isOwnOrigin } from '../participant';
import path from 'node:path';
import fs from 'node:fs';
import { Hono } from 'hono';
import type { AppEnv, Deps } from '../context';
import { ADMIN_DOCUMENT_HEADERS } from '../http/security';
import { notBuilt, resolveUnder, sendFile } from '../http/static';
import { demoChannel } from '../demo';
import { describe } from '../openapi/describe';
import { frameCsp, framePage } from './framePage';

/**
 * A media channel's own participant page (issue 8): for channels with no website to embed into,
 * the public layout (logo, footer) around the same widget. Opening it counts in `share`. The
 * page's own text is English (`lang="en"`); `?lang=` goes to the widget, which names the
 * language it shows on its own card (a language the survey lacks falls back there).
 */
function takePage(channelId: number, screenerId: number, language: string | undefined): string {
  const lang = language ? ` data-language="${language}"` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Trial Recruit · Study questionnaire</title>
${FAVICON_LINK}
<style>
body{margin:0;min-height:100vh;display:flex;flex-direction:column;background:#0b0d10;color:#e6e8eb;font-family:system-ui,sans-serif}
header{display:flex;align-items:center;gap:.6rem;padding:1rem 1.5rem;font-weight:600;font-size:1.1rem}
main{flex:1;display:flex;justify-content:center;padding:1rem}
main>div{width:100%;max-width:36rem}
footer{padding:1rem 1.5rem;font-size:.85rem;color:#9aa5b1;text-align:center}
</style>
</head>
<body>
<header><svg width="36" height="36" viewBox="0 0 32 32" aria-hidden="true" focusable="false"><rect width="32" height="32" rx="8" fill="#1f5fbf"/><path d="M9 16.5l4.5 4.5L23 11.5" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/></svg><span>Trial Recruit</span></header>
<main id="main"><div data-trial-widget></div></main>
<footer>© ${new Date().getFullYear()} Trial Recruit · Clinical-trial recruitment</footer>
<script async src="/widget.js" data-media-channel-id="${channelId}" data-screener-id="${screenerId}"${lang}></script>
</body>
</html>
`;
}

/** The admin's icon (admin/public/favicon.svg, copied into the admin bundle), for the server's own pages too. */
const FAVICON_LINK = '<link rel="icon" type="image/svg+xml" href="/favicon.svg">';

const LANGUAGE = /^[a-z]{2}(?:[-_][A-Za-z]{2})?$/;

/** A plain partner page embedding the demo channel's snippet (or, before the demo exists, a friendly dead end). */
const demoPage = (channel: { mediaChannelId: number; screenerId: number } | null) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Demo partner page</title>
${FAVICON_LINK}
<style>body{font-family:Georgia,serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#222}</style>
</head>
<body>
<h1>Healthy Living Today</h1>
<p>A partner website. The survey below is the embedded participant widget.</p>
<div data-trial-widget></div>
<script async src="/widget.js" data-media-channel-id="${channel?.mediaChannelId ?? 'demo'}" data-screener-id="${channel?.screenerId ?? 'demo'}"></script>
</body>
</html>
`;

/** Any page may import the widget's modules (they hold no data); the API answers CORS on its own terms. */
const WIDGET_MODULE_HEADERS = { 'Access-Control-Allow-Origin': '*', 'Cross-Origin-Resource-Policy': 'cross-origin' };

export function webRoutes(deps: Deps) {
  const app = new Hono<AppEnv>();
  const adminRoot = path.join(deps.config.distDir, 'admin');
  const widgetFile = path.join(deps.config.distDir, 'widget', 'widget.js');
  const widgetModules = path.join(deps.config.distDir, 'widget', 'widget');

  // Browsers ask for /favicon.ico on documents that name no icon (a PDF, a JSON answer).
  app.get('/favicon.ico', describe({ summary: 'The site icon', access: 'public', answer: { media: 'application/octet-stream' } }), (c) => {
    const icon = path.join(adminRoot, 'favicon.svg');
    return fs.existsSync(icon) ? sendFile(c, icon, 'revalidate') : c.text('Not found', 404);
  });
  app.get(
    '/widget.js',
    describe({ summary: "The participant widget's loader script", access: 'public', answer: { media: 'application/octet-stream' } }),
    (c) => (fs.existsSync(widgetFile) ? sendFile(c, widgetFile, 'revalidate') : notBuilt(c, 'widget')),
  );
  // The modules widget.js imports, content-hashed: a partner's page imports them across origins,
  // which module scripts do in CORS mode.
  app.get(
    '/widget/:file{[A-Za-z0-9_-]+\\.js}',
    describe({ summary: 'A participant widget module', access: 'public', answer: { media: 'application/octet-stream' } }),
    (c) => {
      const file = resolveUnder(widgetModules, c.req.param('file'));
      return file ? sendFile(c, file, 'immutable', WIDGET_MODULE_HEADERS) : c.text('Not found', 404);
    },
  );
  app.get('/demo', describe({ summary: 'The demo partner page (redirect)', access: 'public', answer: { redirect: true, pages: {} } }), (c) =>
    c.redirect('/demo/'),
  );
  app.get('/demo/', describe({ summary: 'The demo partner page', access: 'public', answer: { media: 'text/html' } }), async (c) =>
    c.html(demoPage(await demoChannel(deps.db))),
  );
  app.get(
    '/take/:mediaChannelId',
    describe({ summary: "A media channel's own participant page", access: 'public', answer: { media: 'text/html' } }),
    async (c) => {
      const raw = c.req.param('mediaChannelId');
      const id = /^\d{1,9}$/.test(raw) ? Number(raw) : null;
      const channel = id === null ? undefined : await channelToTake(deps.db, id);
      if (!channel) return c.text('Not found', 404);
      // Counted in the database itself, so concurrent opens never lose one.
      await countOnChannel(deps.db, channel.id, 'share');
      const language = c.req.query('lang');
      c.header('Cache-Control', 'no-store');
      return c.html(takePage(channel.id, channel.screenerId, language && LANGUAGE.test(language) ? language : undefined), 200, ADMIN_DOCUMENT_HEADERS);
    },
  );
  // A channel's framed widget (isolation: frame): the page widget.js frames on a partner's page.
  // Counts nothing: the widget inside counts its view as on any page.
  app.get(
    '/embed/frame',
    describe({ summary: "A framed widget's page (a channel's isolation: frame)", access: 'public', answer: { media: 'text/html' } }),
    async (c) => {
      const request = parseFrameQuery(new URL(c.req.url).searchParams);
      const channel = await channelToFrame(deps.db, request, (origin) => isOwnOrigin(c, origin, deps.config.publicUrl));
      c.header('Cache-Control', 'no-store');
      return c.html(framePage(request), 200, { 'Content-Security-Policy': frameCsp(channel.frameAncestors) });
    },
  );

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
