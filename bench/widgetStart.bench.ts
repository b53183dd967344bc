/**
 * The widget's start and its Next in Chromium (playwright-core, /usr/bin/chromium), on a partner
 * page of another origin than the API (demo survey), through a local proxy that adds a real
 * round trip to every request, CORS preflights included (tests/support/latencyProxy.ts):
 * Chromium's own network emulation does not delay preflights, so it hid them. Requests are
 * counted from the proxy's log, OPTIONS included.
 *
 * - Script start (the widget.js request) → first question visible on loopback: the median of
 *   fresh visits (empty cache each).
 * - At 150 ms round trip: the first question's time and its sequential requests (the longest
 *   chain of requests each sent after the previous one was answered, among those answered before
 *   the question showed; budget 2: widget.js, then its module and the survey's start together).
 * - A Next from the second page, where no answer can end the run (the server's meta.cannotEnd):
 *   its requests until the next page showed and its save was answered (budget 1), and click →
 *   next page's heading, shown before the save's answer (budget 50 ms). The first Next, from a
 *   page that can disqualify, waits for the server and also creates the submission (with its
 *   first page's entry): its own rows (budget 2.2 × the round trip plus the server's time).
 * - OPTIONS requests after the first call of a run (budget 0).
 *
 * PGlite only, since the database is not what this measures.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../tests/e2e/browser';
import { freePort } from '../tests/e2e/server';
import { startLatencyProxy, type LatencyProxy, type ProxiedRequest } from '../tests/support/latencyProxy';
import { ensureBuilt } from '../server/bundles';
import { seedDemoRun } from '../server/demo';
import { mediaChannels } from '../server/db/schema';
import { benchServer, type BenchRow } from './harness';

const PARTNER_HOST = 'partner.localhost';
const VISITS = 9;
const RTT_MS = 150;
const SLOW_VISITS = 3;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const name = (r: ProxiedRequest) => `${r.method} ${r.path.split('?')[0]}`;
/** Page timing goes out after the next page shows, waited for by nothing: not a request of the Next. */
const isTiming = (r: ProxiedRequest) => r.path.includes('/o-form-page-metrics');

/**
 * The longest chain of requests each of which was sent after the previous one's answer came:
 * the sequential requests. Only requests answered by `until` (epoch ms) count.
 */
function sequentialTrips(requests: ProxiedRequest[], until: number): ProxiedRequest[] {
  const done = requests.filter((r) => r.done !== undefined && r.done <= until).sort((a, b) => a.at - b.at);
  const best: ProxiedRequest[][] = [];
  for (const [i, r] of done.entries()) {
    let chain: ProxiedRequest[] = [];
    for (let j = 0; j < i; j++) if (done[j]!.done! <= r.at && best[j]!.length > chain.length) chain = best[j]!;
    best.push([...chain, r]);
  }
  return best.reduce<ProxiedRequest[]>((a, b) => (b.length > a.length ? b : a), []);
}

/** What a Next cost: ms from the click to the next page's heading shown, the requests it made before that, and the save's time through the proxy. */
interface NextCost {
  ms: number;
  requests: ProxiedRequest[];
  trips: ProxiedRequest[];
  saveMs: number;
}

/** The heading in the widget's shadow root is `text`: checked every frame, answering the page's clock and wall time then. */
async function shownHeading(page: Page, text: string): Promise<{ now: number; wall: number }> {
  const handle = await page.waitForFunction(
    (want) => {
      const h2 = document.querySelector('[data-trial-widget]')?.shadowRoot?.querySelector('h2');
      return h2?.textContent?.trim() === want ? { now: performance.now(), wall: performance.timeOrigin + performance.now() } : false;
    },
    text,
    { polling: 'raf', timeout: 30_000 },
  );
  return (await handle.jsonValue()) as { now: number; wall: number };
}

