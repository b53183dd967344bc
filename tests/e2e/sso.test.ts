/**
 * Single sign-on in Chromium: the admin's 'Log In with DUO' goes to a local SAML identity
 * provider (a small HTTP server signing with the fixture key), back through the assertion
 * consumer to the auto-submitted sign-in, and out again through the provider's logout.
 */
import fs from 'node:fs';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { inArray } from 'drizzle-orm';
import { launchBrowser } from './browser';
import { freePort, prepareDataDir, startServer, tempDataDir, type RunningServer } from './server';
import { IDP_CERT, IDP_ISSUER, buildResponse, readAuthnRequest } from '../support/saml-idp';
import { roles, userRoles, users } from '../../server/db/schema';

let server: RunningServer;
let idp: http.Server;
let idpUrl: string;
let browser: Browser;

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

beforeAll(async () => {
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const idpPort = await freePort();
  idpUrl = `http://127.0.0.1:${idpPort}`;

  // The identity provider signs everyone in as the staff member below and posts back at once.
  idp = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', idpUrl);
    if (url.pathname === '/sso') {
      const request = readAuthnRequest(url.toString());
      const response = buildResponse({
        inResponseTo: request.id,
        acsUrl: request.acsUrl,
        audience: `${appUrl}/jwt/saml/metadata/duo`,
        email: 'duo.staff@example.com',
      });
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(`<!doctype html><body><form method="post" action="${escapeXml(request.acsUrl)}">
<input type="hidden" name="SAMLResponse" value="${escapeXml(response)}">
<input type="hidden" name="RelayState" value="${escapeXml(request.relayState ?? '')}">
<button>Continue</button></form><script>document.forms[0].submit()</script></body>`);
      return;
    }
    if (url.pathname === '/logout') {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<!doctype html><h1>Signed out of DUO</h1>');
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => idp.listen(idpPort, '127.0.0.1', resolve));

  const dataDir = tempDataDir();
  await prepareDataDir(dataDir, async (db) => {
    const [staff] = await db.insert(users).values({ username: 'duo-staff', email: 'duo.staff@example.com' }).returning();
    const [admin] = await db
      .select()
      .from(roles)
      .where(inArray(roles.name, ['Admin']));
    await db.insert(userRoles).values({ userId: staff!.id, roleId: admin!.id });
  });
  server = await startServer({
    dataDir,
    port,
    env: {
      DIST_DIR: inject('distDir'),
      PUBLIC_URL: appUrl,
      SSO_SERVICES: 'duo',
      SSO_DUO_ENTRY_POINT: `${idpUrl}/sso`,
      SSO_DUO_CERT: IDP_CERT,
      SSO_DUO_IDP_ISSUER: IDP_ISSUER,
      SSO_DUO_LOGOUT_URL: `${idpUrl}/logout`,
    },
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
  await new Promise((resolve) => idp?.close(resolve));
});

describe('single sign-on with DUO', () => {
  it('signs in through the identity provider and signs out through it', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/sponsors`);
    await page.waitForURL(/\/login\?redirect=/);
    await page.getByRole('link', { name: 'Log In with DUO' }).click();
    // Identity provider, assertion consumer, auto-submitted sign-in, then where the visitor was going.
    await page.waitForURL(`${server.url}/sponsors`, { timeout: 20_000 });
    await page.getByRole('table', { name: 'Sponsors' }).waitFor();
    await page.getByRole('button', { name: 'duo-staff' }).waitFor();
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'auth_token_admin')?.value).toBeTruthy();
    // The one-time hand-off is gone once exchanged.
    expect(cookies.find((c) => c.name === 'sso_handoff')).toBeUndefined();

    await page.getByRole('button', { name: 'duo-staff' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(`${idpUrl}/logout`);
    await page.getByRole('heading', { name: 'Signed out of DUO' }).waitFor();
    expect((await page.context().cookies()).filter((c) => c.name.startsWith('auth_token_admin') && c.value)).toEqual([]);
  });
});
