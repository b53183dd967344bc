/**
 * The widget bench's side-by-side: SurveyJS (survey-core and survey-js-ui, devDependencies of the
 * bench only) running the same survey (./surveyjsModel.ts) on a partner page of another origin,
 * measured exactly as the widget is (./browserRun.ts), through the same latency proxy at the same
 * round trip. One local server stands for SurveyJS's side of the wire: its scripts and style
 * sheet (gzipped, as a CDN serves them), the survey's JSON, and the page saves.
 *
 * Two integrations, as SurveyJS documents them:
 * - "saving each page": the page fetches the survey's JSON from the server, renders it, and on
 *   every Next an async `onCurrentPageChanging` handler POSTs the page's answers as JSON
 *   (`Content-Type: application/json`, so the browser asks a CORS preflight first, as it would
 *   of any API on another origin) and waits for the answer before the next page shows. The server
 *   answers CORS for the partner's origin as a common middleware does by default (no
 *   `Access-Control-Max-Age`: Chromium keeps such a preflight 5 s).
 * - "from local JSON": the survey's JSON inlined in the page, nothing saved.
 */
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { MOBILE_LINK, startLatencyProxy, type ProxiedRequest } from '../tests/support/latencyProxy';
import { freePort } from '../tests/e2e/server';
import {
  byMs,
  chain,
  describeMobile,
  mobileVisits,
  partnerPage,
  PARTNER_HOST,
  RTT_MS,
  SLOW_VISITS,
  visit,
  type NextCost,
  type SurveyUi,
  type Visit,
} from './browserRun';
import type { SurveyJsModel } from './surveyjsModel';
import type { BenchRow } from './harness';

const require = createRequire(import.meta.url);
/** What the partner's page loads, by the address the SurveyJS server gives it. */
const FILES: Record<string, { pkg: string; file: string; type: string }> = {
  '/survey-core.min.css': { pkg: 'survey-core', file: 'survey-core.min.css', type: 'text/css' },
  '/survey.core.min.js': { pkg: 'survey-core', file: 'survey.core.min.js', type: 'text/javascript' },
  '/survey-js-ui.min.js': { pkg: 'survey-js-ui', file: 'survey-js-ui.min.js', type: 'text/javascript' },
};
/** A package's own file: the packages export only their entries, which sit in their root folders. */
const packageFile = (pkg: string, file: string) => path.join(path.dirname(require.resolve(pkg)), file);
const SAVE_PATH = '/post/page/';

const SURVEYJS: SurveyUi = {
  shadowHost: null,
  question: '.sd-question__title',
  heading: '.sd-page__title',
  scope: '#survey',
  next: '#survey .sd-navigation__next-btn',
  script: '/survey.core.min.js',
  isSave: (r) => r.method === 'POST' && r.path.startsWith(SAVE_PATH),
  isAfterwards: () => false,
  isCall: (r) => r.path === '/survey.json' || r.path.startsWith(SAVE_PATH),
};

