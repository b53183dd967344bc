/**
 * The widget on partner pages that break what a script usually takes for granted: host
 * prototypes changed by an old library, Trusted Types, a right-to-left page, a reader's own
 * default font size, a single-page app's route changes, a session-replay recorder. Each page is built here from the files beside this test
 * (tests/e2e/anyPage/) and served by the partner site of another origin under the strict CSP
 * partners are told to use.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startDemoWithAdmin, type DemoOnPartner } from './demoOnPartner';
import { embedSnippet, partnerCspText, partnerTrustedTypesText } from '@core/model/mediaChannel';
import { newParticipant, snippet } from './partnerSite';
import type { apiCaller } from './admin-session';

let demo: DemoOnPartner;
let api: ReturnType<typeof apiCaller>;

beforeAll(async () => {
  ({ demo, api } = await startDemoWithAdmin());
}, 120_000);

const submissionsStarted = async () =>
  (await api<{ data: { attributes: { submissionsStarted: number } } }>(`media-channels/${demo.channelId}`)).data.attributes.submissionsStarted;

afterAll(async () => {
  await demo?.stop();
});

const W = '[data-trial-widget]';
const page = (body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Partner</title>${head}</head><body>${body}</body></html>`;
const beside = (name: string) => fs.readFileSync(path.join(import.meta.dirname, 'anyPage', name), 'utf8');
const widget = (extra = '') => `<div data-trial-widget></div>${snippet(demo.server.url, demo.channelId, demo.screenerId, extra)}`;

/** How a test works the widget: Playwright's locators, or (closed shadow root) a participant's mouse and keyboard. */
interface Driver {
  waitFor(selector: string, text: RegExp): Promise<void>;
  click(selector: string, text?: RegExp): Promise<void>;
  fill(label: string, value: string): Promise<void>;
}

const locators = (p: Page): Driver => ({
  waitFor: (selector, text) => p.locator(`${W} ${selector}`, { hasText: text }).waitFor(),
  click: (selector, text) => p.locator(`${W} ${selector}`, text ? { hasText: text } : {}).click(),
  fill: (label, value) => p.getByLabel(label).fill(value),
});

/**
 * A participant working a widget in a closed shadow root, which neither the page's scripts nor
 * Playwright's locators can enter. Chromium's DevTools protocol can (it is the browser, not the
 * page): it finds the closed root and tells where an element is; the clicks and the typing are
 * the participant's own, through the mouse and the keyboard.
 */
async function closedDriver(p: Page): Promise<Driver> {
  const cdp = await p.context().newCDPSession(p);
  let root: string | undefined;
  const shadowRoot = async () => {
    if (root) return root;
    type Node = { nodeName: string; attributes?: string[]; children?: Node[]; shadowRoots?: (Node & { backendNodeId: number })[] };
    const { root: document } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as { root: Node };
    const find = (n: Node): Node | undefined => (n.attributes?.includes('data-trial-widget') ? n : n.children?.map(find).find(Boolean));
    const host = find(document);
    if (!host?.shadowRoots?.[0]) throw new Error('no widget with a shadow root yet');
    root = ((await cdp.send('DOM.resolveNode', { backendNodeId: host.shadowRoots[0].backendNodeId })) as { object: { objectId: string } }).object.objectId;
    return root;
  };
  // The element of `selector` whose text matches, scrolled into view: its centre, or null.
  const centre = async (selector: string, text?: RegExp) => {
    const { result } = (await cdp.send('Runtime.callFunctionOn', {
      objectId: await shadowRoot(),
      functionDeclaration: `function (selector, source, flags) {
        const el = [...this.querySelectorAll(selector)].find((e) => source == null || new RegExp(source, flags).test(e.textContent));
        if (!el) return null;
        el.scrollIntoView({ block: 'center' });
        const box = el.getBoundingClientRect();
        return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
      }`,
      arguments: [{ value: selector }, { value: text?.source ?? null }, { value: text?.flags ?? '' }],
      returnByValue: true,
    })) as { result: { value: { x: number; y: number } | null } };
    return result.value;
  };
  const waitFor = async (selector: string, text?: RegExp) => {
    await expect.poll(async () => !!(await centre(selector, text).catch(() => null))).toBe(true);
    return (await centre(selector, text))!;
  };
  return {
    waitFor: async (selector, text) => void (await waitFor(selector, text)),
    async click(selector, text) {
      const at = await waitFor(selector, text);
      await p.mouse.click(at.x, at.y);
    },
    async fill(label, value) {
      // The label's own control: a click on a label focuses it.
      const at = await waitFor('label', new RegExp(`^${label}`));
      await p.mouse.click(at.x, at.y);
      await p.keyboard.type(value);
    },
  };
}

