import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserForFile } from './browser';

const baseUrl = inject('baseUrl');
const browser = browserForFile();
let page: Page;

describe('widget.js on a partner page', () => {
  it('mounts into a shadow root on the demo page, styled by an adopted stylesheet', async () => {
    page = await browser().newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${baseUrl}/demo/`);
    // The demo channel's survey: its first page's title once the widget has started.
    await page.locator('[data-trial-widget] .tw-card h2', { hasText: 'About you' }).waitFor();
    const info = await page.evaluate(() => {
      const host = document.querySelector('[data-trial-widget]')!;
      const root = host.shadowRoot!;
      return {
        hasShadow: !!root,
        adopted: root.adoptedStyleSheets.length,
        styleTags: root.querySelectorAll('style').length,
        title: root.querySelector('.tw-title')?.textContent,
        // The host page's own CSS cannot select into the shadow tree.
        visibleFromLightDom: document.querySelectorAll('.tw-card').length,
      };
    });
    expect(info).toEqual({ hasShadow: true, adopted: 2, styleTags: 0, title: 'About you', visibleFromLightDom: 0 });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows a participant message and logs one console error for a bad snippet, without breaking the host page', async () => {
    page = await browser().newPage();
    const consoleErrors: string[] = [];
    const pageErrors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.route(`${baseUrl}/partner.html`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><p id="host">host</p>
<script src="${baseUrl}/widget.js" data-screener-id="7"></script>
<script>document.getElementById('host').textContent = 'host still works';</script>`,
      }),
    );
    await page.goto(`${baseUrl}/partner.html`);
    await page.waitForFunction(() => document.querySelector('[data-trial-widget-mounted]:not(script)')?.shadowRoot?.querySelector('[role=alert]'));
    const message = await page.evaluate(
      () => document.querySelector('[data-trial-widget-mounted]:not(script)')!.shadowRoot!.querySelector('[role=alert] p')!.textContent,
    );
    expect(message).toBe('This questionnaire could not be loaded. Please let the website owner know.');
    expect(await page.textContent('#host')).toBe('host still works');
    expect(consoleErrors).toHaveLength(1);
    expect(consoleErrors[0]).toContain('data-media-channel-id');
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
