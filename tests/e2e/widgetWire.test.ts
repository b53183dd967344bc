/**
 * The widget's wire through a real round trip: Chromium on a partner's page (another origin,
 * strict CSP) reaches the server only through a proxy that adds 150 ms to every request and logs
 * each one, CORS preflights included (Chromium's own network emulation does not delay those).
 * The first question waits on two requests in a row (widget.js, then its module beside the
 * survey's start), each Next between pages is one request, and no OPTIONS goes out after the
 * run's first call. A reload on each page comes back to it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { startDemoBehindLatency, type DemoBehindLatency } from './demoOnPartner';
import { asParticipantOn, newParticipant } from './partnerSite';
import { sequentialTrips, type ProxiedRequest } from '../support/latencyProxy';
import { isPageSave, isPageTiming, isView } from '../support/participantWire';

const RTT_MS = 150;
const W = '[data-trial-widget]';

let wire: DemoBehindLatency;

beforeAll(async () => {
  wire = await startDemoBehindLatency(RTT_MS);
}, 120_000);

afterAll(async () => {
  await wire?.stop();
});

const heading = (page: Page, text: string | RegExp) => page.locator(`${W} h2`, { hasText: text }).waitFor();
const choose = (page: Page, label: string | RegExp) => page.locator(`${W} label`, { hasText: label }).click();
const zipInput = (page: Page) => page.locator(`${W} input[autocomplete=postal-code]`);
const line = (r: ProxiedRequest) => `${r.method} ${r.path.split('?')[0]!.replace(/\/\d+$/, '/:id')}`;

/** Clicks Next and answers every request made until `shown` is on screen (a page load's view apart). */
async function nextUntil(page: Page, shown: string | RegExp): Promise<string[]> {
  const from = wire.proxy.log.length;
  await page.locator(`${W} button[type=submit]`).click();
  await heading(page, shown);
  return wire.proxy.log
    .slice(from)
    .filter((r) => !isView(r))
    .map(line);
}

/**
 * Clicks Next and answers when `shown` was first on screen (epoch ms, checked every frame) and
 * the page save the Next sent, once the proxy has answered it.
 */
async function nextShown(page: Page, shown: string): Promise<{ at: number; save: ProxiedRequest; requests: string[] }> {
  const from = wire.proxy.log.length;
  await page.locator(`${W} button[type=submit]`).click();
  const handle = await page.waitForFunction(
    (want) =>
      document.querySelector('[data-trial-widget]')?.shadowRoot?.querySelector('h2')?.textContent?.trim() === want
        ? performance.timeOrigin + performance.now()
        : false,
    shown,
    { polling: 'raf' },
  );
  const at = (await handle.jsonValue()) as number;
  const save = await vi.waitFor(
    () => {
      const sent = wire.proxy.log.slice(from).find((r) => isPageSave(r) && r.done !== undefined);
      if (!sent) throw new Error('the save is not answered yet');
      return sent;
    },
    { timeout: 10_000 },
  );
  return {
    at,
    save,
    requests: wire.proxy.log
      .slice(from)
      .filter((r) => !isView(r) && !isPageTiming(r))
      .map(line),
  };
}

/** The latest longest chain of requests each sent after the previous one's answer, among those answered by `until` (epoch ms). */
const sequential = (requests: ProxiedRequest[], until: number): string[] => sequentialTrips(requests, until).map(line);

