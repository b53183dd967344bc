/**
 * A screen's requests start with its code, not after it: in Chromium over the built admin, a
 * click on Recruitment in the nav sends the funnel's requests while the screen's code (held back
 * here) is still on its way, the screen then uses those answers instead of asking again, and a
 * full load asks for each of its funnel queries once.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './browser';
import { signInAsAdmin } from './admin-session';
import { settled } from './settled';

const base = inject('baseUrl');
const RECRUITMENT_CODE = /\/assets\/Recruitment-[^/]*\.js$/;

let browser: Browser;
let page: Page;

// Long beside a loaded machine's own delays: the screen's code is held back from the start
// (the idle prefetch after sign-in fetches it too), so it is still on its way at the click.
const HELD_MS = 10_000;

beforeAll(async () => {
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1366, height: 860 } })).newPage();
  await page.route(RECRUITMENT_CODE, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, HELD_MS));
    await route.continue();
  });
  await signInAsAdmin(page, base);
});
afterAll(async () => {
  await browser?.close();
});

/** Each API call's path and query, with when it was sent; the screen code's arrival. */
function watch(p: Page) {
  const sent: { url: string; at: number }[] = [];
  let codeAt = Number.NaN;
  p.on('request', (r) => r.url().includes('/api/') && sent.push({ url: r.url().slice(r.url().indexOf('/api/')), at: Date.now() }));
  p.on('requestfinished', (r) => RECRUITMENT_CODE.test(r.url()) && (codeAt = Date.now()));
  return { sent, codeAt: () => codeAt };
}

const funnelCalls = (sent: { url: string }[]) => sent.filter((s) => s.url.startsWith('/api/recruitment-funnel')).map((s) => s.url);

/** A page in a context of its own, signed in, for `use`; the context closed after, passed or not. */
async function onFreshPage(use: (fresh: Page) => Promise<void>) {
  const fresh = await (await browser.newContext({ viewport: { width: 1366, height: 860 } })).newPage();
  try {
    await signInAsAdmin(fresh, base);
    await use(fresh);
  } finally {
    await fresh.context().close();
  }
}

/** Until the idle prefetch after sign-in has fetched the code `asset` matches, and the page is idle after it. */
async function prefetched(fresh: Page, asset: RegExp) {
  await fresh.waitForFunction((source) => performance.getEntriesByType('resource').some((e) => new RegExp(source).test(e.name)), asset.source, {
    timeout: 30_000,
  });
  await fresh.waitForLoadState('networkidle');
}

/** Every call Recruitment makes first, unfiltered and ungrouped: the funnel's total and trend, and the six filters' option lists. */
const RECRUITMENT_CALLS: [string, RegExp][] = [
  ['funnel total', /^\/api\/recruitment-funnel(\?(?!.*groupBy)|$)/],
  ['funnel trend', /^\/api\/recruitment-funnel\?.*groupBy=week/],
  ['sponsors', /^\/api\/sponsors\?(?=.*limit=1000)/],
  ['engagements', /^\/api\/engagements\?(?=.*limit=1000)/],
  ['screeners', /^\/api\/screeners\?(?=.*limit=1000)/],
  ['media channels', /^\/api\/media-channels\?(?=.*limit=1000)/],
  ['surveys', /^\/api\/o-forms\/o-forms\?(?=.*limit=1000)/],
  ['sites', /^\/api\/site-locations\?(?=.*limit=1000)/],
];

