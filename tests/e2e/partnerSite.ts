/**
 * A partner's website for the browser tests: pages served from another origin than the API
 * (`partner.localhost` by default, the demo channel's domain once a test sets it, on a port of its
 * own) under a strict Content-Security-Policy without 'unsafe-inline', plus a participant in
 * Chromium who records every CSP violation, page error, failed answer and console error.
 */
import { partnerCspSources } from '@core/model/mediaChannel';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { freePort } from './server';
import { closedRootContext } from './browser';

export const PARTNER_HOST = 'partner.localhost';

export interface PartnerSite {
  /** e.g. http://partner.localhost:4711 */
  url: string;
  /** Serves `html` at `pathname` (under the CSP, or `csp` when given); returns the page's address. */
  page(pathname: string, html: string, csp?: string): string;
  /** Serves a file at `pathname` (the page's stylesheets). */
  asset(pathname: string, contentType: string, body: string | Buffer): void;
  close(): Promise<void>;
}

export async function startPartnerSite(apiUrl: string, host = PARTNER_HOST): Promise<PartnerSite> {
  const port = await freePort();
  const url = `http://${host}:${port}`;
  // The page's own policy plus exactly what the README and the channel's snippet panel tell partners to add.
  const widget = partnerCspSources(apiUrl);
  const csp = [
    `default-src 'self'`,
    `script-src 'self' ${widget['script-src']}`,
    `style-src 'self'`,
    `connect-src ${widget['connect-src']}`,
    `img-src 'self'`,
  ].join('; ');
  const files = new Map<string, { type: string; body: string | Buffer; csp: string | null }>();
  const axe = fs.readFileSync(path.resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js'));
  files.set('/axe.js', { type: 'text/javascript', body: axe, csp: null });
  const server = http.createServer((req, res) => {
    const file = files.get(new URL(req.url ?? '/', url).pathname);
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': file.type, ...(file.csp ? { 'Content-Security-Policy': file.csp } : {}) }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url,
    page(pathname, html, pageCsp = csp) {
      files.set(pathname, { type: 'text/html; charset=utf-8', body: html, csp: pageCsp });
      return `${url}${pathname}`;
    },
    asset(pathname, type, body) {
      files.set(pathname, { type, body, csp: null });
    },
    close: () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve())),
  };
}

/** The snippet partners paste, with extra attributes. */
export const snippet = (apiUrl: string, channelId: string, screenerId: string, extra = '') =>
  `<script async src="${apiUrl}/widget.js" data-media-channel-id="${channelId}" data-screener-id="${screenerId}"${extra ? ` ${extra}` : ''}></script>`;

/** The partner's magazine page holding the widget, its snippet (with `extra` attributes) for `apiUrl`; returns the page's address. */
export const magazinePage = (partner: PartnerSite, apiUrl: string, ids: { channelId: string; screenerId: string }, extra = '') =>
  partner.page(
    '/',
    `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Healthy living</title></head>
<body><main><h1>Healthy living magazine</h1>
<div data-trial-widget></div>
${snippet(apiUrl, ids.channelId, ids.screenerId, extra)}
</main></body></html>`,
  );

export interface Participant {
  context: BrowserContext;
  page: Page;
  /** Everything that went wrong: CSP violations, page errors, 4xx/5xx answers, console errors. */
  problems: string[];
  /** Console errors only (the widget's diagnosis lines among them). */
  consoleErrors: string[];
}

/**
 * A fresh participant (own storage) in `locale`, at `viewport`, recording problems; not navigated
 * yet. `closedRoots`: without the tests' way into closed shadow roots (./browser.ts), as the page ships.
 */
export async function newParticipant(
  browser: Browser,
  options: { locale?: string; viewport?: { width: number; height: number }; closedRoots?: boolean } = {},
): Promise<Participant> {
  const contextOptions = { locale: options.locale ?? 'en-US', viewport: options.viewport ?? { width: 1280, height: 800 } };
  const context = await (options.closedRoots ? closedRootContext(browser, contextOptions) : browser.newContext(contextOptions));
  const page = await context.newPage();
  const problems: string[] = [];
  const consoleErrors: string[] = [];
  await page.exposeFunction('__cspViolation', (text: string) => problems.push(`CSP: ${text}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __cspViolation(t: string): void }).__cspViolation(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()} ${r.url()}`);
  });
  page.on('console', (m) => {
    if (m.type() !== 'error' || m.text().startsWith('Failed to load resource')) return;
    consoleErrors.push(m.text());
    problems.push(`console: ${m.text()}`);
  });
  return { context, page, problems, consoleErrors };
}

/** A new participant (see newParticipant) on `url`, for `use`; their context closed after, whether `use` passed or not. */
export async function asParticipantOn(browser: Browser, url: string, use: (participant: Participant) => Promise<void>): Promise<void> {
  const participant = await newParticipant(browser);
  try {
    await participant.page.goto(url);
    await use(participant);
  } finally {
    await participant.context.close();
  }
}

/** axe-core's serious and critical violations inside `selector` (axe.js served by the partner site). */
export async function axeViolations(page: Page, partnerUrl: string, selector: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ url: `${partnerUrl}/axe.js` });
  return page.evaluate(async (sel) => {
    const axe = (
      window as unknown as {
        axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string; impact?: string; nodes: { target: unknown }[] }[] }> };
      }
    ).axe;
    const result = await axe.run({ include: [[sel]] }, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.impact} ${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
  }, selector);
}
