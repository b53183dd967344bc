/**
 * A click in the admin to a screen that can be used, in Chromium over the built bundles and the
 * demo data (DEMO_DATA=true): from a nav link (Sponsors, Recruitment, Referrals) or, for the
 * engagement view, from its link in the Engagements list, to the screen's content shown with
 * nothing on it still loading (no aria-busy, no loading status). Each visit is a fresh browser
 * context (empty cache, the screen's code not yet loaded), signed in through its cookies, that
 * first opens another screen and lets it settle (and idle); the median of the visits is held to
 * 400 ms. Loopback, PGlite: the figure is the admin's own waiting (code, then data, or both at once).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../tests/e2e/browser';
import { settled } from '../tests/e2e/settled';
import { ensureBuilt } from '../server/bundles';
import { BENCH_PASSWORD, benchServer, type BenchRow } from './harness';

const VISITS = 7;
const BUDGET_MS = 400;

interface Target {
  name: string;
  /** Where the visit starts (a screen with other code). */
  from: string;
  /** The link clicked, found by its accessible name within `within`. */
  link: { within: string; name: string | RegExp };
  /** A CSS selector present once the screen's content is shown. */
  ready: string;
}

const NAV = 'nav[aria-label="Main"]';
const TARGETS: Target[] = [
  { name: 'Sponsors', from: '/about', link: { within: NAV, name: 'Sponsors' }, ready: 'main table tbody tr a' },
  { name: 'Engagement view', from: '/engagements', link: { within: 'main table tbody', name: 'Healthy Heart Study' }, ready: 'figure.funnel-chart' },
  { name: 'Recruitment', from: '/sponsors', link: { within: NAV, name: 'Recruitment' }, ready: 'figure.funnel-chart' },
  { name: 'Referrals', from: '/sponsors', link: { within: NAV, name: 'Referrals' }, ready: 'main table tbody tr' },
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** ms from the click to the screen shown and settled, read off the page's own clock. */
async function visit(context: BrowserContext, base: string, target: Target): Promise<number | null> {
  const page: Page = await context.newPage();
  try {
    await page.goto(`${base}${target.from}`);
    await page.locator('main').first().waitFor();
    await settled(page, 30_000);
    // As a person would: the page has been idle a moment before the click.
    await page.waitForTimeout(1500);
    const link = page
      .locator(target.link.within)
      .getByRole('link', { name: target.link.name, exact: typeof target.link.name === 'string' })
      .first();
    if ((await link.count()) === 0) return null;
    await page.evaluate(() => {
      document.addEventListener('click', () => ((window as unknown as { clickedAt: number }).clickedAt = performance.now()), { capture: true, once: true });
    });
    await link.click();
    const shownAt = await page.waitForFunction(
      ({ ready, from }) =>
        location.pathname !== from && document.querySelector(ready) && !document.querySelector('[aria-busy="true"], .loading[role="status"]')
          ? performance.now()
          : null,
      { ready: target.ready, from: target.from },
      { polling: 'raf', timeout: 30_000 },
    );
    return ((await shownAt.jsonValue()) as number) - (await page.evaluate(() => (window as unknown as { clickedAt: number }).clickedAt));
  } finally {
    await page.close();
  }
}

export default async function adminNav(): Promise<BenchRow[]> {
  const root = path.resolve(import.meta.dirname, '..');
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-admin-dist-'));
  await ensureBuilt(root, (msg) => process.stderr.write(`bench: ${msg}\n`), dist);
  const server = await benchServer('pglite', async () => {}, { DEMO_DATA: 'true', DIST_DIR: dist });
  let browser: Browser | undefined;
  try {
    browser = await launchBrowser();
    const signIn = await browser.newContext({ viewport: { width: 1366, height: 860 } });
    const page = await signIn.newPage();
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill(BENCH_PASSWORD);
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    await page.waitForURL(`${server.url}/sponsors`);
    const storageState = await signIn.storageState();
    await signIn.close();

    const rows: BenchRow[] = [];
    for (const target of TARGETS) {
      // One unmeasured visit: the server's first answers (compression, query plans) are not the user's.
      const times: number[] = [];
      for (let i = 0; i <= VISITS; i++) {
        const context = await browser.newContext({ viewport: { width: 1366, height: 860 }, storageState });
        const ms = await visit(context, server.url, target).finally(() => context.close());
        if (ms === null) break;
        if (i > 0) times.push(ms);
      }
      if (times.length === 0) {
        process.stderr.write(`bench: admin nav — no link to ${target.name} in this build\n`);
        continue;
      }
      process.stderr.write(`bench: admin nav → ${target.name}: ${times.map((t) => t.toFixed(0)).join(', ')} ms\n`);
      rows.push({
        figure: `admin: nav click → screen usable, ${target.name} (pglite, demo data), median of ${VISITS}`,
        value: median(times),
        unit: 'ms',
        budget: BUDGET_MS,
        lowerIsBetter: true,
      });
    }
    return rows;
  } finally {
    await browser?.close();
    await server.close();
    fs.rmSync(dist, { recursive: true, force: true });
  }
}