describe('asking ahead', () => {
  it("sends Recruitment's requests from the nav click while its code loads, and asks for none twice", async () => {
    const seen = watch(page);
    // Signed in a moment ago: the routes' calls (not their screens) are fetched while the page is idle.
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => /\/assets\/calls-[^/]*\.js$/.test(e.name)));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Recruitment' }).click();
    await page.getByRole('figure', { name: 'Recruitment funnel' }).waitFor({ timeout: 30_000 });
    const calls = funnelCalls(seen.sent);
    expect(calls.length).toBeGreaterThanOrEqual(2);
    // Every first call sent before the held-back code arrived: none waited for it.
    for (const [name, pattern] of RECRUITMENT_CALLS) {
      const sent = seen.sent.filter((s) => pattern.test(s.url));
      expect(sent.length, name).toBeGreaterThan(0);
      expect(sent[0]!.at, name).toBeLessThan(seen.codeAt());
    }
    // The screen took those answers: no query went out twice.
    expect(calls.length).toBe(new Set(calls).size);
    await page.unroute(RECRUITMENT_CODE);
  });

  it('asks once for each funnel query on a full load of Recruitment', async () => {
    const seen = watch(page);
    await page.goto(`${base}/recruitment`);
    await page.getByRole('table', { name: 'Funnel breakdown' }).getByRole('row').nth(1).waitFor();
    await page.getByRole('figure', { name: 'Recruitment funnel' }).waitFor();
    const calls = funnelCalls(seen.sent);
    // The total, its trend; ungrouped, the breakdown is the total's row, not asked for again.
    expect(calls.length).toBe(2);
    expect(new Set(calls).size).toBe(2);
  });
});

describe("Recruitment's calls", () => {
  it("all leave at the click, none waiting for another's answer, each once", async () => {
    await onFreshPage(async (fresh) => {
      // The idle prefetch after sign-in has the calls' code in memory, as a person's click finds it.
      await prefetched(fresh, /\/assets\/calls-[^/]*\.js$/);
      // No answer is let through until every first call has been sent: a call that waited for
      // another's answer would never be sent, and the gate would open only at its deadline.
      const sent: string[] = [];
      let openedBy: 'all sent' | 'deadline' | null = null;
      let open: (by: 'all sent' | 'deadline') => void = () => undefined;
      const gate = new Promise<void>((resolve) => {
        open = (by) => {
          openedBy ??= by;
          resolve();
        };
      });
      const deadline = setTimeout(() => open('deadline'), 20_000);
      await fresh.route(/\/api\//, async (route) => {
        const url = route.request().url();
        sent.push(url.slice(url.indexOf('/api/')));
        if (RECRUITMENT_CALLS.every(([, pattern]) => sent.some((s) => pattern.test(s)))) open('all sent');
        await gate;
        await route.continue();
      });
      await fresh.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Recruitment' }).click();
      await fresh.getByRole('figure', { name: 'Recruitment funnel' }).waitFor({ timeout: 40_000 });
      clearTimeout(deadline);
      expect(openedBy, sent.join('\n')).toBe('all sent');
      for (const [name, pattern] of RECRUITMENT_CALLS) expect(sent.filter((s) => pattern.test(s)).length, name).toBe(1);
    });
  });
});

describe("the engagement view's panels", () => {
  // Every panel the view shows first, the messages' settings and the leads within reach included.
  const PANELS = [
    '/api/engagements/',
    '/api/referrals/counts/',
    '/api/recruitment-funnel?',
    '/api/engagements-site-locations?',
    '/api/engagements-o-files?',
    '/api/message-settings?',
    '/api/leads?',
  ];
  const ENGAGEMENT = /\/api\/engagements\/\d+\?/;

  it("are all asked for at the click, none waiting for the engagement's answer, each once", async () => {
    await onFreshPage(async (fresh) => {
      await fresh.goto(`${base}/engagements`);
      const link = fresh.getByRole('main').getByRole('table').getByRole('link', { name: 'Healthy Heart Study', exact: true }).first();
      await link.waitFor({ timeout: 30_000 });
      // The engagement's own answer held back: a panel that waited for it would be asked only after.
      await fresh.route(ENGAGEMENT, async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await route.continue();
      });
      const sent: { url: string; at: number }[] = [];
      let engagementAt = Number.NaN;
      fresh.on('request', (r) => r.url().includes('/api/') && sent.push({ url: r.url().slice(r.url().indexOf('/api/')), at: Date.now() }));
      fresh.on('requestfinished', (r) => ENGAGEMENT.test(r.url()) && (engagementAt = Date.now()));
      await link.click();
      await fresh.getByRole('region', { name: 'Messages' }).getByRole('checkbox').first().waitFor({ timeout: 40_000 });
      await fresh.getByText(/leads? within reach$/).waitFor({ timeout: 30_000 });
      expect(engagementAt).toBeGreaterThan(0);
      for (const panel of PANELS) {
        const calls = sent.filter((s) => s.url.startsWith(panel));
        expect(calls.length, panel).toBe(1);
        expect(calls[0]!.at, panel).toBeLessThan(engagementAt);
      }
    });
  });
});