/** Clicks Next and measures until `heading` shows: from the click event (page clock) to the first frame with it. */
async function measureNext(page: Page, proxy: LatencyProxy, heading: string): Promise<NextCost> {
  await page.evaluate(() => {
    const w = window as unknown as { nextClickedAt?: number };
    delete w.nextClickedAt;
    document.addEventListener('click', () => (w.nextClickedAt = performance.now()), { capture: true, once: true });
  });
  const from = proxy.log.length;
  await page.locator('[data-trial-widget] button[type=submit]').click();
  const shown = await shownHeading(page, heading);
  const clicked = await page.evaluate(() => (window as unknown as { nextClickedAt?: number }).nextClickedAt ?? NaN);
  // A page that cannot end the run shows the next one before its save is answered: the Next's
  // requests are those sent until both the page showed and the save was answered.
  const isSave = (r: ProxiedRequest) => r.method === 'POST' && r.path.includes('/o-form-submission-page/');
  let save: ProxiedRequest | undefined;
  for (let waited = 0; !(save = proxy.log.slice(from).find((r) => isSave(r) && r.done !== undefined)) && waited < 30_000; waited += 10) await new Promise((r) => setTimeout(r, 10));
  const until = Math.max(shown.wall, save?.done ?? 0);
  const during = proxy.log.slice(from).filter((r) => r.at <= until && !isTiming(r));
  return { ms: shown.now - clicked, requests: during, trips: sequentialTrips(during, until), saveMs: save?.done ? save.done - save.at : NaN };
}

interface Visit {
  ms: number;
  trips: ProxiedRequest[];
  firstNext?: NextCost;
  laterNext?: NextCost;
  /** OPTIONS requests after the run's first call to the API (widget.js and its module are not calls). */
  preflightsAfterFirst?: number;
}

/**
 * One fresh visit (own context, empty cache): ms from the widget.js request to the first question
 * shown; with `answer`, the first page answered and then the two Nexts measured (the first one
 * also creates the submission and its first entry).
 */
async function visit(browser: Browser, url: string, proxy: LatencyProxy, answer = false): Promise<Visit> {
  const context = await browser.newContext({ locale: 'en-US' });
  const page: Page = await context.newPage();
  const from = proxy.log.length;
  try {
    await page.goto(url, { waitUntil: 'commit' });
    // Checked every frame: "visible" is the first frame that has the question's legend.
    const shownAt = await page.waitForFunction(
      () => {
        const root = document.querySelector('[data-trial-widget]')?.shadowRoot;
        return root?.querySelector('legend') ? { now: performance.now(), wall: performance.timeOrigin + performance.now() } : false;
      },
      undefined,
      { polling: 'raf', timeout: 30_000 },
    );
    const shown = (await shownAt.jsonValue()) as { now: number; wall: number };
    const scriptStart = await page.evaluate(() => performance.getEntriesByType('resource').find((e) => e.name.includes('/widget.js'))?.startTime ?? NaN);
    const started: Visit = { ms: shown.now - scriptStart, trips: sequentialTrips(proxy.log.slice(from), shown.wall) };
    if (!answer) return started;
    // The demo survey (server/demo/demo.ts): About you (can disqualify) → Your heart health (nothing required) → Where you live.
    await page.locator('[data-trial-widget] label', { hasText: '18 to 64' }).click();
    await page.locator('[data-trial-widget] label', { hasText: /^Yes$/ }).click();
    const firstNext = await measureNext(page, proxy, 'Your heart health');
    const laterNext = await measureNext(page, proxy, 'Where you live');
    // Let the last page's timing and anything else in flight arrive before counting.
    await page.waitForTimeout(2 * RTT_MS);
    const calls = proxy.log.slice(from).filter((r) => r.path.startsWith('/api/'));
    const first = calls.findIndex((r) => r.method !== 'OPTIONS');
    return { ...started, firstNext, laterNext, preflightsAfterFirst: calls.slice(first + 1).filter((r) => r.method === 'OPTIONS').length };
  } finally {
    await context.close();
  }
}

