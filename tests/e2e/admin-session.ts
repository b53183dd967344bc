/** Signing in as the e2e admin, through the API (for fixtures) or the login page (for the browser). */
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { launchBrowser } from './browser';
import { E2E_ADMIN_PASSWORD } from './server';

export async function adminToken(base: string): Promise<string> {
  const login = await fetch(`${base}/api/jwt/login?t=a`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/vnd.api+json' },
    body: JSON.stringify({ data: { username: 'admin', password: E2E_ADMIN_PASSWORD } }),
  });
  const body = (await login.json()) as { access?: string };
  if (!body.access) throw new Error(`e2e admin could not sign in: ${JSON.stringify(body)}`);
  return body.access;
}

/** The laptop screen the admin is laid out for, as its layout tests open it. */
export const LAPTOP_SCREEN = { width: 1366, height: 860 };

/** A JSON:API caller with the given token, for setting up and checking fixtures. */
export const apiCaller =
  (base: string, token: () => string) =>
  // Fixture documents are read loosely in tests; the product's own types are checked elsewhere.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async <T = any>(path: string, init: RequestInit = {}): Promise<T> => {
    const res = await fetch(`${base}/api/${path}`, {
      ...init,
      headers: { 'Content-Type': 'application/vnd.api+json', Authorization: `Bearer ${token()}`, ...init.headers },
    });
    return (await res.json()) as T;
  };

/** POSTs a new resource of `type` with `attributes` through `api`, answering its document. */
export const postResource = (api: ReturnType<typeof apiCaller>, path: string, type: string, attributes: Record<string, unknown>) =>
  api(path, { method: 'POST', body: JSON.stringify({ data: { type, attributes } }) });

export async function signInAsAdmin(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/login`);
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill(E2E_ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Log In', exact: true }).click();
  await page.waitForURL(`${base}/sponsors`);
}

/** A browser of its own for a test file, with a page opened with `options` and signed in as the admin. */
export async function openAdminBrowser(base: string, options: BrowserContextOptions = {}): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchBrowser();
  const page = await browser.newPage(options);
  await signInAsAdmin(page, base);
  return { browser, page };
}

/** A page of `browser` at `viewport`, each wait up to 20 s, signed in as the admin. */
export async function adminPage(browser: Browser, base: string, viewport: { width: number; height: number }): Promise<Page> {
  const page = await browser.newPage({ viewport });
  page.setDefaultTimeout(20_000);
  await signInAsAdmin(page, base);
  return page;
}

/**
 * An admin's JSON:API caller on `base`, `post` for a new resource through it, and `signIn` that
 * gives it its token (in a beforeAll: the server is up by then).
 */
export function adminApiOn(base: string) {
  let token = '';
  const api = apiCaller(base, () => token);
  return {
    api,
    post: (path: string, type: string, attributes: Record<string, unknown>) => postResource(api, path, type, attributes),
    async signIn() {
      token = await adminToken(base);
    },
  };
}
