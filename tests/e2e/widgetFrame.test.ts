/**
 * A framed channel (`isolation: frame`) on a partner's article page built from the files beside
 * this test (tests/e2e/frame/), served from another origin than the product under the CSP the
 * snippet panel gives a framed channel: the whole run happens in the product's iframe, which
 * fits its content; the page's scripts read no question and no answer; host events reach the
 * page's document under the channel's policy; and a page of another origin cannot show it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { asc, gt, max } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FrameLocator, Page } from 'playwright-core';
import { embedSnippet, partnerCspSources, type ChannelIsolation } from '@core/model/mediaChannel';
import { startDemoOnPartner, type DemoOnPartner } from './demoOnPartner';
import { newParticipant, startPartnerSite, type PartnerSite } from './partnerSite';
import { adminToken, apiCaller } from './admin-session';
import { answerDemoByLabel } from './demoWidget';
import { expectSameEventsEitherWay, recordHostEvents } from './hostEvents';
import { oFormSubmissions } from '../../server/db/schema';

let demo: DemoOnPartner;
let api: ReturnType<typeof apiCaller>;
let other: PartnerSite;
let isolation: ChannelIsolation;
/** The last submission the demo data holds: the runs of this file come after it. */
let seeded = 0;

const beside = (name: string) => fs.readFileSync(path.join(import.meta.dirname, 'frame', name), 'utf8');

/** The partner's policy: its own origin, and what the snippet panel says a framed channel needs (no connect-src: the page makes no call). */
function partnerCsp(apiUrl: string) {
  const widget = partnerCspSources(apiUrl, 'frame');
  return `default-src 'self'; script-src 'self' ${widget['script-src']}; frame-src ${widget['frame-src']}; style-src 'self'; style-src-attr 'unsafe-inline'`;
}

/** The article with the channel's snippet as the admin shows it, on `site`. */
function article(site: PartnerSite, pathname: string): string {
  site.asset('/frame-article.css', 'text/css', beside('frame-article.css'));
  site.asset('/snoop.js', 'text/javascript', beside('snoop.js'));
  const html = beside('article.html').replace('{{WIDGET}}', embedSnippet(demo.server.url, demo.channelId, demo.screenerId, [], isolation));
  return site.page(pathname, html, partnerCsp(demo.server.url));
}

beforeAll(async () => {
  demo = await startDemoOnPartner({
    prepare: async (db) => {
      seeded = (await db.select({ last: max(oFormSubmissions.id) }).from(oFormSubmissions))[0]?.last ?? 0;
    },
  });
  const token = await adminToken(demo.server.url);
  api = apiCaller(demo.server.url, () => token);
  const patched = await api(`media-channels/${demo.channelId}`, {
    method: 'PATCH',
    body: JSON.stringify({ data: { type: 'media-channels', id: demo.channelId, attributes: { isolation: 'frame' } } }),
  });
  isolation = patched.data.attributes.isolation;
  other = await startPartnerSite(demo.server.url, 'elsewhere.localhost');
}, 120_000);

afterAll(async () => {
  await other?.close();
  await demo?.stop();
});

const W = '[data-trial-widget]';

/** A participant on the article (at `pathname`, then `rest`: a query or fragment) whose page records every widget event a tag manager could hear on its document. */
async function onArticle(pathname: string, before?: (p: Page) => void, rest = '') {
  const participant = await newParticipant(demo.browser);
  before?.(participant.page);
  const events = await recordHostEvents(participant.page);
  await participant.page.goto(article(demo.partner, pathname) + rest);
  return { ...participant, events, frame: participant.page.frameLocator(`${W} iframe`) };
}

/** The iframe's height against the widget's inside it and the element's reserved height; and whether the frame scrolls. */
async function fit(p: Page) {
  const outer = await p.evaluate((sel) => {
    const iframe = document.querySelector(`${sel} iframe`)!;
    return { iframe: iframe.getBoundingClientRect().height, reserved: parseFloat(getComputedStyle(iframe).minHeight) };
  }, W);
  const inner = await p
    .frames()[1]!
    .evaluate(
      (sel) => ({ widget: document.querySelector(sel)!.getBoundingClientRect().height, scrolls: document.documentElement.scrollHeight > innerHeight }),
      W,
    );
  return { ...outer, ...inner };
}

async function expectFitted(p: Page) {
  await expect
    .poll(async () => {
      const f = await fit(p);
      return Math.abs(f.iframe - Math.max(f.reserved, Math.ceil(f.widget))) <= 1 && !f.scrolls;
    })
    .toBe(true);
  return fit(p);
}

/** Answers the demo survey in the frame, qualified (through contact and consent) or not (declining the lead form), the frame's height at each page (and at a qualified outcome) pushed onto `heights`. */
async function run(frame: FrameLocator, qualified: boolean, p: Page, heights: number[]) {
  const measure = async () => {
    heights.push((await expectFitted(p)).iframe);
  };
  await answerDemoByLabel(frame, { qualified, person: { first: 'Ada', last: 'Quinn', email: 'ada.quinn@example.com', phone: '212-555-0142' }, shown: measure });
  if (qualified) await measure();
}

/** What the partner page's address carries besides its path and campaign: never stored. */
const PAGE_SECRET = 'reader@partner.example';
const QUESTION_TEXT = [
  'About you',
  'How old are you',
  '18 to 64',
  'Your heart health',
  'Blood pressure pills',
  'Your contact details',
  'privacy notice',
  'Thank you',
];
const ANSWERS = ['pills', '10001', 'Ada', 'Quinn', 'ada.quinn@example.com', '212-555-0142', '2125550142'];