export default async function widgetStart(): Promise<BenchRow[]> {
  const root = path.resolve(import.meta.dirname, '..');
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-widget-dist-'));
  await ensureBuilt(root, (msg) => process.stderr.write(`bench: ${msg}\n`), dist);
  const before = process.env.DIST_DIR;
  process.env.DIST_DIR = dist;
  let channel = { mediaChannelId: 0, screenerId: 0 };
  const server = await benchServer('pglite', async (db) => {
    channel = await seedDemoRun(db);
    await db.update(mediaChannels).set({ domain: PARTNER_HOST }).where(eq(mediaChannels.id, channel.mediaChannelId));
  });
  if (before === undefined) delete process.env.DIST_DIR;
  else process.env.DIST_DIR = before;

  const proxy = await startLatencyProxy(server.url);
  const port = await freePort();
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Partner</title></head><body>
<div data-trial-widget></div>
<script async src="${proxy.url}/widget.js" data-media-channel-id="${channel.mediaChannelId}" data-screener-id="${channel.screenerId}"></script>
</body></html>`;
  const partner = http.createServer((req, res) => {
    if (req.url !== '/') return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => partner.listen(port, '127.0.0.1', resolve));
  const url = `http://${PARTNER_HOST}:${port}/`;
  let browser: Browser | undefined;
  try {
    browser = await launchBrowser();
    // One unmeasured visit: the server's first answers (bundle compression, query plans) are not the participant's.
    await visit(browser, url, proxy);
    const loopback: number[] = [];
    for (let i = 0; i < VISITS; i++) loopback.push((await visit(browser, url, proxy)).ms);
    proxy.setRoundTrip(RTT_MS);
    const slow: Visit[] = [];
    for (let i = 0; i < SLOW_VISITS; i++) slow.push(await visit(browser, url, proxy, true));
    const byMs = <T extends { ms: number }>(xs: T[]) => [...xs].sort((a, b) => a.ms - b.ms)[Math.floor(xs.length / 2)]!;
    const start = byMs(slow);
    const next = byMs(slow.map((v) => v.laterNext!));
    const first = byMs(slow.map((v) => v.firstNext!));
    const chain = (trips: ProxiedRequest[]) => trips.map((t) => `${name(t)} (${((t.done ?? NaN) - t.at).toFixed(0)} ms)`).join(' → ');
    const base = median(loopback);
    const serverMs = (saveMs: number) => Math.max(0, saveMs - RTT_MS);
    const preflights = Math.max(...slow.map((v) => v.preflightsAfterFirst!));
    process.stderr.write(
      `bench: widget start — loopback ${loopback.map((v) => v.toFixed(0)).join(', ')} ms; at ${RTT_MS} ms round trip ${slow.map((v) => v.ms.toFixed(0)).join(', ')} ms: ${chain(start.trips)}\n` +
        `bench: widget Next at ${RTT_MS} ms — ${slow.map((v) => v.laterNext!.ms.toFixed(0)).join(', ')} ms (save ${next.saveMs.toFixed(0)} ms): ${next.requests.map(name).join(', ')}; ` +
        `first Next ${slow.map((v) => v.firstNext!.ms.toFixed(0)).join(', ')} ms: ${first.requests.map(name).join(', ')}; OPTIONS after the first call: ${slow.map((v) => v.preflightsAfterFirst).join(', ')}\n`,
    );
    return [
      { figure: 'widget: script start → first question, loopback (pglite), median', value: base, unit: 'ms', budget: 200, lowerIsBetter: true },
      { figure: `widget: sequential requests before the first question (${RTT_MS} ms round trip, proxy)`, value: start.trips.length, unit: 'requests', budget: 2, lowerIsBetter: true },
      {
        figure: `widget: script start → first question (${RTT_MS} ms round trip, proxy), median of ${SLOW_VISITS}, vs 2 × ${RTT_MS} ms + loopback ${base.toFixed(0)} ms`,
        value: start.ms,
        unit: 'ms',
        budget: 2 * RTT_MS + base,
        lowerIsBetter: true,
      },
      { figure: `widget: requests per Next, OPTIONS included (${RTT_MS} ms round trip, proxy, second page)`, value: next.requests.length, unit: 'requests', budget: 1, lowerIsBetter: true },
      { figure: `widget: OPTIONS after the first call of a run (${RTT_MS} ms round trip, proxy), most of ${SLOW_VISITS} runs`, value: preflights, unit: 'requests', budget: 0, lowerIsBetter: true },
      {
        figure: `widget: Next → next page shown for a page that cannot end (${RTT_MS} ms round trip, proxy; second page, its save confirmed behind it), median of ${SLOW_VISITS}`,
        value: next.ms,
        unit: 'ms',
        budget: 50,
        lowerIsBetter: true,
      },
      // The page that can disqualify (the demo's first) waits for the server: its row is the first Next's.
      { figure: `widget: sequential requests of the first Next (creates the submission; ${RTT_MS} ms round trip, proxy)`, value: first.trips.length, unit: 'requests', budget: 2, lowerIsBetter: true },
      {
        figure: `widget: first Next → next page shown for a page that can disqualify (${RTT_MS} ms round trip, proxy; waits for the server), median of ${SLOW_VISITS}, vs 2.2 × ${RTT_MS} ms + server ${serverMs(first.saveMs).toFixed(0)} ms × 2`,
        value: first.ms,
        unit: 'ms',
        budget: 2.2 * RTT_MS + 2 * serverMs(first.saveMs),
        lowerIsBetter: true,
      },
    ];
  } finally {
    await browser?.close();
    await new Promise<void>((resolve) => partner.close(() => resolve()));
    await proxy.close();
    await server.close();
    fs.rmSync(dist, { recursive: true, force: true });
  }
}
