/**
 * A recruitment team sets up its record system in the real admin bundle in Chromium: a Super
 * User adds a webhook provider (generating its secret), sends a test and sees the receiver's
 * answer, assigns the provider to an engagement by name, and after a participant's run sees the
 * delivery on the RMS audits screen; when the receiver fails, the screen shows the contact
 * retrying with the time of its next attempt.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './browser';
import { signInAsAdmin } from './admin-session';
import { prepareDataDir, startServer, tempDataDir, type RunningServer } from './server';
import { leaveQualifiedContact } from './qualifiedContact';
import { createParticipantFixture, type ParticipantFixture } from '../support/participantFixture';
import { verifyStandardWebhook } from '../support/standardWebhooks';
import { startRecordSystem, type RecordSystemReceiver } from '../support/recordSystemReceiver';

const PROVIDER = 'Sponsor CTMS (e2e)';
let server: RunningServer;
let receiver: RecordSystemReceiver;
let endpoint: string;
let failing = false;
const received = () => receiver.received;
let fixture!: ParticipantFixture;
let browser: Browser;
let page: Page;
let secret = '';

const participantRun = (email: string) => leaveQualifiedContact(server, fixture, email);

beforeAll(async () => {
  receiver = await startRecordSystem(() =>
    failing ? { status: 503, body: 'maintenance' } : { status: 200, contentType: 'application/json', body: '{"filed":true}' },
  );
  endpoint = `${receiver.origin}/referrals`;
  const dataDir = tempDataDir();
  await prepareDataDir(dataDir, async (db) => {
    fixture = await createParticipantFixture(db);
  });
  server = await startServer({ dataDir, env: { DIST_DIR: inject('distDir'), PARTICIPANT_SUBMISSIONS_PER_ADDRESS: '0', PARTICIPANT_PAGES_PER_ADDRESS: '0' } });
  browser = await launchBrowser();
  page = await browser.newPage();
  await signInAsAdmin(page, server.url);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await receiver?.close();
});

describe('record systems in the admin', () => {
  it('adds a webhook provider with a generated secret and sends a test', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Record Systems' }).click();
    await page.waitForURL(`${server.url}/rms-providers`);
    await page.getByRole('link', { name: 'Add' }).click();
    await page.getByLabel('Name').fill(PROVIDER);
    await page.getByLabel('Kind').selectOption('webhook');
    await page.getByLabel('Endpoint URL').fill(endpoint);
    await page.getByRole('button', { name: 'Generate' }).click();
    secret = await page.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/rms-providers\/edit\/\d+$/);
    // The edit screen is a chunk of its own: until it has loaded, the add screen (with what was
    // typed) stays on display under the new URL. Send test exists on the edit screen only.
    await page.getByRole('button', { name: 'Send test' }).waitFor();
    // Write-only: the saved secret is never shown again.
    expect(await page.getByLabel('Signing secret').inputValue()).toBe('');
    expect(await page.content()).not.toContain(secret.slice(6));

    await page.getByRole('button', { name: 'Send test' }).click();
    const result = page.getByRole('status');
    await result.getByText('HTTP 200', { exact: false }).waitFor();
    expect(await result.textContent()).toContain('Accepted');
    expect(await result.textContent()).toMatch(/\(\d+ ms\)/);
    // Status and timing only: what the receiver answered stays on the server.
    expect(await result.textContent()).not.toContain('{"filed":true}');
    const test = received().at(-1)!;
    expect(JSON.parse(test.body)).toMatchObject({ type: 'referral.test', data: { test: true } });
    expect(await verifyStandardWebhook(secret, test.headers, test.body, Date.now() / 1000)).toBe(true);
  });

  it('assigns the provider to an engagement by name', async () => {
    await page.goto(`${server.url}/engagements/edit/${fixture.engagementIds[0]}`);
    const picker = page.getByLabel('RMS Provider');
    await expect.poll(() => picker.locator('option', { hasText: PROVIDER }).count(), { timeout: 15_000 }).toBe(1);
    await picker.selectOption({ label: PROVIDER });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(`${server.url}/engagements/view/${fixture.engagementIds[0]}`);
    await page.getByText(PROVIDER).first().waitFor();
  });

  it("shows a participant's referral delivered on the RMS audits screen", async () => {
    const before = received().length;
    await participantRun('rae.delivered@example.com');
    await expect.poll(() => received().length, { timeout: 15_000 }).toBe(before + 1);
    expect(await verifyStandardWebhook(secret, received().at(-1)!.headers, received().at(-1)!.body, Date.now() / 1000)).toBe(true);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'RMS Audits' }).click();
    await page.getByLabel('Status').selectOption('delivered');
    await page.waitForURL(/status=delivered/);
    const row = page.getByRole('row').filter({ hasText: PROVIDER }).first();
    await row.waitFor();
    expect(await row.textContent()).toContain('Delivered');
    // A delivered contact is sent again only on purpose.
    expect(await row.getByRole('button', { name: /^Send again contact/ }).count()).toBe(1);
  });

  it('shows a failing receiver as retrying, with the next attempt time', async () => {
    failing = true;
    await participantRun('rae.retrying@example.com');
    await expect.poll(() => received().filter((r) => r.body.includes('rae.retrying@example.com')).length, { timeout: 15_000 }).toBe(1);
    await page.goto(`${server.url}/rms-audits?status=retrying`);
    const row = page.getByRole('row').filter({ hasText: 'Retrying' }).first();
    await row.waitFor();
    expect(await row.textContent()).toMatch(/next attempt/);
    expect(await row.textContent()).toContain('HTTP 503 Service Unavailable');
    expect(await row.getByRole('button', { name: /^Resend contact/ }).count()).toBe(1);
  });
});