describe("a framed channel's widget on a partner's page", () => {
  it("completes a qualified run inside the product's frame, which fits its content, and the page's scripts read none of it", async () => {
    expect(isolation).toBe('frame');
    const requests: string[] = [];
    const {
      context,
      page: p,
      problems,
      frame,
    } = await onArticle(
      '/framed-qualified',
      (page) =>
        // The page's own requests, and the navigation of its frame (which Playwright gives to the frame).
        page.on(
          'request',
          (r) =>
            void (r.frame() === page.mainFrame() || (r.isNavigationRequest() && r.frame().parentFrame() === page.mainFrame())
              ? requests.push(r.url())
              : undefined),
        ),
      // A campaign parameter the run keeps, and a query and fragment it never stores (the last test reads the database).
      `?utm_campaign=winter&email=${encodeURIComponent(PAGE_SECRET)}#${PAGE_SECRET}`,
    );
    const heights: number[] = [];
    await run(frame, true, p, heights);
    // The frame followed its content: not one height for every step, never below the reserved height.
    expect(new Set(heights).size).toBeGreaterThan(1);
    const reserved = (await fit(p)).reserved;
    expect(reserved).toBeCloseTo(26 * 16, 0);
    for (const h of heights) expect(h).toBeGreaterThanOrEqual(reserved - 0.5);
    // The frame is the product's page; the partner's page loaded widget.js and the frame builder, not the widget, and called no API.
    expect(p.frames()[1]!.url()).toMatch(new RegExp(`^${demo.server.url}/embed/frame\\?`));
    expect(requests.filter((u) => u.startsWith(demo.server.url)).map((u) => new URL(u).pathname.replace(/-[\w-]+\.js$/, '.js'))).toEqual([
      '/widget.js',
      '/widget/frame.js',
      '/embed/frame',
    ]);
    const seen = await p.evaluate(() =>
      (window as unknown as { __snoop(): { text: string; html: string; contentDocument: string; windowDocument: string } }).__snoop(),
    );
    expect(seen.contentDocument).toBe('null');
    expect(seen.windowDocument).toBe('refused: SecurityError');
    for (const secret of [...QUESTION_TEXT, ...ANSWERS]) {
      expect(seen.text, secret).not.toContain(secret);
      expect(seen.html, secret).not.toContain(secret);
    }
    // The page around it did not move: the text after the widget sits below the frame.
    expect(
      await p.evaluate(
        () =>
          document.getElementById('after')!.getBoundingClientRect().top >= document.querySelector('[data-trial-widget] iframe')!.getBoundingClientRect().bottom,
      ),
    ).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('relays the same host events to the page under minimal for a qualified and a disqualified run: view, start, finish', async () => {
    await expectSameEventsEitherWay(async (qualified) => {
      const participant = await onArticle(`/framed-events-${qualified}`);
      await run(participant.frame, qualified, participant.page, []);
      return participant;
    });
  });

  it("cannot be shown by a page of another origin than the channel's domain", async () => {
    // The snippet pasted on another site: the frame's page refuses that origin, and shows no survey.
    const { context, page: p, consoleErrors } = await newParticipant(demo.browser);
    const refused = p.waitForResponse((r) => r.url().startsWith(`${demo.server.url}/embed/frame?`));
    await p.goto(article(other, '/copied'));
    const answer = await refused;
    expect(answer.status()).toBe(403);
    expect(await answer.text()).toContain(`Pages of ${other.url} may not show this survey: its media channel allows pages of partner.localhost only.`);
    // A page that names the channel's partner as its origin: served, and refused by the browser (frame-ancestors).
    const forged = `${demo.server.url}/embed/frame?origin=${encodeURIComponent(demo.partner.url)}&path=/copied&media-channel-id=${demo.channelId}&screener-id=${demo.screenerId}`;
    const page = other.page(
      '/forged',
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Copy</title></head><body><iframe title="copy" src="${forged}"></iframe></body></html>`,
      `default-src 'self'; frame-src ${demo.server.url}`,
    );
    await p.goto(page);
    await expect.poll(() => consoleErrors.some((e) => /frame-ancestors/.test(e))).toBe(true);
    for (const f of p.frames().slice(1))
      expect(
        await f
          .locator('h2')
          .count()
          .catch(() => 0),
      ).toBe(0);
    await context.close();
  });

  // Last: it stops the server to read the database.
  it("stores each framed run with the partner page's origin and path, not the frame's", async () => {
    await demo.server.stop();
    const { openDatabase } = await import('../../server/db/open');
    const database = await openDatabase({ databaseUrl: null, dataDir: demo.server.dataDir });
    try {
      const stored = await database.db
        .select({ page: oFormSubmissions.mediaChannelUrl, utm: oFormSubmissions.utm })
        .from(oFormSubmissions)
        .where(gt(oFormSubmissions.id, seeded))
        .orderBy(asc(oFormSubmissions.id));
      // The runs above, in order: the qualified one (its campaign kept, the rest of its query and its fragment not), then the events' two.
      expect(stored).toEqual([
        { page: `${demo.partner.url}/framed-qualified`, utm: { utm_campaign: 'winter' } },
        { page: `${demo.partner.url}/framed-events-true`, utm: {} },
        { page: `${demo.partner.url}/framed-events-false`, utm: {} },
      ]);
      expect(JSON.stringify(stored)).not.toContain(PAGE_SECRET);
    } finally {
      await database.close();
    }
  });
});