/** Answers the demo survey as a qualified participant (a multiple-choice answer on its second page) through to the outcome. */
async function qualifiedRun(d: Driver, contact = { first: 'Ada', last: 'Quinn', email: 'ada.quinn@example.com', phone: '212-555-0142' }) {
  await d.waitFor('h2', /About you/);
  await d.click('label', /18 to 64/);
  await d.click('label', /^Yes$/);
  await d.click('button[type=submit]');
  await d.waitFor('h2', /Your heart health/);
  await d.click('label', /Blood pressure pills/);
  await d.click('button[type=submit]');
  await d.waitFor('h2', /Where you live/);
  await d.fill('Your ZIP code', '10001');
  await d.click('button[type=submit]');
  await d.waitFor('h2', /Choose a study site/);
  await d.click('button[type=submit]');
  await d.waitFor('h2', /Your contact details/);
  await d.fill('First name', contact.first);
  await d.fill('Last name', contact.last);
  await d.fill('Email', contact.email);
  await d.fill('Phone', contact.phone);
  await d.click('button[type=submit]');
  await d.waitFor('h2', /Consent/);
  // The screener's message is staff HTML, shown as HTML (whatever the page's Trusted Types).
  await d.waitFor('.tw-html em', /privacy notice/);
  await d.click('label', /I accept the terms and conditions\./);
  await d.click('button[type=submit]');
  await d.waitFor('[data-outcome=completed]', /./);
}

