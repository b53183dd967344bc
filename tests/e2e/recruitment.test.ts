/**
 * The Recruitment screen in Chromium over the demo data (six weeks of generated runs on the demo
 * channel from two sources): the funnel and its trend show what the API counts, filters and
 * grouping live in the address and survive a reload, and Export CSV downloads the breakdown
 * table as the server writes it. The window ends yesterday, so runs other test files make today
 * never change the figures under test.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { FUNNEL_FIGURES, FUNNEL_STAGES } from '@core/model/funnel';
import { adminApiOn, openAdminBrowser, signInAsAdmin } from './admin-session';
import { axeViolations } from './axe';
import { COST_FIGURES } from '@core/model/funnelCosts';
import { parseCsv } from '../support/csv';

const base = inject('baseUrl');
const WAIT = { timeout: 15_000 };
const DAY_MS = 24 * 3600 * 1000;

let browser: Browser;
let page: Page;
const { api, signIn } = adminApiOn(base);
let engagementId = '';
// Yesterday and four weeks before it (UTC): inside the demo's six weeks, and before today.
const to = new Date(Date.now() - DAY_MS).toISOString().slice(0, 10);
const from = new Date(Date.now() - 29 * DAY_MS).toISOString().slice(0, 10);

type Row = { group: string | null; label: string } & Record<(typeof FUNNEL_FIGURES)[number], number>;
async function funnel(query: string): Promise<Row[]> {
  const doc = await api(`recruitment-funnel?${query}`);
  return (doc.data as { attributes: Row }[]).map((r) => r.attributes);
}
const numbers = (texts: string[]) => texts.map((t) => Number(t.replace(/,/g, '')));
const funnelCounts = async () => numbers(await page.getByRole('figure', { name: 'Recruitment funnel' }).locator('.funnel-count').allTextContents());

beforeAll(async () => {
  await signIn();
  const engagements = await api('engagements?searchQuery=Healthy%20Heart%20Study');
  engagementId = (engagements.data as { id: string; attributes: { name: string } }[]).find((e) => e.attributes.name === 'Healthy Heart Study')!.id;
  ({ browser, page } = await openAdminBrowser(base, { viewport: { width: 1366, height: 900 }, acceptDownloads: true }));
});
afterAll(async () => {
  await browser?.close();
});

describe('Recruitment screen', () => {
  it('is reached from the side navigation and shows the funnel and the weekly trend of the demo runs', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Recruitment' }).click();
    await page.waitForURL(`${base}/recruitment`);
    await page.getByRole('figure', { name: 'Recruitment funnel' }).locator('.funnel-count').first().waitFor(WAIT);
    await page.getByLabel('From', { exact: true }).fill(from);
    await page.getByLabel('To', { exact: true }).fill(to);
    await page.waitForURL(`${base}/recruitment?from=${from}&to=${to}`);
    const [all] = await funnel(`from=${from}&to=${to}`);
    await page.waitForFunction(
      (expected) => [...document.querySelectorAll('[aria-label="Recruitment funnel"] .funnel-count')].map((e) => e.textContent).join('|') === expected,
      FUNNEL_STAGES.map((s) => all![s].toLocaleString('en-US')).join('|'),
      WAIT,
    );
    const shown = await funnelCounts();
    expect(shown).toEqual(FUNNEL_STAGES.map((s) => all![s]));
    // The demo weeks mean something: people saw the widget and started.
    expect(all!.viewed).toBeGreaterThan(100);
    expect(all!.started).toBeGreaterThan(50);
    // Leads beside the funnel, each kind apart, as the API counts them.
    expect(await page.getByTestId('funnel-leads').textContent()).toContain(
      `Leads kept: ${all!.leadsKept} (not qualified ${all!.leadsNotQualified}, no site near ${all!.leadsNoTrialSites}, not running ${all!.leadsNotActive})`,
    );
    const conversion = await page.getByLabel('Conversion from Viewed to Started').textContent();
    expect(conversion).toBe(`${((all!.started / all!.viewed) * 100).toFixed(1)}% converted`);

    // 29 days: five weeks (by their Mondays) at most, four at least.
    const trend = page.getByRole('img', { name: /^Trend by week: \d+ weeks from \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}$/ });
    await trend.waitFor(WAIT);
    const weeks = Number(/: (\d+) weeks/.exec((await trend.getAttribute('aria-label'))!)![1]);
    expect(weeks).toBeGreaterThanOrEqual(4);
    expect(weeks).toBeLessThanOrEqual(5);
    expect(await trend.locator('.trend-started circle').count()).toBe(weeks);
    const byWeek = await funnel(`from=${from}&to=${to}&groupBy=week`);
    expect(byWeek.reduce((sum, r) => sum + r.started, 0)).toBe(all!.started);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('keeps the filters and the grouping in the address: a reload shows the same breakdown', async () => {
    await page.getByLabel('Engagement', { exact: true }).selectOption({ label: 'Healthy Heart Study' });
    await page.getByLabel('Group by').selectOption('source');
    const address = `${base}/recruitment?engagementId=${engagementId}&from=${from}&to=${to}&groupBy=source`;
    await page.waitForURL(address);
    const table = page.getByRole('table', { name: 'Funnel breakdown' });
    await table.getByRole('row').filter({ hasText: 'newsletter' }).waitFor(WAIT);

    await page.reload();
    await table.getByRole('row').filter({ hasText: 'facebook' }).waitFor(WAIT);
    expect(page.url()).toBe(address);
    expect(await page.getByLabel('Group by').inputValue()).toBe('source');
    // The engagement select shows its value once its options have arrived.
    await page
      .getByLabel('Engagement', { exact: true })
      .locator(`option[value="${engagementId}"]`)
      .waitFor({ state: 'attached', ...WAIT });
    expect(await page.getByLabel('Engagement', { exact: true }).inputValue()).toBe(engagementId);
    expect(await page.getByLabel('From', { exact: true }).inputValue()).toBe(from);
    expect(await page.getByLabel('To', { exact: true }).inputValue()).toBe(to);
    await page.getByRole('heading', { name: 'Breakdown by source (utm_source)' }).waitFor(WAIT);

    const expected = await funnel(`engagementId=${engagementId}&from=${from}&to=${to}&groupBy=source`);
    const sources = expected.filter((r) => r.group === 'newsletter' || r.group === 'facebook');
    expect(sources).toHaveLength(2);
    for (const row of sources) {
      const cells = await table.getByRole('row').filter({ hasText: row.group! }).getByRole('cell').allTextContents();
      expect(cells[0]).toBe(row.label);
      expect(numbers(cells.slice(1))).toEqual(FUNNEL_FIGURES.map((s) => row[s]));
    }
  });

  it('exports the breakdown table as CSV: the same rows and figures the table shows', async () => {
    const table = page.getByRole('table', { name: 'Funnel breakdown' });
    const shown = await Promise.all((await table.getByRole('row').all()).slice(1).map(async (row) => row.getByRole('cell').allTextContents()));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const [header, ...lines] = parseCsv(fs.readFileSync((await download.path())!, 'utf8')).filter((r) => r.length > 1);
    // The cost figures follow the counts (server/funnel/costs.ts); the breakdown table shows the counts.
    expect(header).toEqual(['id', 'group', 'label', ...FUNNEL_FIGURES, 'spend', ...Object.keys(COST_FIGURES)]);
    expect(lines.map((l) => [l[2], ...l.slice(3, 3 + FUNNEL_FIGURES.length).map(Number)])).toEqual(
      shown.map((cells) => [cells[0], ...numbers(cells.slice(1))]),
    );
    expect(lines.map((l) => l[1])).toEqual(expect.arrayContaining(['newsletter', 'facebook']));
  });

  it('on a phone folds the filters behind one button, so the funnel is on the first screen', async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    try {
      await signInAsAdmin(phone, base);
      await phone.goto(`${base}/recruitment?engagementId=${engagementId}`);
      const funnelChart = phone.getByRole('figure', { name: 'Recruitment funnel' });
      await funnelChart.locator('.funnel-count').first().waitFor(WAIT);
      expect(await phone.getByLabel('Group by').isVisible()).toBe(false);
      const top = (await funnelChart.boundingBox())!.y;
      expect(top).toBeLessThan(844 / 2);
      const toggle = phone.getByRole('button', { name: /^Show filters \(1 active\)/ });
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      await toggle.click();
      await phone.getByLabel('Group by').waitFor({ state: 'visible', ...WAIT });
      await phone
        .getByLabel('Engagement', { exact: true })
        .locator(`option[value="${engagementId}"]`)
        .waitFor({ state: 'attached', ...WAIT });
      expect(await phone.getByLabel('Engagement', { exact: true }).inputValue()).toBe(engagementId);
      expect(await phone.getByRole('button', { name: /^Hide filters/ }).getAttribute('aria-expanded')).toBe('true');
    } finally {
      await phone.close();
    }
  });
});
