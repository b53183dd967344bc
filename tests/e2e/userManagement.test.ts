/**
 * User management and system configuration in the real admin bundle, on the shared e2e
 * server: an Admin creates a User with one sponsor; that user signs in, must set their own
 * password, enrols two-factor with a code computed from the secret the screen shows, signs out
 * and back in with a code; the Admin then edits a Spanish translation and adds a language.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { authenticator } from 'otplib';
import { normalizeIsoCode, toUiIsoCode } from '@core/i18n';
import { launchBrowser } from './browser';
import { E2E_ADMIN_PASSWORD } from './server';

const base = inject('baseUrl');
const suffix = randomBytes(3).toString('hex');
const username = `e2e-user-${suffix}`;
const initialPassword = `initial-${suffix}`;
const ownPassword = `my-own-${suffix}`;
const sponsorName = `E2E Users Sponsor ${suffix}`;
let browser: Browser;
let adminContext: BrowserContext;
let admin: Page;
let secret = '';

async function signIn(page: Page, name: string, password: string) {
  await page.goto(`${base}/login`);
  await page.getByLabel('Username').fill(name);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In', exact: true }).click();
}

async function api(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const res = await fetch(`${base}/api/${path}`, {
    method: init.method ?? 'GET',
    headers: {
      'Content-Type': 'application/vnd.api+json',
      ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}

async function adminToken() {
  const { body } = await api('jwt/login?t=a', { method: 'POST', body: { data: { username: 'admin', password: E2E_ADMIN_PASSWORD } } });
  return body.access as string;
}

beforeAll(async () => {
  browser = await launchBrowser();
  const token = await adminToken();
  const created = await api('sponsors', {
    method: 'POST',
    token,
    body: { data: { type: 'sponsors', attributes: { name: sponsorName, identification: `E2EU-${suffix}` } } },
  });
  expect(created.status).toBe(201);
  adminContext = await browser.newContext();
  admin = await adminContext.newPage();
  await signIn(admin, 'admin', E2E_ADMIN_PASSWORD);
  await admin.waitForURL(`${base}/sponsors`);
});

afterAll(async () => {
  await browser?.close();
});

describe('user management end to end', () => {
  it('an Admin creates a User with one sponsor', async () => {
    await admin.goto(`${base}/users`);
    await admin.getByRole('link', { name: 'Add', exact: true }).click();
    await admin.waitForURL(`${base}/users/add`);
    await admin.getByLabel('Username').fill(username);
    await admin.getByLabel('Email').fill(`${username}@example.com`);
    await admin.getByLabel('Initial Password').fill(initialPassword);
    await admin.getByRole('checkbox', { name: 'User', exact: true }).check();
    const filter = admin.getByLabel('Filter Sponsors');
    if (await filter.count()) await filter.fill(suffix);
    await admin.getByRole('checkbox', { name: sponsorName }).check();
    await admin.getByRole('button', { name: 'Save' }).click();
    await admin.waitForURL(`${base}/users`);
    await admin.getByRole('searchbox').first().fill(username);
    const row = admin.getByRole('row').filter({ has: admin.getByRole('link', { name: username }) });
    await row.waitFor();
    expect(await row.textContent()).toContain('User');
  });

  it('the user must set a new password at first sign-in, then sees only their sponsor', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, username, initialPassword);
    await page.waitForURL(`${base}/change-password`);
    // Nothing else is reachable before the change.
    await page.goto(`${base}/sponsors`);
    await page.waitForURL(`${base}/change-password`);
    await page.getByLabel('Current Password').fill(initialPassword);
    await page.getByLabel('New Password', { exact: true }).fill(ownPassword);
    await page.getByLabel('Repeat New Password').fill(ownPassword);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.waitForURL(`${base}/sponsors`);
    await page.getByRole('link', { name: sponsorName }).waitFor();
    // Their one sponsor and no other row.
    const rows = page.getByRole('table', { name: 'Sponsors' }).locator('tbody tr');
    expect(await rows.count()).toBe(1);
    await rows.first().getByRole('link', { name: sponsorName, exact: true }).waitFor();

    // Two-factor from the profile menu: the code is computed from the secret the screen shows.
    await page.getByRole('button', { name: new RegExp(username) }).click();
    await page.getByRole('menuitem', { name: /Two-Factor Authentication/ }).click();
    await page.waitForURL(`${base}/profile/two-factor`);
    await page.getByRole('button', { name: 'Set Up Two-Factor Sign-In' }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    secret = (await page.getByTestId('totp-secret').getAttribute('data-secret')) ?? '';
    expect((await page.getByTestId('totp-secret').textContent())?.replace(/\s/g, '')).toBe(secret);
    // A wrong code: none of the steps the server may accept while this runs (it allows one either side).
    const nearby = [-30_000, 0, 30_000, 60_000].map((ms) => authenticator.clone({ epoch: Date.now() + ms }).generate(secret));
    await page.getByLabel('Authenticator Code').fill(['000000', '111111', '222222', '333333', '444444'].find((c) => !nearby.includes(c))!);
    await page.getByRole('button', { name: 'Verify and Turn On' }).click();
    await page.getByText('The code is not valid. Check your authenticator app and try again.').waitFor();
    await page.getByLabel('Authenticator Code').fill(authenticator.generate(secret));
    await page.getByRole('button', { name: 'Verify and Turn On' }).click();
    await page.getByText('Two-factor sign-in is on. Each sign-in asks for a code from your authenticator app.').waitFor();

    await page.getByRole('button', { name: new RegExp(username) }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(`${base}/login`);

    // Signing in again asks for a code; the one used to enrol is spent, so the next one.
    await signIn(page, username, ownPassword);
    const code = page.getByLabel('Google Authenticator Code');
    await code.waitFor();
    await code.fill(authenticator.clone({ epoch: Date.now() + 30_000 }).generate(secret));
    await page.waitForURL(`${base}/sponsors`);
    await page.getByRole('link', { name: sponsorName }).waitFor();
    await context.close();
  });

  it('the Admin edits a Spanish translation of a generic message', async () => {
    await admin.goto(`${base}/generic-messages`);
    await admin.getByRole('link', { name: 'progress_label' }).click();
    await admin.waitForURL(/\/generic-messages\/edit\/\d+$/);
    const spanish = admin.getByLabel('Spanish translation', { exact: true });
    expect(await spanish.inputValue()).toBe('Progreso');
    await spanish.fill(`Avance ${suffix}`);
    await admin.getByRole('button', { name: 'Save' }).click();
    await admin.waitForURL(`${base}/generic-messages`);
    const { body } = await api('generic-messages?searchQuery=progress_label', { token: await adminToken() });
    expect(body.data[0].attributes.translations.es).toBe(`Avance ${suffix}`);
  });

  it('the Admin adds a language', async () => {
    // Typed in lower case; stored as fr_<REGION> and shown with a hyphen.
    const typed = `fr-${suffix.slice(0, 2)}`;
    const shown = toUiIsoCode(normalizeIsoCode(typed));
    expect(shown).toBe(`fr-${suffix.slice(0, 2).toUpperCase()}`);
    await admin.goto(`${base}/languages`);
    await admin.getByRole('link', { name: 'Add', exact: true }).click();
    await admin.waitForURL(`${base}/languages/add`);
    await admin.getByLabel('Name', { exact: true }).fill('Français');
    await admin.getByLabel('Description').fill(`French ${suffix}`);
    await admin.getByLabel('ISO Code').fill(typed);
    await admin.getByRole('button', { name: 'Save' }).click();
    await admin.waitForURL(/\/languages\/view\/\d+$/);
    await admin.getByText(shown, { exact: true }).waitFor();
    await admin.goto(`${base}/languages`);
    await admin.getByRole('link', { name: `French ${suffix}` }).waitFor();
  });
});
