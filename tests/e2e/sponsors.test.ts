/**
 * Sponsors end to end in the real admin bundle: create, find by search, edit, cancel a delete
 * with Escape, then delete.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './browser';
import { signInAsAdmin } from './admin-session';

const base = inject('baseUrl');
let browser: Browser;
let page: Page;
const stamp = Date.now().toString(36).toUpperCase();
const name = `E2E Pharma ${stamp}`;
const identification = `E2E-${stamp}`;

// The admin runs under a Content-Security-Policy without inline scripts; a violation means a
// feature the policy silently broke.
const cspViolations: string[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  page = await browser.newPage();
  page.on('console', (m) => /Content Security Policy/i.test(m.text()) && cspViolations.push(m.text()));
  await signInAsAdmin(page, base);
});
afterAll(async () => {
  await browser?.close();
});

const table = () => page.getByRole('table', { name: 'Sponsors' });
const row = (text: string) => table().getByRole('row').filter({ hasText: text });

describe('sponsors', () => {
  it('creates a sponsor with a country, refusing a duplicate identification first', async () => {
    await page.getByRole('link', { name: 'Add' }).click();
    await page.waitForURL(`${base}/sponsors/add`);
    // Validated before sending.
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('This field is required.').first().waitFor();

    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Identification').fill('NWT');
    await page.getByLabel('Country').selectOption({ label: 'Portugal' });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('This identification is already in use.').waitFor();
    expect(page.url()).toBe(`${base}/sponsors/add`);

    await page.getByLabel('Identification').fill(identification);
    await page.getByLabel('Description').fill('Created by the end-to-end test');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/sponsors\/view\/\d+$/);
    await page.getByText('Portugal').waitFor();
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Home' }).waitFor();
  });

  it('finds it with the search box and sorts the list', async () => {
    await page.goto(`${base}/sponsors`);
    await page.getByRole('searchbox', { name: 'Search' }).fill(stamp);
    await page.waitForURL(new RegExp(`searchQuery=${stamp}`, 'i'));
    await row(name).waitFor();
    await expect.poll(() => table().getByRole('row').count()).toBe(2);

    await page.getByRole('searchbox', { name: 'Search' }).fill('');
    await page.waitForURL((url) => !url.searchParams.get('searchQuery'));
    await page.getByRole('button', { name: 'Identification' }).click();
    await page.waitForURL(/sort=identification/);
    const header = page.getByRole('columnheader', { name: 'Identification' });
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('ascending');
  });

  it('edits it', async () => {
    await page.goto(`${base}/sponsors?searchQuery=${stamp}`);
    await row(name).getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(/\/sponsors\/edit\/\d+$/);
    await page.getByLabel('Name').fill(`${name} Renamed`);
    await page.getByLabel('Active').uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/sponsors\/view\/\d+$/);
    await page.getByText(`${name} Renamed`).first().waitFor();
  });

  it('keeps the sponsor when the delete is cancelled with Escape, and deletes on Confirm', async () => {
    await page.goto(`${base}/sponsors?searchQuery=${stamp}`);
    await row(name).getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Sponsor' });
    // Renamed by the edit above: the question names the sponsor as it stands.
    await dialog.getByText(`Are you sure you want to delete this sponsor “${name} Renamed” ?`).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await row(name).waitFor();

    await row(name).getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Sponsor deleted.').waitFor();
    await row(name).waitFor({ state: 'detached' });
    const res = await page.request.get(`${base}/api/sponsors?searchQuery=${stamp}`, {
      headers: { Authorization: `Bearer ${(await page.context().cookies()).find((c) => c.name === 'auth_token_admin')!.value}` },
    });
    expect(((await res.json()) as { meta: { total: number } }).meta.total).toBe(0);
  });

  it('ran every step above without a Content-Security-Policy violation', () => {
    expect(cspViolations).toEqual([]);
  });
});
