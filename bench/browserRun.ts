/**
 * What the widget bench and its SurveyJS side-by-side share, so both measure the same way: a
 * partner page on another origin than the API, fresh visits in Chromium through the latency
 * proxy (tests/support/latencyProxy.ts), script start → first question, and a Next's click →
 * next page's heading with the requests it made (OPTIONS included) and their sequential chain.
 * What differs between the two is only where each survey renders and which request saves a page
 * (`SurveyUi`).
 */
import http from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { freePort } from '../tests/e2e/server';
import { MOBILE_LINK, sequentialTrips, type LatencyProxy, type ProxiedRequest } from '../tests/support/latencyProxy';

export const PARTNER_HOST = 'partner.localhost';
export const RTT_MS = 150;
export const SLOW_VISITS = 3;

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
/** The median of `xs` by their `ms`, the whole item (to print the requests of the median run). */
export const byMs = <T extends { ms: number }>(xs: T[]): T => [...xs].sort((a, b) => a.ms - b.ms)[Math.floor(xs.length / 2)]!;
export const requestName = (r: ProxiedRequest) => `${r.method} ${r.path.split('?')[0]}`;
/** A chain of requests as the bench prints it: each with its time through the proxy. */
export const chain = (trips: ProxiedRequest[]) => trips.map((t) => `${requestName(t)} (${((t.done ?? NaN) - t.at).toFixed(0)} ms)`).join(' → ');

/** Where a survey renders on the partner page and what its requests are. */
export interface SurveyUi {
  /** The element whose open shadow root holds the survey, or null when it renders in the page's own DOM. */
  shadowHost: string | null;
  /** A CSS selector (in that root) present once the first question shows. */
  question: string;
  /** A CSS selector (in that root) of the current page's heading. */
  heading: string;
  /** Playwright selectors (they pierce open shadow roots): the survey's root, and its Next button. */
  scope: string;
  next: string;
  /** Part of the address of the script whose request starts the clock. */
  script: string;
  /** The request that saves a page (its time through the proxy is the save's). */
  isSave: (r: ProxiedRequest) => boolean;
  /** Requests sent after the next page shows and waited for by nothing (not a Next's). */
  isAfterwards: (r: ProxiedRequest) => boolean;
  /** The run's calls to its server (not its scripts), for counting OPTIONS after the first. */
  isCall: (r: ProxiedRequest) => boolean;
}

/** What a Next cost: ms from the click to the next page's heading shown, the requests it made before that, and the save's time through the proxy. */
export interface NextCost {
  ms: number;
  requests: ProxiedRequest[];
  trips: ProxiedRequest[];
  saveMs: number;
}

type Shown = { now: number; wall: number };

/** The first frame on which `selector` is in the survey's root (with `text`, when given, as its trimmed text): the page's clock and wall time then. */
async function shown(page: Page, ui: SurveyUi, selector: string, text: string | null): Promise<Shown> {
  const handle = await page.waitForFunction(
    ({ host, selector, text }) => {
      const root = host === null ? document : document.querySelector(host)?.shadowRoot;
      const found = root?.querySelector(selector);
      return found && (text === null || found.textContent?.trim() === text)
        ? { now: performance.now(), wall: performance.timeOrigin + performance.now() }
        : false;
    },
    { host: ui.shadowHost, selector, text },
    { polling: 'raf', timeout: 30_000 },
  );
  return (await handle.jsonValue()) as Shown;
}

/** Clicks Next and measures until `heading` shows: from the click event (page clock) to the first frame with it. */
async function measureNext(page: Page, proxy: LatencyProxy, ui: SurveyUi, heading: string): Promise<NextCost> {
  await page.evaluate(() => {
    const w = window as unknown as { nextClickedAt?: number };
    delete w.nextClickedAt;
    document.addEventListener('click', () => (w.nextClickedAt = performance.now()), { capture: true, once: true });
  });
  const from = proxy.log.length;
  await page.locator(ui.next).click();
  const at = await shown(page, ui, ui.heading, heading);
  const clicked = await page.evaluate(() => (window as unknown as { nextClickedAt?: number }).nextClickedAt ?? NaN);
  // A page that cannot end the run shows the next one before its save is answered: the Next's
  // requests are those sent until both the page showed and the save was answered.
  let save: ProxiedRequest | undefined;
  for (let waited = 0; !(save = proxy.log.slice(from).find((r) => ui.isSave(r) && r.done !== undefined)) && waited < 30_000; waited += 10)
    await new Promise((r) => setTimeout(r, 10));
  const until = Math.max(at.wall, save?.done ?? 0);
  const during = proxy.log.slice(from).filter((r) => r.at <= until && !ui.isAfterwards(r));
  return { ms: at.now - clicked, requests: during, trips: sequentialTrips(during, until), saveMs: save?.done ? save.done - save.at : NaN };
}

