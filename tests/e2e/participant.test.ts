/**
 * A participant on the demo partner page (seeded with DEMO_DATA): the widget in Chromium against
 * the real server — qualifying, the nearest site, the contact form and consent; a reload that
 * resumes on the same page; and the channel's hosted page.
 */
import { describe, expect, inject, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { browserForFile } from './browser';
import { fillContactByLabel } from './demoWidget';
import { asLogged, isPageTiming, isView } from '../support/participantWire';

const baseUrl = inject('baseUrl');
const browser = browserForFile();

// Playwright's CSS locators pierce open shadow roots.
const heading = (page: Page, text: string) => page.locator('[data-trial-widget] h2', { hasText: text }).waitFor();
const next = (page: Page) => page.locator('[data-trial-widget] button[type=submit]').click();

async function answerFirstPage(page: Page) {
  await heading(page, 'About you');
  await page.locator('[data-trial-widget] label', { hasText: '18 to 64' }).click();
  await page.locator('[data-trial-widget] label', { hasText: /^Yes$/ }).click();
  await next(page);
  await heading(page, 'Your heart health');
}

describe('a participant on the demo page', () => {
  it('qualifies, picks the nearest site, gives contact details and consent, and completes', async () => {
    const page = await browser().newPage({ locale: 'en-US' });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const calls: string[] = [];
    const onRequest = (r: Request) => {
      const sent = asLogged(r);
      if (sent.path.startsWith('/api/') && !isPageTiming(sent) && !isView(sent) && sent.method !== 'OPTIONS')
        calls.push(`${sent.method} ${sent.path.split('?')[0]}`);
    };
    await page.goto(`${baseUrl}/demo/`);
    await heading(page, 'About you');
    // The first Next is one call: the submission, made with the first page's entry and its answers saved.
    page.on('request', onRequest);
    await answerFirstPage(page);
    expect(calls).toEqual(['POST /api/o-forms/o-form-submissions']);
    // A Next after it is one call: the page's save answers the next page (its timing rides in it).
    calls.length = 0;
    await next(page);
    await heading(page, 'Where you live');
    page.off('request', onRequest);
    expect(calls).toEqual([expect.stringMatching(/^POST \/api\/o-forms\/o-form-submission-page\/\d+$/)]);
    await page.locator('[data-trial-widget] input').fill('10001');
    await next(page);
    await heading(page, 'Choose a study site');
    const sites = await page.locator('[data-trial-widget] .tw-site strong').allTextContents();
    expect(sites[0]).toBe('Midtown Heart Center');
    await next(page);
    await heading(page, 'Your contact details');
    await fillContactByLabel(page, { first: 'Ann', last: 'Lee', email: 'ann@example.com', phone: '212-555-0100' });
    expect(await page.getByLabel('ZIP code').inputValue()).toBe('10001');
    await next(page);
    await heading(page, 'Consent');
    await page.locator('[data-trial-widget] label', { hasText: 'I accept the terms and conditions.' }).click();
    await next(page);
    await page.locator('[data-trial-widget] [data-outcome=completed]').waitFor();
    expect(await page.locator('[data-trial-widget] .tw-html').first().textContent()).toContain('on their way');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('resumes the same submission on the same page with its answers after a reload', async () => {
    const page = await browser().newPage({ locale: 'en-US' });
    await page.goto(`${baseUrl}/demo/`);
    await answerFirstPage(page);
    await page.getByLabel('How many times did you see a doctor this year?').fill('4');
    await next(page);
    await heading(page, 'Where you live');
    await page.locator('[data-trial-widget] .tw-back').click();
    await heading(page, 'Your heart health');
    await page.reload();
    await heading(page, 'Your heart health');
    expect(await page.getByLabel('How many times did you see a doctor this year?').inputValue()).toBe('4');
    await page.close();
  });

  it('runs in Spanish from the browser language on the channel’s hosted page', async () => {
    const page = await browser().newPage({ locale: 'es-ES' });
    const demo = await (await fetch(`${baseUrl}/demo/`)).text();
    const channelId = /data-media-channel-id="(\d+)"/.exec(demo)?.[1];
    expect(channelId).toBeTruthy();
    await page.goto(`${baseUrl}/take/${channelId}`);
    await page.locator('header', { hasText: 'Trial Recruit' }).waitFor();
    await page.locator('[data-trial-widget] legend', { hasText: '¿Qué edad tiene?' }).waitFor();
    expect(await page.locator('[data-trial-widget] button[type=submit]').textContent()).toBe('Siguiente');
    await page.close();
  });
});
