/**
 * After the referral, in Chromium over the demo data (referrals at every status at the demo's
 * three sites): an admin ties a new Site Coordinator to a demo site on the site view; the
 * coordinator signs in (their own password first), sees only that site's referrals and works
 * one — a no-answer call, then contacted, then screen-failed with a reason — through the queue;
 * the Recruitment screen's funnel and site performance reflect it; and a second browser's
 * queue, left open, shows the change by itself within 15 seconds.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { adminApiOn, openAdminBrowser, signInAsAdmin } from './admin-session';

const base = inject('baseUrl');
const WAIT = { timeout: 20_000 };
const stamp = Date.now().toString(36);
const username = `coord.${stamp}`;
const initialPassword = `Initial-${stamp}-pass`;
const ownPassword = `Own-${stamp}-password`;
const SITE = 'Brooklyn Cardiology Research';

let browser: Browser;
let admin: Page;
const { api, signIn } = adminApiOn(base);
let siteId = '';
let referralId = '';
let initials = '';

type Attributes = Record<string, unknown>;
const funnelTotal = async (stage: string) => {
  const doc = await api(`recruitment-funnel`);
  return Number((doc.data as { attributes: Attributes }[])[0]!.attributes[stage]);
};

beforeAll(async () => {
  await signIn();
  const sites = await api(`site-locations?searchQuery=${encodeURIComponent(SITE)}`);
  siteId = (sites.data as { id: string; attributes: { name: string } }[]).find((s) => s.attributes.name === SITE)!.id;
  const roles = await api('roles?limit=100');
  const role = (roles.data as { id: string; attributes: { name: string } }[]).find((r) => r.attributes.name === 'Site Coordinator')!;
  const created = await api('users', {
    method: 'POST',
    body: JSON.stringify({
      data: {
        type: 'users',
        attributes: { username, email: `${username}@example.com`, password: initialPassword },
        relationships: { roles: { data: [{ type: 'roles', id: role.id }] } },
      },
    }),
  });
  expect(created.data?.id, JSON.stringify(created)).toBeTruthy();
  // A new referral at that site to work: the demo's newest, still new.
  const open = await api(`referrals?siteLocationId=${siteId}&status=new&sort=-created&limit=10`);
  const first = (open.data as { id: string; attributes: { initials: string } }[])[0]!;
  referralId = first.id;
  initials = first.attributes.initials;
  ({ browser, page: admin } = await openAdminBrowser(base, { viewport: { width: 1366, height: 900 } }));
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

describe('a site coordinator works a referral to a final status', () => {
  it('goes from a new coordinator on the site view to a screen failure the funnel and a second browser show', { timeout: 240_000 }, async () => {
    // The admin ties the coordinator to the demo site on its view.
    await admin.goto(`${base}/site-locations/view/${siteId}`);
    const select = admin.getByLabel('Add a coordinator');
    await select.locator(`option:text("${username}")`).waitFor({ state: 'attached', ...WAIT });
    await select.selectOption({ label: username });
    await admin.getByRole('button', { name: 'Add coordinator' }).click();
    await admin.getByRole('table', { name: 'Site coordinators' }).getByRole('cell', { name: username, exact: true }).waitFor(WAIT);

    const screenFailedBefore = await funnelTotal('screenFailed');

    // A second browser (the admin's queue) left open on the screen-failed referrals.
    const watcher = await (await browser.newContext({ viewport: { width: 1366, height: 900 } })).newPage();
    await signInAsAdmin(watcher, base);
    await watcher.goto(`${base}/referrals?status=screen-failed&sort=-statusChanged`);
    await watcher.getByRole('table', { name: 'Referrals' }).waitFor(WAIT);

    // The coordinator signs in, chooses their own password, and lands on the queue.
    const page = await (await browser.newContext({ viewport: { width: 1366, height: 900 } })).newPage();
    await page.goto(`${base}/login`);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(initialPassword);
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    await page.waitForURL(`${base}/change-password`, WAIT);
    await page.getByLabel('Current Password').fill(initialPassword);
    await page.getByLabel('New Password', { exact: true }).fill(ownPassword);
    await page.getByLabel('Repeat New Password').fill(ownPassword);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.waitForURL(`${base}/referrals`, WAIT);
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(['Referrals', 'Site Performance', 'Leads']);

    // Only that site's referrals.
    const table = page.getByRole('table', { name: 'Referrals' });
    await table.locator('tbody tr').first().waitFor(WAIT);
    await page.goto(`${base}/referrals?limit=100`);
    await table.getByRole('link').first().waitFor(WAIT);
    const texts = await table.locator('tbody tr').allTextContents();
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.filter((t) => !t.includes(SITE))).toEqual([]);
    expect(texts.filter((t) => t.includes('Midtown Heart Center') || t.includes('Newark Clinical Trials Unit'))).toEqual([]);

    // The referral's row: a no-answer call, then contacted, then screen-failed with a reason.
    await page.goto(`${base}/referrals?status=new&sort=-created`);
    const row = table
      .locator('tbody tr')
      .filter({ has: page.getByRole('link', { name: initials, exact: true }) })
      .first();
    await row.waitFor(WAIT);
    const who = initials;
    await row.getByLabel(`Attempt result for ${who}`).selectOption('no-answer');
    await row.getByRole('button', { name: 'Log call' }).click();
    await page.getByText(`${who}: call logged`).first().waitFor(WAIT);
    await page.goto(`${base}/referrals/view/${referralId}`);
    const timeline = page.getByRole('region', { name: 'Timeline' });
    await timeline.getByText('Contact attempt by phone: No answer').waitFor(WAIT);
    await page.getByLabel(`New status for ${who}`).selectOption('contacted');
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    await timeline.getByText('Attempting contact → Contacted').waitFor(WAIT);
    await page.getByLabel(`New status for ${who}`).selectOption('screen-failed');
    const reason = page.getByLabel(`Reason for ${who}`);
    await reason.locator('option:text("Lab values out of range")').waitFor({ state: 'attached', ...WAIT });
    await reason.selectOption({ label: 'Lab values out of range' });
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    await timeline.getByText('Contacted → Screen failed (Lab values out of range)').waitFor(WAIT);

    // The second browser's queue shows it by itself, within 15 s.
    await watcher.getByRole('table', { name: 'Referrals' }).getByRole('link', { name: who, exact: true }).first().waitFor({ timeout: 15_000 });

    // The funnel counts the screen failure; the Recruitment screen shows the server's count.
    expect(await funnelTotal('screenFailed')).toBe(screenFailedBefore + 1);
    await admin.goto(`${base}/recruitment`);
    const step = admin.getByRole('figure', { name: 'Recruitment funnel' }).locator('[data-stage="screenFailed"] .funnel-count');
    await step.waitFor(WAIT);
    await admin.waitForFunction(
      (expected) =>
        document.querySelector('[aria-label="Recruitment funnel"] [data-stage="screenFailed"] .funnel-count')?.textContent?.replace(/,/g, '') === expected,
      String(screenFailedBefore + 1),
      WAIT,
    );

    // Site performance, as the coordinator sees it: their site only, with the failure counted.
    await page.goto(`${base}/site-performance`);
    const perf = page.getByRole('table', { name: 'Site performance' });
    await perf.getByRole('cell', { name: SITE }).waitFor(WAIT);
    expect(await perf.locator('tbody tr').count()).toBe(1);
    const doc = await api(`site-performance?siteLocationId=${siteId}`);
    const screenFailed = Number((doc.data as { attributes: Attributes }[])[0]!.attributes.screenFailed);
    expect(await perf.locator('tbody tr').first().textContent()).toContain(`of `);
    expect(screenFailed).toBeGreaterThan(0);
  });
});
