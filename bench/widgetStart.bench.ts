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
 *   page that can disqualify, waits for the server; its one request creates the submission with
 *   its first page's entry and saves that page: its own rows (budget 1 request, 1.2 × the round
 *   trip plus the server's time).
 * - OPTIONS requests after the first call of a run (budget 0).
 * - The first question again at the same round trip with the link's throughput of Lighthouse's
 *   mobile preset (1.6 Mbit/s down, 750 kbit/s up): a real 150 ms network, where bytes cost
 *   time too.
 * - The same survey in SurveyJS, measured by the same helpers through the same proxy
 *   (./surveyjs.ts): its figures, and the widget's against them (first question ≤ 0.2× on the
 *   mobile link; reported on the latency alone, where 0.2× of SurveyJS's time is less than the
 *   round trip of any script a page fetches).
 *
 * PGlite only, since the database is not what this measures.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../tests/e2e/browser';
import { startLatencyProxy } from '../tests/support/latencyProxy';
import { isPageSave, isPageTiming } from '../tests/support/participantWire';
import { ensureBuilt } from '../server/bundles';
import { DEMO_SURVEY_IDENTITY, seedDemoRun } from '../server/demo';
import { mediaChannels } from '../server/db/schema';
import { benchServer, type BenchRow } from './harness';
import {
  byMs,
  chain,
  describeMobile,
  median,
  mobileVisits,
  PARTNER_HOST,
  partnerPage,
  requestName,
  RTT_MS,
  SLOW_VISITS,
  visit,
  type SurveyUi,
  type Visit,
} from './browserRun';
import { describeSurveyJs, measureSurveyJs, surveyjsRows } from './surveyjs';
import { surveyJsModel, surveyPageDocuments, type SurveyJsModel } from './surveyjsModel';

const VISITS = 9;

/** The widget on the partner's page: in its shadow root, a page's heading is its h2 and a question's legend. */
const WIDGET: SurveyUi = {
  shadowHost: '[data-trial-widget]',
  question: 'legend',
  heading: 'h2',
  scope: '[data-trial-widget]',
  next: '[data-trial-widget] button[type=submit]',
  script: '/widget.js',
  isSave: isPageSave,
  // Page timing goes out after the next page shows, waited for by nothing: not a request of the Next.
  isAfterwards: isPageTiming,
  isCall: (r) => r.path.startsWith('/api/'),
};

