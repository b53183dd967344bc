/**
 * Resume at every step, in Chromium on a partner page of another origin under a strict CSP: a
 * reload puts the participant back where they were (the page with the answers the server holds,
 * Back to pages the server holds, the ZIP, the site chosen, the contact form, the outcome);
 * no answer, ZIP or contact detail is ever written to browser storage (what is typed and not
 * sent lives in memory only); two widgets of one channel on one page
 * keep runs of their own. After an outcome, another tab of the same browser on the channel shows
 * it again, unless the channel allows retakes (a window of 0): then a reload or another tab
 * starts a fresh survey. One server (its own, with the demo data) and one browser.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { addDemoChannel, startDemoOnPartner, type DemoOnPartner } from './demoOnPartner';
import { newParticipant, snippet } from './partnerSite';
import { adminToken, apiCaller } from './admin-session';

let demo: DemoOnPartner;
let oneUrl = '';
let twoUrl = '';
let retakesUrl = '';
let retakesChannelId = '';

beforeAll(async () => {
  demo = await startDemoOnPartner({
    async prepare(db, ids) {
      // A testing channel: the same screener, retakes allowed.
      retakesChannelId = await addDemoChannel(db, ids, { title: 'Testing', retakeWindowDays: 0 });
    },
  });
  const html = (body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Partner</title></head><body>${body}</body></html>`;
  oneUrl = demo.partner.page('/one', html(`<div data-trial-widget></div>${snippet(demo.server.url, demo.channelId, demo.screenerId)}`));
  twoUrl = demo.partner.page(
    '/two',
    html(
      `<div id="a" data-trial-widget></div>${snippet(demo.server.url, demo.channelId, demo.screenerId)}<div id="b" data-trial-widget></div>${snippet(demo.server.url, demo.channelId, demo.screenerId)}`,
    ),
  );
  retakesUrl = demo.partner.page('/retakes', html(`<div data-trial-widget></div>${snippet(demo.server.url, retakesChannelId, demo.screenerId)}`));
}, 120_000);

afterAll(async () => {
  await demo?.stop();
});

const W = '[data-trial-widget]';
const heading = (w: Locator, text: string | RegExp) => w.locator('h2', { hasText: text }).waitFor();
const next = (w: Locator) => w.locator('button[type=submit]').click();
const back = (w: Locator) => w.locator('.tw-back').click();
const choice = (w: Locator, label: string | RegExp) => w.locator('label', { hasText: label }).locator('input');

/** The first page sent as an adult with the condition (on to their heart health) or as a minor without it (on to where they live). */
async function sendFirstPage(w: Locator, adult: boolean) {
  await choice(w, adult ? '18 to 64' : 'Under 18').check();
  await choice(w, adult ? /^Yes$/ : /^No$/).check();
  await next(w);
  await heading(w, adult ? 'Your heart health' : 'Where you live');
}

/** A minor's run from the first page to the outcome's lead form: the lead form is then shown. */
async function runToLeadForm(w: Locator) {
  await heading(w, 'About you');
  await sendFirstPage(w, false);
  await w.locator('input').fill('10001');
  await next(w);
}

/** A new participant on the partner page at `url`, with the widget's locator `w`. */
async function participantAt(url: string) {
  const participant = await newParticipant(demo.browser);
  await participant.page.goto(url);
  return { ...participant, w: participant.page.locator(W) };
}

/** Everything the partner's origin keeps in browser storage, as one text. */
const storage = (page: Page) =>
  page.evaluate(() => {
    const all = (s: Storage) => Array.from({ length: s.length }, (_, i) => `${s.key(i)}=${s.getItem(s.key(i)!)}`).join('\n');
    return `${all(sessionStorage)}\n${all(localStorage)}`;
  });