/** SurveyJS's side of the wire, on 127.0.0.1: files, the survey's JSON and page saves, with CORS for the partner's origin. */
async function surveyJsServer(model: SurveyJsModel) {
  const files = new Map(
    Object.entries(FILES).map(([at, { pkg, file, type }]) => [at, { type, body: gzipSync(fs.readFileSync(packageFile(pkg, file)), { level: 9 }) }]),
  );
  const json = JSON.stringify(model);
  const saved: unknown[] = [];
  const port = await freePort();
  const server = http.createServer((req, res) => {
    const origin = req.headers.origin;
    const cors: Record<string, string> =
      origin !== undefined && new URL(origin).hostname === PARTNER_HOST ? { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' } : {};
    const url = req.url ?? '/';
    const file = files.get(url);
    if (req.method === 'GET' && file) {
      return void res.writeHead(200, { 'Content-Type': file.type, 'Content-Encoding': 'gzip', 'Content-Length': file.body.length }).end(file.body);
    }
    if (req.method === 'GET' && url === '/survey.json') return void res.writeHead(200, { 'Content-Type': 'application/json', ...cors }).end(json);
    if (url.startsWith(SAVE_PATH) && req.method === 'OPTIONS') {
      return void res.writeHead(204, { ...cors, 'Access-Control-Allow-Methods': 'POST', 'Access-Control-Allow-Headers': 'Content-Type' }).end();
    }
    if (url.startsWith(SAVE_PATH) && req.method === 'POST') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        try {
          saved.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          res.writeHead(200, { 'Content-Type': 'application/json', ...cors }).end('{"ok":true}');
        } catch {
          res.writeHead(400, { 'Content-Type': 'application/json', ...cors }).end('{"ok":false}');
        }
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}`, saved, close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) };
}

/** A partner's page with SurveyJS as its documentation shows it: the style sheet and both scripts in the head, the survey rendered into #survey. */
function surveyJsPage(base: string, survey: { saves: true } | { saves: false; model: SurveyJsModel }): string {
  const run = survey.saves
    ? `const postId = crypto.randomUUID();
fetch(${JSON.stringify(`${base}/survey.json`)}).then((r) => r.json()).then((json) => {
  const survey = new Survey.Model(json);
  survey.onCurrentPageChanging.add(async (_, options) => {
    if (!options.isNextPage) return;
    try {
      const response = await fetch(${JSON.stringify(`${base}${SAVE_PATH}`)} + postId, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json; charset=utf-8' },
        body: JSON.stringify({ page: options.oldCurrentPage.name, answers: options.oldCurrentPage.getValue() }),
      });
      if (!response.ok) { options.allow = false; options.message = 'Could not save the page'; }
    } catch (e) { options.allow = false; options.message = e.message; }
  });
  survey.render(document.getElementById('survey'));
});`
    : `new Survey.Model(${JSON.stringify(survey.model).replace(/</g, '\\u003c')}).render(document.getElementById('survey'));`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Partner</title>
<link rel="stylesheet" href="${base}/survey-core.min.css">
<script src="${base}/survey.core.min.js"></script>
<script src="${base}/survey-js-ui.min.js"></script>
</head><body>
<div id="survey"></div>
<script>${run}</script>
</body></html>`;
}

export interface SurveyJsFigures {
  /** Saving each page: first question, the first and a later Next, at RTT_MS. */
  saving: { start: Visit; firstNext: NextCost; laterNext: NextCost; runs: Visit[] };
  /** From local JSON: first question and a Next, at RTT_MS. */
  local: { start: Visit; firstNext: NextCost; laterNext: NextCost; runs: Visit[] };
  /** Saving each page: the first question on the mobile link (./browserRun.ts mobileVisits). */
  savingOnMobile: Visit[];
}

/** SurveyJS's figures at RTT_MS through a latency proxy of its own (the same module, the same round trip as the widget's). */
export async function measureSurveyJs(browser: Browser, model: SurveyJsModel): Promise<SurveyJsFigures> {
  const server = await surveyJsServer(model);
  const proxy = await startLatencyProxy(server.url);
  const saving = await partnerPage(surveyJsPage(proxy.url, { saves: true }));
  const local = await partnerPage(surveyJsPage(proxy.url, { saves: false, model }));
  try {
    // One unmeasured visit of each: the first gzip reads and Chromium's first compile are not a participant's.
    await visit(browser, saving.url, proxy, SURVEYJS, true);
    await visit(browser, local.url, proxy, SURVEYJS, true);
    if (server.saved.length !== 2) throw new Error(`SurveyJS saved ${server.saved.length} pages of a visit, not 2`);
    proxy.setRoundTrip(RTT_MS);
    const figures = async (url: string) => {
      const runs: Visit[] = [];
      for (let i = 0; i < SLOW_VISITS; i++) runs.push(await visit(browser, url, proxy, SURVEYJS, true));
      return { runs, start: byMs(runs), firstNext: byMs(runs.map((v) => v.firstNext!)), laterNext: byMs(runs.map((v) => v.laterNext!)) };
    };
    return {
      saving: await figures(saving.url),
      local: await figures(local.url),
      savingOnMobile: await mobileVisits(browser, saving.url, proxy, SURVEYJS),
    };
  } finally {
    await saving.close();
    await local.close();
    await proxy.close();
    await server.close();
  }
}

const names = (rs: ProxiedRequest[]) => rs.map((r) => `${r.method} ${r.path.split('?')[0]}`).join(', ') || 'none';

/** What the bench prints of SurveyJS's runs, one line each. */
export function describeSurveyJs(f: SurveyJsFigures): string {
  const line = (label: string, x: SurveyJsFigures['saving']) =>
    `bench: SurveyJS ${label} at ${RTT_MS} ms — first question ${x.runs.map((v) => v.ms.toFixed(0)).join(', ')} ms: ${chain(x.start.trips)}; ` +
    `first Next ${x.runs.map((v) => v.firstNext!.ms.toFixed(0)).join(', ')} ms (${names(x.firstNext.requests)}); ` +
    `later Next ${x.runs.map((v) => v.laterNext!.ms.toFixed(0)).join(', ')} ms (${names(x.laterNext.requests)})\n`;
  return line('saving each page', f.saving) + line('from local JSON', f.local) + describeMobile('SurveyJS saving each page', f.savingOnMobile);
}

/** The widget's medians at RTT_MS, measured the same way, for the ratios. */
export interface WidgetMedians {
  start: number;
  /** The first question on the mobile link. */
  mobileStart: number;
  firstNext: number;
  laterNext: number;
}

/**
 * SurveyJS's rows and the ratios: the widget's first question against SurveyJS's where both get
 * the survey from a server, on the mobile link (budget 0.2×); the rest reported, not budgeted.
 * On the latency alone the budget cannot be met by any script its page fetches: 0.2× of
 * SurveyJS's time there is less than the one round trip the script's own request takes.
 */
export function surveyjsRows(f: SurveyJsFigures, widget: WidgetMedians): BenchRow[] {
  const at = `${RTT_MS} ms round trip, proxy`;
  const onMobile = `${RTT_MS} ms round trip and ${MOBILE_LINK.downKbps / 1024} Mbit/s down, ${MOBILE_LINK.upKbps} kbit/s up: Lighthouse's mobile link, proxy`;
  const savingMobile = byMs(f.savingOnMobile).ms;
  const info = (figure: string, value: number, unit: string): BenchRow => ({ figure, value, unit, budget: NaN, lowerIsBetter: true, informational: true });
  const { saving, local } = f;
  return [
    info(`SurveyJS saving each page: script start → first question (${at}; survey JSON from the server), median of ${SLOW_VISITS}`, saving.start.ms, 'ms'),
    info(`SurveyJS saving each page: first Next → next page shown (${at}), median of ${SLOW_VISITS}`, saving.firstNext.ms, 'ms'),
    info(`SurveyJS saving each page: later Next → next page shown (${at}), median of ${SLOW_VISITS}`, saving.laterNext.ms, 'ms'),
    info(`SurveyJS saving each page: requests per later Next, OPTIONS included (${at})`, saving.laterNext.requests.length, 'requests'),
    info(`SurveyJS from local JSON: script start → first question (${at}), median of ${SLOW_VISITS}`, local.start.ms, 'ms'),
    info(`SurveyJS from local JSON: later Next → next page shown (${at}), median of ${SLOW_VISITS}`, local.laterNext.ms, 'ms'),
    info(`widget: script start → first question (${onMobile}), median of ${SLOW_VISITS}`, widget.mobileStart, 'ms'),
    info(`SurveyJS saving each page: script start → first question (${onMobile}), median of ${SLOW_VISITS}`, savingMobile, 'ms'),
    {
      figure: `widget first question vs SurveyJS's saving each page (${onMobile}; same proxy, same survey)`,
      value: widget.mobileStart / savingMobile,
      unit: '×',
      budget: 0.2,
      lowerIsBetter: true,
    },
    info(
      `widget first question vs SurveyJS's saving each page (${at}, latency alone: one round trip is already ${(RTT_MS / saving.start.ms).toFixed(2)}× of SurveyJS's time)`,
      widget.start / saving.start.ms,
      '×',
    ),
    info(`widget first question vs SurveyJS's from local JSON (${at})`, widget.start / local.start.ms, '×'),
    info(`widget first Next vs SurveyJS's saving each page (${at})`, widget.firstNext / saving.firstNext.ms, '×'),
    info(`widget later Next vs SurveyJS's saving each page (${at})`, widget.laterNext / saving.laterNext.ms, '×'),
    info(`widget later Next vs SurveyJS's from local JSON (${at})`, widget.laterNext / local.laterNext.ms, '×'),
  ];
}