describe('the widget through a 150 ms round trip', () => {
  it('shows the first question after two requests in a row, then one request per Next and no OPTIONS', async () => {
    const { context, page, problems } = await newParticipant(wire.demo.browser);
    try {
      const from = wire.proxy.log.length;
      await page.goto(wire.partnerUrl);
      // Checked every frame: the first frame with the question, on the machine's clock.
      const shown = await page.waitForFunction(
        () => (document.querySelector('[data-trial-widget]')?.shadowRoot?.querySelector('legend') ? performance.timeOrigin + performance.now() : false),
        undefined,
        { polling: 'raf' },
      );
      const shownAt = (await shown.jsonValue()) as number;
      const start = wire.proxy.log.slice(from);
      const chain = sequential(start, shownAt);
      expect(chain, chain.join(' → ')).toHaveLength(2);
      expect(chain[0]).toBe('GET /widget.js');
      expect(start.filter((r) => r.path.startsWith('/api/o-forms/participant-start')).map(line)).toEqual(['GET /api/o-forms/participant-start']);

      // About you (an answer there can disqualify) → Your heart health → Where you live.
      await choose(page, '18 to 64');
      await choose(page, /^Yes$/);
      const runStarts = wire.proxy.log.length;
      // The first Next is one request: the submission, made with the page's entry and its
      // answers saved. An answer there can disqualify: the next page shows only once it is answered.
      const first = await nextShown(page, 'Your heart health');
      expect(first.requests).toEqual(['POST /api/o-forms/o-form-submissions']);
      // (The proxy stamps an answer as it finishes sending it, a few ms after the browser may
      // have it: a third of the round trip is the slack, the other way round is a whole one.)
      expect(first.at).toBeGreaterThan(first.save.done! - RTT_MS / 3);
      // Nothing answered on "Your heart health" can end the run: "Where you live" shows before
      // the save's answer comes back through the proxy, and the save is still the one request.
      const ahead = await nextShown(page, 'Where you live');
      expect(ahead.at).toBeLessThan(ahead.save.done!);
      expect(ahead.requests).toEqual(['POST /api/o-forms/o-form-submission-page/:id']);
      await zipInput(page).fill('10001');
      // The last page's Next: its save, the qualification and the sites near the ZIP (in the body).
      expect(await nextUntil(page, 'Choose a study site')).toEqual([
        'POST /api/o-forms/o-form-submission-page/:id',
        'POST /api/o-forms/o-form-submission-qualification/:id',
        'POST /api/o-forms/o-form-submission-sites/:id',
      ]);
      // Each page's timing rode in its save: no call of its own, and not one OPTIONS in the run.
      await page.locator(`${W} .tw-site`).first().waitFor();
      const run = wire.proxy.log.slice(runStarts);
      expect(run.filter(isPageTiming).map(line)).toEqual([]);
      expect(run.filter((r) => r.method === 'OPTIONS').map(line)).toEqual([]);
      expect(run.filter((r) => r.path.includes('10001')).map(line)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('comes back to each page after a reload and carries on to the sites', async () => {
    await asParticipantOn(wire.demo.browser, wire.partnerUrl, async ({ page, problems }) => {
      await choose(page, '18 to 64');
      await choose(page, /^Yes$/);
      await nextUntil(page, 'Your heart health');
      const runStarts = wire.proxy.log.length;
      await page.reload();
      await heading(page, 'Your heart health');
      // Shown ahead of its save's answer; reloaded once the save is answered, it comes back there.
      expect((await nextShown(page, 'Where you live')).requests).toEqual(['POST /api/o-forms/o-form-submission-page/:id']);
      await page.reload();
      await heading(page, 'Where you live');
      await zipInput(page).fill('10001');
      // Qualified near the demo's New York sites: the sites step follows the survey, every call a simple POST.
      expect(await nextUntil(page, 'Choose a study site')).toEqual([
        'POST /api/o-forms/o-form-submission-page/:id',
        'POST /api/o-forms/o-form-submission-qualification/:id',
        'POST /api/o-forms/o-form-submission-sites/:id',
      ]);
      expect(await page.locator(`${W} .tw-site`).count()).toBe(3);
      // The resumes read the kept answers without a preflight either.
      expect(
        wire.proxy.log
          .slice(runStarts)
          .filter((r) => r.method === 'OPTIONS')
          .map(line),
      ).toEqual([]);
      expect(problems).toEqual([]);
    });
  });
});