describe('the widget resumes at every step after a reload', () => {
  /** The contact details typed, and every piece of them that must never reach browser storage. */
  const fillContact = async (w: Locator) => {
    await w.getByLabel('First name').fill('Rhoda');
    await w.getByLabel('Last name').fill('Reload');
    await w.getByLabel('Email').fill('rhoda.reload@example.com');
    await w.getByLabel('Phone').fill('212-555-0199');
  };
  const TYPED = ['Rhoda', 'Reload', 'rhoda.reload', '555-0199', '2125550199'];

  it('keeps the page (answers typed and not sent in memory only), Back shows saved ones, the ZIP, the site chosen, the contact form (details never stored) and the outcome', async () => {
    const { context, page, problems, w } = await participantAt(oneUrl);
    await heading(w, 'About you');

    // Page 1, answered and not sent: nothing in storage, an empty page after a reload.
    await choice(w, '18 to 64').check();
    expect(await storage(page)).toBe('\n');
    await page.reload();
    await heading(w, 'About you');
    expect(await choice(w, '18 to 64').isChecked()).toBe(false);
    await sendFirstPage(w, true);

    // Page 2 with an answer typed and not sent: the place is kept, the answer is not.
    await w.getByLabel('How many times did you see a doctor this year?').fill('4');
    const kept = await storage(page);
    expect(kept).toContain('"step":"page"');
    for (const value of ['answers', '18-64', '"yes"', '"4"']) expect(kept).not.toContain(value);
    await page.reload();
    await heading(w, 'Your heart health');
    expect(await w.getByLabel('How many times did you see a doctor this year?').inputValue()).toBe('');
    // Back after the reload: page 1 as the server holds it.
    await back(w);
    await heading(w, 'About you');
    expect(await choice(w, '18 to 64').isChecked()).toBe(true);
    expect(await choice(w, /^Yes$/).isChecked()).toBe(true);
    await next(w);
    await heading(w, 'Your heart health');
    await next(w);

    // The ZIP page, then the sites with the second one picked.
    await heading(w, 'Where you live');
    await w.locator('input').fill('10001');
    await next(w);
    await heading(w, 'Choose a study site');
    await w.locator('.tw-site input').nth(1).check();
    await page.reload();
    await heading(w, 'Choose a study site');
    expect(await w.locator('.tw-site input').nth(1).isChecked()).toBe(true);

    // Back to the ZIP step: a reload keeps it with its ZIP.
    await back(w);
    await w.locator('input[autocomplete=postal-code]').waitFor();
    expect(await storage(page)).not.toContain('10001');
    await page.reload();
    await w.locator('input[autocomplete=postal-code]').waitFor();
    // The survey's ZIP as the server holds it, never from browser storage.
    expect(await w.locator('input[autocomplete=postal-code]').inputValue()).toBe('10001');
    await next(w);
    await heading(w, 'Choose a study site');
    await w.locator('.tw-site input').first().check();
    await next(w);

    // The contact form: what is typed stays in memory only, a reload shows the form empty.
    await heading(w, 'Your contact details');
    await fillContact(w);
    let stored = await storage(page);
    for (const typed of TYPED) expect(stored).not.toContain(typed);
    await next(w);
    await heading(w, 'Consent');
    stored = await storage(page);
    for (const typed of TYPED) expect(stored).not.toContain(typed);
    await page.reload();
    await heading(w, 'Your contact details');
    expect(await w.getByLabel('First name').inputValue()).toBe('');
    expect(await w.getByLabel('Email').inputValue()).toBe('');
    await fillContact(w);
    await next(w);
    await heading(w, 'Consent');
    await choice(w, 'I accept the terms and conditions.').check();
    await next(w);
    await w.locator('[data-outcome=completed]').waitFor();
    stored = await storage(page);
    for (const typed of TYPED) expect(stored).not.toContain(typed);

    // The outcome, again after a reload: not a fresh survey.
    await page.reload();
    await w.locator('[data-outcome=completed]').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  /** Answers the demo survey to its notQualified outcome. */
  async function runToNotQualified(w: Locator) {
    await runToLeadForm(w);
    // The outcome's lead form first: "No thanks" ends the run without a lead.
    await w.locator('form button.tw-back').click();
    await w.locator('[data-outcome=notQualified]').waitFor();
  }

  /** Another tab of the participant's browser (same storage but its own sessionStorage) on `url`, its failed answers recorded in `problems`. */
  async function anotherTab(context: BrowserContext, url: string, problems: string[]) {
    const tab = await context.newPage();
    tab.on('response', (r) => {
      if (r.status() >= 400) problems.push(`HTTP ${r.status()} ${r.url()}`);
    });
    await tab.goto(url);
    return tab;
  }

  it('shows the notQualified outcome again after a reload and in another tab, not a fresh survey', async () => {
    const { context, page, problems, w } = await participantAt(oneUrl);
    await runToNotQualified(w);
    await page.reload();
    await w.locator('[data-outcome=notQualified]').waitFor();
    expect(await w.locator('h2', { hasText: 'About you' }).count()).toBe(0);

    // A later visit: a new tab on the same channel, with the first one closed.
    await page.close();
    const tab = await anotherTab(context, oneUrl, problems);
    const later = tab.locator(W);
    await later.locator('[data-outcome=notQualified]').waitFor();
    expect(await later.locator('.tw-html').first().innerText()).toMatch(/\S/);
    expect(await later.locator('h2', { hasText: 'About you' }).count()).toBe(0);
    // What is kept for it names the run, nothing answered.
    const kept = await tab.evaluate(() => Object.entries(localStorage).filter(([k]) => k.startsWith('trial-widget:')));
    expect(kept).toHaveLength(1);
    expect(Object.keys(JSON.parse(kept[0]![1])).sort()).toEqual(['credentials', 'history', 'identity', 'language', 'progress', 'step', 'submissionId']);
    expect(JSON.parse(kept[0]![1])).toMatchObject({ step: 'finished', history: [] });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows the outcome without the form after a lead was left, on a reload: one lead, never a second', async () => {
    const token = await adminToken(demo.server.url);
    const api = apiCaller(demo.server.url, () => token);
    const leads = async () => (await api('leads?limit=10')).meta.total as number;
    const before = await leads();
    const { context, page, problems, w } = await participantAt(oneUrl);
    await runToLeadForm(w);
    const form = w.locator('form');
    await form.locator('button.tw-back').waitFor();
    const texts = form.locator('input[type=text]:not([inputmode=numeric])');
    await texts.nth(0).fill('Rhea');
    await texts.nth(1).fill('Resume');
    await form.locator('input[type=email]').fill('rhea.resume@example.com');
    await form.locator('input[type=tel]').fill('907-555-7001');
    const zip = form.locator('input[autocomplete=postal-code]');
    if (!(await zip.inputValue())) await zip.fill('10001');
    await form.locator('label:has(input[type=checkbox])').click();
    await next(w);
    await w.locator('[data-outcome=notQualified]').waitFor();
    expect(await leads()).toBe(before + 1);

    await page.reload();
    await w.locator('[data-outcome=notQualified]').waitFor();
    expect(await w.locator('form').count()).toBe(0);
    expect(await w.locator('h2', { hasText: 'About you' }).count()).toBe(0);
    expect(await leads()).toBe(before + 1);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('starts a fresh survey after an outcome on a channel that allows retakes (window 0), on a reload and in another tab', async () => {
    const { context, page, problems, w } = await participantAt(retakesUrl);
    await runToNotQualified(w);
    await page.reload();
    await heading(w, 'About you');
    expect(await w.locator('[data-outcome]').count()).toBe(0);

    await runToNotQualified(w);
    const tab = await anotherTab(context, retakesUrl, problems);
    await heading(tab.locator(W), 'About you');
    expect(await tab.locator(`${W} [data-outcome]`).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('keeps two widgets of one channel on one page on runs of their own', async () => {
    const { context, page, problems } = await newParticipant(demo.browser);
    await page.goto(twoUrl);
    const a = page.locator('#a');
    const b = page.locator('#b');
    await heading(a, 'About you');
    await heading(b, 'About you');
    await sendFirstPage(a, true);
    await choice(b, 'Under 18').check();
    await page.reload();
    await heading(a, 'Your heart health');
    await heading(b, 'About you');
    // b's first page was never sent: nothing of it was kept.
    expect(await choice(b, 'Under 18').isChecked()).toBe(false);
    await sendFirstPage(b, false);
    await page.reload();
    await heading(a, 'Your heart health');
    await heading(b, 'Where you live');
    expect(problems).toEqual([]);
    await context.close();
  });
});