export interface Visit {
  ms: number;
  trips: ProxiedRequest[];
  firstNext?: NextCost;
  laterNext?: NextCost;
  /** OPTIONS requests after the run's first call to its server (scripts are not calls). */
  preflightsAfterFirst?: number;
}

/**
 * One fresh visit (own context, empty cache): ms from the survey script's request to the first
 * question shown; with `answer`, the first page answered once nothing is in flight through the
 * proxy, and then the two Nexts measured. The
 * demo survey (server/demo/demo.ts): About you (can disqualify) → Your heart health (nothing
 * required) → Where you live.
 */
export async function visit(browser: Browser, url: string, proxy: LatencyProxy, ui: SurveyUi, answer = false): Promise<Visit> {
  const context = await browser.newContext({ locale: 'en-US' });
  const page: Page = await context.newPage();
  const from = proxy.log.length;
  try {
    await page.goto(url, { waitUntil: 'commit' });
    // Checked every frame: "visible" is the first frame that has the question.
    const first = await shown(page, ui, ui.question, null);
    const scriptStart = await page.evaluate(
      (script) => performance.getEntriesByType('resource').find((e) => e.name.includes(script))?.startTime ?? NaN,
      ui.script,
    );
    const started: Visit = { ms: first.now - scriptStart, trips: sequentialTrips(proxy.log.slice(from), first.wall) };
    if (!answer) return started;
    // A participant reads the question before answering it: by then what the page asked for as
    // it showed (the widget's rest of the run, its view) has come. Answering within a few hundred
    // ms of the first question would time the rest of the run's arrival, not the Next.
    await proxy.settled();
    await page.locator(`${ui.scope} label`, { hasText: '18 to 64' }).click();
    await page.locator(`${ui.scope} label`, { hasText: /^\s*Yes\s*$/ }).click();
    const firstNext = await measureNext(page, proxy, ui, 'Your heart health');
    const laterNext = await measureNext(page, proxy, ui, 'Where you live');
    // Let the last page's timing and anything else in flight arrive before counting.
    await page.waitForTimeout(2 * RTT_MS);
    const calls = proxy.log.slice(from).filter(ui.isCall);
    const firstCall = calls.findIndex((r) => r.method !== 'OPTIONS');
    return { ...started, firstNext, laterNext, preflightsAfterFirst: calls.slice(firstCall + 1).filter((r) => r.method === 'OPTIONS').length };
  } finally {
    await context.close();
  }
}

/**
 * SLOW_VISITS fresh visits (first question only) at the proxy's round trip with the throughput of
 * Lighthouse's mobile link, where bytes cost time as well as round trips; the link is unlimited
 * again after. Each visit starts on an idle link: what the last one still had in flight (the
 * rest of a run) would slow it.
 */
export async function mobileVisits(browser: Browser, url: string, proxy: LatencyProxy, ui: SurveyUi): Promise<Visit[]> {
  proxy.setLink(MOBILE_LINK);
  try {
    const visits: Visit[] = [];
    for (let i = 0; i < SLOW_VISITS; i++) {
      await proxy.settled();
      visits.push(await visit(browser, url, proxy, ui));
    }
    await proxy.settled();
    return visits;
  } finally {
    proxy.setLink(null);
  }
}

/** What the bench prints of mobileVisits: each visit's first question and the median one's sequential requests. */
export const describeMobile = (label: string, visits: Visit[]) =>
  `bench: ${label} at ${RTT_MS} ms and the mobile link's throughput — first question ${visits.map((v) => v.ms.toFixed(0)).join(', ')} ms: ${chain(byMs(visits).trips)}\n`;

/** A partner's page: `html` at `http://partner.localhost:PORT/`, straight from this process (the proxy is for the survey's own requests). */
export async function partnerPage(html: string): Promise<{ url: string; close(): Promise<void> }> {
  const port = await freePort();
  const partner = http.createServer((req, res) => {
    if (req.url !== '/') return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => partner.listen(port, '127.0.0.1', resolve));
  return { url: `http://${PARTNER_HOST}:${port}/`, close: () => new Promise<void>((resolve) => partner.close(() => resolve())) };
}
