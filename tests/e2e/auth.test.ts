/**
 * Staff sign-in in the real admin bundle: redirects, messages, the authenticator step, Reset,
 * sign-out, role-based navigation and the 403 / 404 pages. Uses a server of its own whose
 * database is prepared with a two-factor user and a `User` before it starts.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { authenticator } from 'otplib';
import { eq, inArray } from 'drizzle-orm';
import { launchBrowser } from './browser';
import { E2E_ADMIN_PASSWORD, prepareDataDir, startServer, tempDataDir, type RunningServer } from './server';
import { hashPassword } from '../../server/auth/passwords';
import { roles, sponsors, userRoles, userSponsors, users } from '../../server/db/schema';

const TOTP_SECRET = authenticator.generateSecret(20);
let server: RunningServer;
let browser: Browser;
let base: string;

beforeAll(async () => {
  const dataDir = tempDataDir();
  await prepareDataDir(dataDir, async (db) => {
    const [twoFactor] = await db
      .insert(users)
      .values({ username: 'two-factor', passwordHash: await hashPassword('two-factor-pass'), totpSecret: TOTP_SECRET, secretVerified: true })
      .returning();
    const [plain] = await db
      .insert(users)
      .values({ username: 'plain-user', passwordHash: await hashPassword('plain-user-pass') })
      .returning();
    const found = await db
      .select()
      .from(roles)
      .where(inArray(roles.name, ['Admin', 'User']));
    const roleId = (name: string) => found.find((r) => r.name === name)!.id;
    await db.insert(userRoles).values([
      { userId: twoFactor!.id, roleId: roleId('Admin') },
      { userId: plain!.id, roleId: roleId('User') },
    ]);
    const [northwind] = await db.select().from(sponsors).where(eq(sponsors.identification, 'NWT'));
    await db.insert(userSponsors).values({ userId: plain!.id, sponsorId: northwind!.id });
  });
  // The distDir of the shared e2e server holds this run's bundles.
  server = await startServer({ dataDir, env: { DIST_DIR: inject('distDir') } });
  base = server.url;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
});

async function signIn(page: Page, username: string, password: string) {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In', exact: true }).click();
}

async function fresh(): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

/** A fresh page signed in through the login form, at the sponsors index where sign-in lands. */
async function signedIn(username: string, password: string): Promise<Page> {
  const page = await fresh();
  await page.goto(`${base}/login`);
  await signIn(page, username, password);
  await page.waitForURL(`${base}/sponsors`);
  return page;
}

describe('sign-in', () => {
  it('sends an unauthenticated visitor to /login and back where they were going', async () => {
    const page = await fresh();
    await page.goto(`${base}/sponsors/add`);
    await page.waitForURL(/\/login\?redirect=/);
    await page.getByRole('heading', { name: 'Log in with an existing account' }).waitFor();
    await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
    await page.waitForURL(`${base}/sponsors/add`);
    const cookies = await page.context().cookies();
    expect(cookies.map((c) => c.name).sort()).toEqual(['auth_token_admin', 'auth_token_admin_refresh']);
    await page.context().close();
  });

  it('shows the server message under the fields for a wrong password, and validates before sending', async () => {
    const page = await fresh();
    await page.goto(`${base}/login`);
    let loginCalls = 0;
    page.on('request', (r) => r.url().includes('/api/jwt/login') && loginCalls++);
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    await page.getByText('This field is required.').first().waitFor();
    expect(loginCalls).toBe(0);
    await signIn(page, 'admin', 'wrong-password');
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Invalid username or password.');
    expect(page.url()).toContain('/login');
    await page.context().close();
  });

  it('asks for the authenticator code, Reset goes back, and six typed digits sign in', async () => {
    const page = await fresh();
    await page.goto(`${base}/login`);
    await signIn(page, 'two-factor', 'two-factor-pass');
    const code = page.getByLabel('Google Authenticator Code');
    await code.waitFor();
    await page.getByRole('button', { name: 'Reset' }).click();
    await page.getByLabel('Username').waitFor();
    expect(await code.count()).toBe(0);

    await signIn(page, 'two-factor', 'two-factor-pass');
    await code.waitFor();
    await code.pressSequentially('000000'.slice(0, 3));
    expect(page.url()).toContain('/login');
    await code.fill('');
    // Typing the sixth digit submits: no button press.
    await code.pressSequentially(authenticator.generate(TOTP_SECRET));
    await page.waitForURL(`${base}/sponsors`);
    await page.getByRole('table', { name: 'Sponsors' }).waitFor();
    await page.context().close();
  });

  it('sends a signed-in visitor of /login to the sponsors index, and signs out', async () => {
    const page = await signedIn('admin', E2E_ADMIN_PASSWORD);
    await page.goto(`${base}/login`);
    await page.waitForURL(`${base}/sponsors`);
    await page.goto(`${base}/`);
    await page.waitForURL(`${base}/sponsors`);

    await page.getByRole('button', { name: 'admin' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(/\/login/);
    expect((await page.context().cookies()).filter((c) => c.name.startsWith('auth_token_admin') && c.value)).toEqual([]);
    await page.goto(`${base}/sponsors`);
    await page.waitForURL(/\/login\?redirect=/);
    await page.context().close();
  });
});

describe('roles and error pages', () => {
  it('sends a User to 403 on /site-locations and hides the menu items they may not use', async () => {
    const page = await signedIn('plain-user', 'plain-user-pass');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Sponsors' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Site Locations' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'User Management' }).count()).toBe(0);
    // Only the assigned sponsor is listed.
    const rows = page.getByRole('table', { name: 'Sponsors' }).getByRole('row');
    await page.getByRole('cell', { name: 'Northwind Therapeutics', exact: true }).waitFor();
    expect(await rows.count()).toBe(2);

    await page.goto(`${base}/site-locations`);
    await page.waitForURL(`${base}/403`);
    await page.getByText('Oops! You are forbidden to access this page based on your access level.').waitFor();
    await page.context().close();
  });

  it('shows the 404 page for an unknown path', async () => {
    const page = await signedIn('admin', E2E_ADMIN_PASSWORD);
    await page.goto(`${base}/no/such/page`);
    await page.getByText("Oops! The page you're looking for is not here.").waitFor();
    await page.context().close();
  });
});
