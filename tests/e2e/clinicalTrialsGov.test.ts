/**
 * Sites from ClinicalTrials.gov in Chromium: on the demo engagement's view staff preview a study
 * served by a local API v2 stand-in, import it, and a participant on the demo partner page is
 * then offered the imported site first.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './browser';
import { adminToken, apiCaller, signInAsAdmin } from './admin-session';
import { startServer, type RunningServer } from './server';

const NCT = 'NCT09990077';
const STUDY = {
  protocolSection: {
    identificationModule: { nctId: NCT, briefTitle: 'Blood Pressure Sites Study' },
    statusModule: { overallStatus: 'RECRUITING' },
    contactsLocationsModule: {
      locations: [
        {
          facility: 'Chelsea Blood Pressure Clinic',
          status: 'RECRUITING',
          city: 'New York',
          state: 'New York',
          zip: '10001',
          country: 'United States',
          contacts: [{ name: 'Nora Quinn', role: 'PRINCIPAL_INVESTIGATOR' }],
          geoPoint: { lat: 40.7484, lon: -73.9967 },
        },
        { facility: 'Hospital Clínic de Barcelona', city: 'Barcelona', country: 'Spain', geoPoint: { lat: 41.38879, lon: 2.15899 } },
      ],
    },
  },
};

let api: http.Server;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  api = http.createServer((req, res) => {
    const found = req.url === `/api/v2/studies/${NCT}`;
    res.writeHead(found ? 200 : 404, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(found ? STUDY : { message: 'Not found' }));
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  server = await startServer({
    env: { DIST_DIR: inject('distDir'), DEMO_DATA: 'true', CTGOV_API_URL: `http://127.0.0.1:${(api.address() as AddressInfo).port}/api/v2` },
  });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((resolve) => api.close(resolve));
});

const heading = (page: Page, text: string) => page.locator('[data-trial-widget] h2', { hasText: text }).waitFor();
const next = (page: Page) => page.locator('[data-trial-widget] button[type=submit]').click();

describe('importing sites from ClinicalTrials.gov', () => {
  it('previews and imports on the engagement view; the demo page then offers the imported site', async () => {
    const token = await adminToken(server.url);
    const call = apiCaller(server.url, () => token);
    const engagements = await call('engagements?searchQuery=Healthy%20Heart%20Study');
    const engagementId = engagements.data[0].id as string;

    const page = await browser.newPage({ locale: 'en-US' });
    await signInAsAdmin(page, server.url);
    await page.goto(`${server.url}/engagements/view/${engagementId}`);
    await page.getByLabel('NCT number').fill(NCT);
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    await page.getByRole('heading', { name: 'New (2)' }).waitFor();
    expect(await page.locator('#clinicaltrials-gov').textContent()).toContain('Chelsea Blood Pressure Clinic');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText(`${NCT}: 2 new, 0 changed, 0 closed sites imported.`).waitFor();
    await page.close();

    const participant = await browser.newPage({ locale: 'en-US' });
    await participant.goto(`${server.url}/demo/`);
    await heading(participant, 'About you');
    await participant.locator('[data-trial-widget] label', { hasText: '18 to 64' }).click();
    await participant.locator('[data-trial-widget] label', { hasText: /^Yes$/ }).click();
    await next(participant);
    await heading(participant, 'Your heart health');
    await next(participant);
    await heading(participant, 'Where you live');
    await participant.locator('[data-trial-widget] input').fill('10001');
    await next(participant);
    await heading(participant, 'Choose a study site');
    const sites = await participant.locator('[data-trial-widget] .tw-site strong').allTextContents();
    expect(sites[0]).toBe('Chelsea Blood Pressure Clinic');
    expect(sites).not.toContain('Hospital Clínic de Barcelona');
    await participant.close();
  }, 120_000);
});