describe('the widget on any partner page', () => {
  it("sends a multiple-choice answer as a list on a page whose prototypes and JSON.stringify are a library's (Prototype.js)", async () => {
    demo.partner.asset('/prototype-js.js', 'text/javascript', beside('prototypeJs.js'));
    const url = demo.partner.page('/prototype-js', page(widget(), '<script src="/prototype-js.js"></script>'));
    const { context, page: p, problems } = await newParticipant(demo.browser);
    const sent: unknown[] = [];
    p.on('request', (r) => void (r.method() === 'PATCH' || r.method() === 'POST' ? sent.push(r.postData()) : undefined));
    await p.goto(url);
    // The page's own serialization is what the library made of it: an array is a string there.
    expect(await p.evaluate(() => JSON.parse(JSON.stringify({ a: ['x'] })).a)).toBe('["x"]');
    await p.locator(`${W} h2`, { hasText: 'About you' }).waitFor();
    const hostCalls = await p.evaluate(() => (window as unknown as { __hostStringify?: number }).__hostStringify ?? 0);
    await qualifiedRun(locators(p));
    // The answer went as a list, and nothing the widget sent or kept went through the page's JSON.stringify.
    expect(sent.some((body) => typeof body === 'string' && body.includes('"demo-treatment":["pills"]'))).toBe(true);
    expect(await p.evaluate(() => (window as unknown as { __hostStringify?: number }).__hostStringify ?? 0)).toBe(hostCalls);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('completes a qualified run under Trusted Types and exactly the CSP partners are told to add, with no violation', async () => {
    // The partner's own policy: nothing but its own origin, what the snippet panel says, and Trusted Types enforced.
    const csp = `default-src 'self'; ${partnerCspText(demo.server.url)}; require-trusted-types-for 'script'; ${partnerTrustedTypesText}`;
    const url = demo.partner.page('/trusted-types', page(widget()), csp);
    const { context, page: p, problems } = await newParticipant(demo.browser);
    await p.goto(url);
    await qualifiedRun(locators(p));
    expect(problems).toEqual([]);
    // Trusted Types were in force: the page itself cannot assign a string to innerHTML.
    expect(
      await p.evaluate(() => {
        try {
          document.body.innerHTML = '<b>x</b>';
          return 'assigned';
        } catch {
          return 'refused';
        }
      }),
    ).toBe('refused');
    await context.close();
  });

  it("writes an English survey left to right on a right-to-left page, its text sized from the reader's default font size", async () => {
    demo.partner.asset('/rtl.css', 'text/css', beside('rtl.css'));
    const url = demo.partner.page(
      '/rtl',
      `<!doctype html><html lang="ar" dir="rtl"><head><meta charset="utf-8"><title>شريك</title><link rel="stylesheet" href="/rtl.css"></head><body><p>مقال الشريك</p>${widget()}</body></html>`,
    );
    const { context, page: p, problems } = await newParticipant(demo.browser);
    // The reader chose a larger default font size in the browser's settings.
    const cdp = await context.newCDPSession(p);
    await cdp.send('Page.setFontSizes', { fontSizes: { standard: 20 } });
    await p.goto(url);
    await p.locator(`${W} h2`, { hasText: 'About you' }).waitFor();
    const seen = await p.evaluate((sel) => {
      const root = document.querySelector(sel)!.shadowRoot!;
      const card = root.querySelector('.tw-card')!;
      const box = card.getBoundingClientRect();
      const legend = root.querySelector('legend')!.getBoundingClientRect();
      const next = root.querySelector('button[type=submit]')!.getBoundingClientRect();
      return {
        pageDirection: getComputedStyle(document.body).direction,
        dir: card.getAttribute('dir'),
        direction: getComputedStyle(card).direction,
        // Left to right: the question starts at the card's left edge, Next ends at its right.
        legendFromLeft: Math.round(legend.left - box.left),
        nextFromRight: Math.round(box.right - next.right),
        title: getComputedStyle(root.querySelector('.tw-title')!).fontSize,
        body: getComputedStyle(card).fontSize,
      };
    }, W);
    expect(seen).toEqual({ pageDirection: 'rtl', dir: 'ltr', direction: 'ltr', legendFromLeft: 21, nextFromRight: 21, title: '23px', body: '20px' });
    expect(problems).toEqual([]);
    await context.close();
  });

  it("continues the same run when a single-page app leaves the survey's route and comes back", async () => {
    demo.partner.asset('/spa-app.js', 'text/javascript', beside('spaApp.js'));
    const url = demo.partner.page(
      '/spa-survey',
      page(
        `<main id="app"></main><script src="/spa-app.js" data-widget="${demo.server.url}/widget.js" data-channel="${demo.channelId}" data-screener="${demo.screenerId}"></script>`,
      ),
    );
    const before = await submissionsStarted();
    const { context, page: p, problems } = await newParticipant(demo.browser);
    await p.goto(url);
    await p.locator(`${W} h2`, { hasText: 'About you' }).waitFor();
    await p.locator(`${W} label`, { hasText: '18 to 64' }).click();
    await p.locator(`${W} label`, { hasText: /^Yes$/ }).click();
    await p.locator(`${W} button[type=submit]`).click();
    await p.locator(`${W} h2`, { hasText: 'Your heart health' }).waitFor();
    const stored = () => p.evaluate(() => Object.entries(sessionStorage).map(([key, value]) => [key, JSON.parse(value).submissionId as string]));
    const run = await stored();
    expect(run).toHaveLength(1);

    // Away to the article, and back: the snippet runs again and the participant is where they were.
    await p.evaluate(() => (window as unknown as { spaGo(route: string): void }).spaGo('article'));
    await p.locator('#article').waitFor();
    await p.evaluate(() => (window as unknown as { spaGo(route: string): void }).spaGo('survey'));
    await p.locator(`${W} h2`, { hasText: 'Your heart health' }).waitFor();
    expect(await p.locator(W).count()).toBe(1);
    expect(await stored()).toEqual(run);

    await p.locator(`${W} label`, { hasText: 'Blood pressure pills' }).click();
    await p.locator(`${W} button[type=submit]`).click();
    await p.locator(`${W} h2`, { hasText: 'Where you live' }).waitFor();
    expect(await stored()).toEqual(run);
    await expect.poll(submissionsStarted).toBe(before + 1);
    expect(problems).toEqual([]);
    await context.close();
  });

  // A recorder that honours the widget's markers gets nothing; one told another block class still
  // gets no text of the widget's tree (the closed root), but the values the widget's inputs are
  // given reach any hook a page script put on the inputs' prototype setters (rrweb has them): only
  // frame isolation keeps those from the page.
  const QUESTION_TEXT = ['About you', 'How old are you', '18 to 64', 'Your heart health', 'Blood pressure pills', 'Your contact details', 'privacy notice'];
  const ANSWERS = ['pills', '10001', 'Ada', 'Quinn', 'ada.quinn@example.com', '212-555-0142', '2125550142'];
  it.each([
    { recorder: 'honouring the markers', blockClass: '', secrets: [...QUESTION_TEXT, ...ANSWERS] },
    { recorder: 'ignoring the markers', blockClass: 'not-the-widgets', secrets: QUESTION_TEXT },
  ])("lives in a closed shadow root: the page's scripts and an rrweb recorder $recorder get none of the run's text", async ({ blockClass, secrets }) => {
    demo.partner.asset('/rrweb.js', 'text/javascript', fs.readFileSync(path.resolve(import.meta.dirname, '../../node_modules/rrweb/dist/rrweb.umd.min.cjs')));
    demo.partner.asset('/record.js', 'text/javascript', beside('record.js'));
    // The partner's policy, with what the recorder itself needs: its scripts, and style attributes for its own elements.
    const csp = `default-src 'self'; script-src 'self' ${demo.server.url}; connect-src ${demo.server.url}; style-src 'self'; style-src-attr 'unsafe-inline'`;
    const head = `<script src="/rrweb.js"></script><script src="/record.js"${blockClass ? ` data-block-class="${blockClass}"` : ''}></script>`;
    const url = demo.partner.page(`/recorded-${blockClass}`, page(`<h1>Partner article on heart health</h1>${widget()}`, head), csp);
    // Without the tests' way into closed roots: the page as partners' visitors get it.
    const { context, page: p, problems } = await newParticipant(demo.browser, { closedRoots: true });
    await p.goto(url);
    const d = await closedDriver(p);
    await d.waitFor('h2', /About you/);
    // What any script of the page can see of the question on screen: the host, and no way in.
    const seen = await p.evaluate((sel) => {
      const host = document.querySelector(sel)!;
      return { root: host.shadowRoot, text: document.body.innerText.includes('About you'), inside: host.querySelectorAll('*').length };
    }, W);
    expect(seen).toEqual({ root: null, text: false, inside: 0 });
    expect(await p.locator(`${W} h2`).count()).toBe(0);
    // The whole run still completes, by mouse and keyboard.
    await qualifiedRun(d);
    const markers = await p.evaluate((sel) => {
      const el = document.querySelector(sel)!;
      return [el.className, ...['data-hj-suppress', 'data-private', 'data-clarity-mask', 'data-dd-privacy'].map((name) => `${name}=${el.getAttribute(name)}`)];
    }, W);
    expect(markers).toEqual([
      'rr-block ph-no-capture sentry-block fs-exclude',
      'data-hj-suppress=',
      'data-private=',
      'data-clarity-mask=true',
      'data-dd-privacy=hidden',
    ]);
    const recording = JSON.stringify(await p.evaluate(() => (window as unknown as { __replay: unknown[] }).__replay));
    // The recorder did record the page (its own text, and the widget's element).
    expect(recording).toContain('Partner article on heart health');
    expect(recording).toContain('data-trial-widget');
    expect(secrets.filter((secret) => recording.includes(secret))).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('moves no text below it when it appears: layout shift at most 0.05 on an article page, with the snippet as the panel gives it', async () => {
    demo.partner.asset('/article.css', 'text/css', beside('article.css'));
    const html = beside('article.html').replace('{{WIDGET}}', embedSnippet(demo.server.url, demo.channelId, demo.screenerId));
    // The snippet's element reserves its height with a style attribute, which the page's policy allows.
    const url = demo.partner.page('/article', html, `default-src 'self'; ${partnerCspText(demo.server.url)}; style-src 'self'; style-src-attr 'unsafe-inline'`);
    const { context, page: p, problems } = await newParticipant(demo.browser);
    await p.goto(url);
    await p.locator(`${W} h2`, { hasText: 'About you' }).waitFor();
    // Every layout shift since the navigation (buffered), once the first question has painted.
    const shifts = await p.evaluate(
      () =>
        new Promise<{ value: number; hadRecentInput: boolean }[]>((resolve) => {
          requestAnimationFrame(() =>
            requestAnimationFrame(() => {
              const entries: { value: number; hadRecentInput: boolean }[] = [];
              const observer = new PerformanceObserver((list) => entries.push(...(list.getEntries() as unknown as typeof entries)));
              observer.observe({ type: 'layout-shift', buffered: true });
              setTimeout(() => (observer.disconnect(), resolve(entries.map((e) => ({ value: e.value, hadRecentInput: e.hadRecentInput })))), 50);
            }),
          );
        }),
    );
    const cls = shifts.filter((e) => !e.hadRecentInput).reduce((sum, e) => sum + e.value, 0);
    expect(cls).toBeLessThanOrEqual(0.05);
    // The box the snippet reserved (26em of the article's 18 px) is still there, the question in it.
    expect(await p.evaluate((sel) => document.querySelector(sel)!.getBoundingClientRect().height, W)).toBeGreaterThanOrEqual(26 * 18);
    expect(problems).toEqual([]);
    await context.close();
  });
});
