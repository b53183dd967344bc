/**
 * Engagements and sites end to end in the real admin bundle: create an engagement with
 * lookups for a sponsor, attach a file and download it, upload a site CSV with a bad row
 * (nothing added), fix it and upload again, edit a link's radius, and watch the sponsor
 * list's figures change.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { adminApiOn, openAdminBrowser } from './admin-session';

const base = inject('baseUrl');
let browser: Browser;
let page: Page;
const stamp = Date.now().toString(36).toUpperCase();
const sponsorName = `E2E Sites Pharma ${stamp}`;
const sponsorIdentification = `ES-${stamp}`;
const engagementName = `E2E Study ${stamp}`;
const indication = `E2E Indication ${stamp}`;
let sponsorId = '';
let engagementId = '';

const { api, post, signIn } = adminApiOn(base);

const sponsorRow = () => page.getByRole('table', { name: 'Sponsors' }).getByRole('row').filter({ hasText: sponsorName });

beforeAll(async () => {
  await signIn();
  const sponsor = await post('sponsors', 'sponsors', { name: sponsorName, identification: sponsorIdentification });
  sponsorId = sponsor.data.id;

  ({ browser, page } = await openAdminBrowser(base, { acceptDownloads: true }));
});
afterAll(async () => {
  await browser?.close();
});

describe('engagements and sites', () => {
  it('shows the new sponsor with no engagements or sites in the sponsor list', async () => {
    await page.goto(`${base}/sponsors?searchQuery=${sponsorIdentification}`);
    await sponsorRow().waitFor();
    const cells = await sponsorRow().getByRole('cell').allTextContents();
    expect(cells).toEqual(expect.arrayContaining(['0 / 0']));
    // Engagements (active / total), sites, referrals (total / screened / randomized), then Actions.
    expect(cells.slice(-4, -1)).toEqual(['0 / 0', '0', '0 / 0 / 0']);
  });

  it('creates an engagement with lookups from the sponsor view, adding a new indication', async () => {
    await page.goto(`${base}/sponsors/view/${sponsorId}`);
    await page.getByRole('link', { name: 'Add Engagement' }).click();
    await page.waitForURL(`${base}/engagements/add/${sponsorId}`);
    await page.getByRole('group', { name: 'Therapeutic Areas' }).getByLabel('Oncology').waitFor();
    await expect.poll(() => page.getByLabel('Sponsor', { exact: true }).inputValue()).toBe(sponsorId);

    await page.getByLabel('Name', { exact: true }).fill(engagementName);
    await page.getByLabel('Identification', { exact: true }).fill(`ST-${stamp}`);
    await page.getByLabel('Start Date', { exact: true }).fill('2026-01-15');
    await page.getByLabel('End Date', { exact: true }).fill('2026-12-31');
    await page.getByLabel('Phase', { exact: true }).selectOption('II');
    await page.getByRole('group', { name: 'Therapeutic Areas' }).getByLabel('Oncology').check();
    await page.getByRole('group', { name: 'Campaign Types' }).getByLabel('Digital Media').check();
    await page.getByLabel('New indication').fill(indication);
    await page.getByRole('button', { name: 'Add indication' }).click();
    await expect.poll(() => page.getByRole('group', { name: 'Indications' }).getByLabel(indication).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Save' }).click();

    await page.waitForURL(/\/engagements\/view\/\d+$/);
    engagementId = page.url().split('/').pop() ?? '';
    await page.getByText(`${sponsorIdentification}-ST-${stamp}`).waitFor();
    await page.getByText('Oncology').first().waitFor();
    await page.getByText(indication).waitFor();
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    await crumbs.getByRole('link', { name: sponsorName }).waitFor();
    const saved = await api(`engagements/${engagementId}?include=indications,campaignTypes,therapeuticAreas`);
    expect(saved.data.attributes).toMatchObject({ name: engagementName, phase: 'II', startDate: '2026-01-15', sponsorId: Number(sponsorId) });
    expect(saved.included.map((r: { attributes: { name: string } }) => r.attributes.name).sort()).toEqual(['Digital Media', indication, 'Oncology'].sort());
  });

  it('attaches a file and downloads it with the session', async () => {
    const content = `Protocol for ${stamp}\n`;
    await page.getByLabel('Attach a file').setInputFiles({ name: 'protocol.txt', mimeType: 'text/plain', buffer: Buffer.from(content) });
    await page.getByRole('table', { name: 'Files' }).getByText('protocol.txt').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download protocol.txt' }).click()]);
    expect(download.suggestedFilename()).toBe('protocol.txt');
    expect(fs.readFileSync((await download.path()) as string, 'utf8')).toBe(content);
  });

  it('refuses a site CSV with a bad row, adding nothing, then imports the fixed file', async () => {
    const header = 'site_id,name,city,state,zip_code,country,latitude,longitude,pi_name,radius';
    const good1 = `E2E-${stamp}-1,E2E Boston Site,Boston,MA,02110,US,42.36,-71.05,Dr. One,30`;
    const good2 = `E2E-${stamp}-2,E2E Denver Site,Denver,CO,80202,US,39.74,-104.99,Dr. Two,`;
    const bad = `E2E-${stamp}-3,E2E Austin Site,Austin,TX,78701,US,300,-97.74,Dr. Three,`;
    const fixed = `E2E-${stamp}-3,E2E Austin Site,Austin,TX,78701,US,30.27,-97.74,Dr. Three,`;

    await page.getByRole('link', { name: 'Upload Sites' }).click();
    await page.waitForURL(`${base}/site-locations/upload/${engagementId}`);
    const chooser = page.getByLabel('Sites file (.csv or .xlsx)');
    await chooser.setInputFiles({ name: 'sites.csv', mimeType: 'text/csv', buffer: Buffer.from([header, good1, good2, bad].join('\n')) });
    await page.getByRole('button', { name: 'Upload' }).click();
    const alert = page.getByRole('alert');
    await alert.getByText('Row 4, latitude: Must be a number from -90 to 90.').waitFor();
    expect(await alert.textContent()).toContain('Nothing was imported.');
    const none = await api(`engagements-site-locations?engagementId=${engagementId}`);
    expect(none.meta.total).toBe(0);
    const sites = await api(`site-locations?searchQuery=E2E-${stamp}`);
    expect(sites.meta.total).toBe(0);

    await chooser.setInputFiles({ name: 'sites.csv', mimeType: 'text/csv', buffer: Buffer.from([header, good1, good2, fixed].join('\n')) });
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('status').filter({ hasText: 'Imported 3 rows: 3 new site locations, 3 newly linked' }).waitFor();
    const linked = await api(`engagements-site-locations?engagementId=${engagementId}`);
    expect(linked.meta.total).toBe(3);
  });

  it("edits a link's radius on the site associations screen", async () => {
    await page.getByRole('link', { name: 'See the linked sites' }).click();
    await page.waitForURL(`${base}/engagements/site-locations/${engagementId}`);
    const radius = page.getByLabel('Radius for E2E Denver Site');
    await radius.fill('45');
    await page.getByRole('button', { name: 'Save E2E Denver Site' }).click();
    await page.getByText('E2E Denver Site saved.').waitFor();
    const links = await api(`engagements-site-locations?engagementId=${engagementId}&searchQuery=Denver`);
    expect(links.data[0].attributes.radius).toBe(45);
    await expect.poll(() => radius.inputValue()).toBe('45');
  });

  it("shows the sponsor list's engagement and site figures changed", async () => {
    await page.goto(`${base}/sponsors?searchQuery=${sponsorIdentification}`);
    await sponsorRow().waitFor();
    const cells = await sponsorRow().getByRole('cell').allTextContents();
    expect(cells.slice(-4, -1)).toEqual(['1 / 1', '3', '0 / 0 / 0']);
  });
});