export default async function widgetStart(): Promise<BenchRow[]> {
  const root = path.resolve(import.meta.dirname, '..');
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-widget-dist-'));
  await ensureBuilt(root, (msg) => process.stderr.write(`bench: ${msg}\n`), dist);
  const before = process.env.DIST_DIR;
  process.env.DIST_DIR = dist;
  let channel = { mediaChannelId: 0, screenerId: 0 };
  let model: SurveyJsModel | undefined;
  const server = await benchServer('pglite', async (db) => {
    channel = await seedDemoRun(db);
    await db.update(mediaChannels).set({ domain: PARTNER_HOST }).where(eq(mediaChannels.id, channel.mediaChannelId));
    // The survey the widget will be served, as SurveyJS runs it, for the side-by-side.
    model = surveyJsModel(await surveyPageDocuments(db, DEMO_SURVEY_IDENTITY));
  });
  if (before === undefined) delete process.env.DIST_DIR;
  else process.env.DIST_DIR = before;

  const proxy = await startLatencyProxy(server.url);
  const partner = await partnerPage(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Partner</title></head><body>
<div data-trial-widget></div>
<script async src="${proxy.url}/widget.js" data-media-channel-id="${channel.mediaChannelId}" data-screener-id="${channel.screenerId}"></script>
</body></html>`);
  const url = partner.url;
  let browser: Browser | undefined;
  try {
    browser = await launchBrowser();
    // One unmeasured visit: the server's first answers (bundle compression, query plans) are not the participant's.
    await visit(browser, url, proxy, WIDGET);
    const loopback: number[] = [];
    for (let i = 0; i < VISITS; i++) loopback.push((await visit(browser, url, proxy, WIDGET)).ms);
    proxy.setRoundTrip(RTT_MS);
    const slow: Visit[] = [];
    for (let i = 0; i < SLOW_VISITS; i++) slow.push(await visit(browser, url, proxy, WIDGET, true));
    const mobile = await mobileVisits(browser, url, proxy, WIDGET);
    const start = byMs(slow);
    const next = byMs(slow.map((v) => v.laterNext!));
    const first = byMs(slow.map((v) => v.firstNext!));
    const base = median(loopback);
    const serverMs = (saveMs: number) => Math.max(0, saveMs - RTT_MS);
    const preflights = Math.max(...slow.map((v) => v.preflightsAfterFirst!));
    process.stderr.write(
      `bench: widget start — loopback ${loopback.map((v) => v.toFixed(0)).join(', ')} ms; at ${RTT_MS} ms round trip ${slow.map((v) => v.ms.toFixed(0)).join(', ')} ms: ${chain(start.trips)}\n` +
        `bench: widget Next at ${RTT_MS} ms — ${slow.map((v) => v.laterNext!.ms.toFixed(0)).join(', ')} ms (save ${next.saveMs.toFixed(0)} ms): ${next.requests.map(requestName).join(', ')}; ` +
        `first Next ${slow.map((v) => v.firstNext!.ms.toFixed(0)).join(', ')} ms: ${first.requests.map(requestName).join(', ')}; OPTIONS after the first call: ${slow.map((v) => v.preflightsAfterFirst).join(', ')}\n` +
        describeMobile('widget', mobile),
    );
    const surveyjs = await measureSurveyJs(browser, model!);
    process.stderr.write(describeSurveyJs(surveyjs));
    return [
      { figure: 'widget: script start → first question, loopback (pglite), median', value: base, unit: 'ms', budget: 200, lowerIsBetter: true },
      {
        figure: `widget: sequential requests before the first question (${RTT_MS} ms round trip, proxy)`,
        value: start.trips.length,
        unit: 'requests',
        budget: 2,
        lowerIsBetter: true,
      },
      {
        figure: `widget: script start → first question (${RTT_MS} ms round trip, proxy), median of ${SLOW_VISITS}, vs 2 × ${RTT_MS} ms + loopback ${base.toFixed(0)} ms`,
        value: start.ms,
        unit: 'ms',
        budget: 2 * RTT_MS + base,
        lowerIsBetter: true,
      },
      {
        figure: `widget: requests per Next, OPTIONS included (${RTT_MS} ms round trip, proxy, second page)`,
        value: next.requests.length,
        unit: 'requests',
        budget: 1,
        lowerIsBetter: true,
      },
      {
        figure: `widget: OPTIONS after the first call of a run (${RTT_MS} ms round trip, proxy), most of ${SLOW_VISITS} runs`,
        value: preflights,
        unit: 'requests',
        budget: 0,
        lowerIsBetter: true,
      },
      {
        figure: `widget: Next → next page shown for a page that cannot end (${RTT_MS} ms round trip, proxy; second page, its save confirmed behind it), median of ${SLOW_VISITS}`,
        value: next.ms,
        unit: 'ms',
        budget: 50,
        lowerIsBetter: true,
      },
      // The page that can disqualify (the demo's first) waits for the server: its row is the first Next's.
      {
        figure: `widget: sequential requests of the first Next (creates the submission and saves the page; ${RTT_MS} ms round trip, proxy)`,
        value: first.trips.length,
        unit: 'requests',
        budget: 1,
        lowerIsBetter: true,
      },
      {
        figure: `widget: first Next → next page shown for a page that can disqualify (${RTT_MS} ms round trip, proxy; waits for the server), median of ${SLOW_VISITS}, vs 1.2 × ${RTT_MS} ms + server ${serverMs(first.saveMs).toFixed(0)} ms`,
        value: first.ms,
        unit: 'ms',
        budget: 1.2 * RTT_MS + serverMs(first.saveMs),
        lowerIsBetter: true,
      },
      ...surveyjsRows(surveyjs, { start: start.ms, mobileStart: byMs(mobile).ms, firstNext: first.ms, laterNext: next.ms }),
    ];
  } finally {
    await browser?.close();
    await partner.close();
    await proxy.close();
    await server.close();
    fs.rmSync(dist, { recursive: true, force: true });
  }
}
