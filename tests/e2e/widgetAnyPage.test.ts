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
import { startDemoOnPartner, type DemoOnPartner } from './demoOnPartner';
import { partnerCspText, partnerTrustedTypesText } from '@core/model/mediaChannel';
import { newParticipant, snippet } from './partnerSite';
import { adminToken, apiCaller } from './admin-session';

let demo: DemoOnPartner;
let api: ReturnType<typeof apiCaller>;

beforeAll(async () => {
  demo = await startDemoOnPartner();
  const token = await adminToken(demo.server.url);
  api = apiCaller(demo.server.url, () => token);
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

/** Answers the demo survey as a qualified participant (a multiple-choice answer on its second page) through to the outcome. */
async function qualifiedRun(p: Page, contact = { first: 'Ada', last: 'Quinn', email: 'ada.quinn@example.com', phone: '212-555-0142' }) {
  await p.locator(`${W} h2`, { hasText: 'About you' }).waitFor();
  await p.locator(`${W} label`, { hasText: '18 to 64' }).click();
  await p.locator(`${W} label`, { hasText: /^Yes$/ }).click();
  await p.locator(`${W} button[type=submit]`).click();
  await p.locator(`${W} h2`, { hasText: 'Your heart health' }).waitFor();
  await p.locator(`${W} label`, { hasText: 'Blood pressure pills' }).click();
  await p.locator(`${W} button[type=submit]`).click();
  await p.locator(`${W} h2`, { hasText: 'Where you live' }).waitFor();
  await p.locator(`${W} input`).fill('10001');
  await p.locator(`${W} button[type=submit]`).click();
  await p.locator(`${W} h2`, { hasText: 'Choose a study site' }).waitFor();
  await p.locator(`${W} button[type=submit]`).click();
  await p.locator(`${W} h2`, { hasText: 'Your contact details' }).waitFor();
  await p.getByLabel('First name').fill(contact.first);
  await p.getByLabel('Last name').fill(contact.last);
  await p.getByLabel('Email').fill(contact.email);
  await p.getByLabel('Phone').fill(contact.phone);
  await p.locator(`${W} button[type=submit]`).click();
  await p.locator(`${W} h2`, { hasText: 'Consent' }).waitFor();
  // The screener's message is staff HTML, shown as HTML (whatever the page's Trusted Types).
  await p.locator(`${W} .tw-html em`, { hasText: 'privacy notice' }).waitFor();
  await p.locator(`${W} label`, { hasText: 'I accept the terms and conditions.' }).click();
  await p.locator(`${W} button[type=submit]`).click();
  await p.locator(`${W} [data-outcome=completed]`).waitFor();
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
    await qualifiedRun(p);
    // The answer went as a list, and nothing the widget sent or kept went through the page's JSON.stringify.
    expect(sent.some((body) => typeof body === 'string' && body.includes('"demo-treatment":["pills"]'))).toBe(true);
    expect(await p.evaluate(() => (window as unknown as { __hostStringify?: number }).__hostStringify ?? 0)).toBe(hostCalls);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("completes a qualified run under Trusted Types and exactly the CSP partners are told to add, with no violation", async () => {
    // The partner's own policy: nothing but its own origin, what the snippet panel says, and Trusted Types enforced.
    const csp = `default-src 'self'; ${partnerCspText(demo.server.url)}; require-trusted-types-for 'script'; ${partnerTrustedTypesText}`;
    const url = demo.partner.page('/trusted-types', page(widget()), csp);
    const { context, page: p, problems } = await newParticipant(demo.browser);
    await p.goto(url);
    await qualifiedRun(p);
    expect(problems).toEqual([]);
    // Trusted Types were in force: the page itself cannot assign a string to innerHTML.
    expect(await p.evaluate(() => {
      try {
        document.body.innerHTML = '<b>x</b>';
        return 'assigned';
      } catch {
        return 'refused';
      }
    })).toBe('refused');
    await context.close();
  });

  it("writes an English survey left to right on a right-to-left page, its text sized from the reader's default font size", async () => {
    demo.partner.asset('/rtl.css', 'text/css', beside('rtl.css'));
    const url = demo.partner.page('/rtl', `<!doctype html><html lang="ar" dir="rtl"><head><meta charset="utf-8"><title>شريك</title><link rel="stylesheet" href="/rtl.css"></head><body><p>مقال الشريك</p>${widget()}</body></html>`);
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
      page(`<main id="app"></main><script src="/spa-app.js" data-widget="${demo.server.url}/widget.js" data-channel="${demo.channelId}" data-screener="${demo.screenerId}"></script>`),
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

  it('carries the session-replay opt-out markers: an rrweb recording of a whole run holds no question, answer or contact value', async () => {
    demo.partner.asset('/rrweb.js', 'text/javascript', fs.readFileSync(path.resolve(import.meta.dirname, '../../node_modules/rrweb/dist/rrweb.umd.min.cjs')));
    demo.partner.asset('/record.js', 'text/javascript', beside('record.js'));
    // The partner's policy, with what the recorder itself needs: its scripts, and style attributes for its own elements.
    const csp = `default-src 'self'; script-src 'self' ${demo.server.url}; connect-src ${demo.server.url}; style-src 'self'; style-src-attr 'unsafe-inline'`;
    const head = '<script src="/rrweb.js"></script><script src="/record.js"></script>';
    const url = demo.partner.page('/recorded', page(`<h1>Partner article on heart health</h1>${widget()}`, head), csp);
    const { context, page: p, problems } = await newParticipant(demo.browser);
    await p.goto(url);
    await qualifiedRun(p);
    const markers = await p.evaluate((sel) => {
      const el = document.querySelector(sel)!;
      return [el.className, ...['data-hj-suppress', 'data-private', 'data-clarity-mask', 'data-dd-privacy'].map((name) => `${name}=${el.getAttribute(name)}`)];
    }, W);
    expect(markers).toEqual(['rr-block ph-no-capture sentry-block fs-exclude', 'data-hj-suppress=', 'data-private=', 'data-clarity-mask=true', 'data-dd-privacy=hidden']);
    const recording = JSON.stringify(await p.evaluate(() => (window as unknown as { __replay: unknown[] }).__replay));
    // The recorder did record the page (its own text, and the widget's element as a blank box).
    expect(recording).toContain('Partner article on heart health');
    const secrets = ['How old are you', '18 to 64', 'Your heart health', 'Blood pressure pills', 'pills', '10001', 'Ada', 'Quinn', 'ada.quinn@example.com', '212-555-0142', '2125550142', 'privacy notice'];
    expect(secrets.filter((secret) => recording.includes(secret))).toEqual([]);
    expect(recording).toContain('rr_width');
    expect(problems).toEqual([]);
    await context.close();
  });
});