describe('code ahead', () => {
  it('has the work queue, Recruitment and the charts in memory once idle, so their clicks fetch no code', async () => {
    await onFreshPage(async (fresh) => {
      // The idle prefetch after sign-in: the charts' chunk is its last arrival worth waiting for.
      await prefetched(fresh, /\/assets\/Charts-[^/]*\.js$/);
      const code: string[] = [];
      fresh.on('request', (r) => r.url().includes('/assets/') && code.push(r.url()));
      const nav = fresh.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('link', { name: 'Referrals' }).click();
      await fresh.getByRole('table', { name: 'Referrals' }).getByRole('row').nth(1).waitFor({ timeout: 30_000 });
      await nav.getByRole('link', { name: 'Recruitment' }).click();
      await fresh.getByRole('figure', { name: 'Recruitment funnel' }).waitFor({ timeout: 30_000 });
      expect(code).toEqual([]);
    });
  });
});

describe("every nav screen's calls", () => {
  it('leave when its link is pointed at, so the click asks for nothing more', async () => {
    await onFreshPage(async (fresh) => {
      // The idle prefetch after sign-in: every route's calls and screen in memory, as a click finds them.
      await prefetched(fresh, /\/assets\/Charts-[^/]*\.js$/);
      await settled(fresh, 30_000);
      const sent: string[] = [];
      let inFlight = 0;
      fresh.on('request', (r) => {
        if (!r.url().includes('/api/')) return;
        sent.push(r.url().slice(r.url().indexOf('/api/')));
        inFlight++;
      });
      const done = (r: { url(): string }) => r.url().includes('/api/') && inFlight--;
      fresh.on('requestfinished', done);
      fresh.on('requestfailed', done);
      // Quiet: no API call in flight, and none started, for a while.
      const quiet = async () => {
        let seen = -1;
        for (let stable = 0; stable < 4; ) {
          await fresh.waitForTimeout(100);
          stable = inFlight === 0 && sent.length === seen ? stable + 1 : 0;
          seen = sent.length;
        }
      };
      const nav = fresh.getByRole('navigation', { name: 'Main' });
      const hrefs = await nav.getByRole('link').evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
      // The screen shown now last, so that each link is clicked from another screen.
      const here = new URL(fresh.url()).pathname;
      const order = [...hrefs.filter((h) => h !== here), ...hrefs.filter((h) => h === here)];
      expect(order.length).toBeGreaterThan(15);
      const missed: Record<string, string[]> = {};
      for (const href of order) {
        const link = nav.locator(`a[href="${href}"]`);
        await quiet();
        const before = sent.length;
        await link.hover();
        await quiet();
        const ahead = new Set(sent.slice(before));
        const clickedAt = sent.length;
        await link.click();
        await fresh.waitForURL((url) => url.pathname === href);
        await fresh.getByRole('main').first().waitFor();
        await settled(fresh, 30_000);
        await quiet();
        const after = sent.slice(clickedAt).filter((url) => !ahead.has(url));
        if (ahead.size === 0 || after.length > 0) missed[href] = ahead.size === 0 ? ['nothing asked ahead'] : after;
      }
      expect(missed).toEqual({});
    });
  });
});
