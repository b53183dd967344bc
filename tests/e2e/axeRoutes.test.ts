/**
 * Every admin screen of the route table, at 1366×860 and at 390×844, in the real bundle over the
 * demo data: axe finds no serious or critical violation once the screen has its data (Log In as a
 * visitor not signed in sees it, Not Found at an address no route has). A route's
 * :params are filled with records the demo (and this file) provide; a route added to the table
 * without a way to fill its params fails here until it is given one.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ROUTES } from '../../admin/routing/routes';
import { launchBrowser } from './browser';
import { adminApiOn, signInAsAdmin } from './admin-session';
import { axeViolations } from './axe';
import { settled } from './settled';

const base = inject('baseUrl');
const stamp = Date.now().toString(36).toUpperCase();
let browser: Browser;
let page: Page;
const { api, post, signIn } = adminApiOn(base);

/** The first record of a list, by id. */
async function first(path: string, query = ''): Promise<string> {
  const doc = await api(`${path}?limit=10${query}`);
  if (!Array.isArray(doc.data)) throw new Error(`${path}: ${JSON.stringify(doc)}`);
  return (doc.data as { id: string }[])[0]?.id ?? '';
}
const created = async (path: string, type: string, attributes: Record<string, unknown>) => ((await post(path, type, attributes)).data as { id: string }).id;

/** Each route's path with its params filled; null for routes that show no screen of their own. */
const paths = new Map<string, string | null>();
/** Screens only a visitor who is not signed in sees (Log In), opened in a context of their own. */
const signedOut = new Map<string, string>();

beforeAll(async () => {
  await signIn();
  const engagement = await first('engagements', '&searchQuery=Healthy%20Heart%20Study');
  const channel = await first('media-channels', '&searchQuery=Demo%20partner%20page');
  const screener = String(((await api(`media-channels/${channel}`)).data as { attributes: { screenerId: number } }).attributes.screenerId);
  const sponsor = await first('sponsors');
  const ids: Record<string, string> = {
    sponsor,
    engagement,
    channel,
    screener,
    oform: await first('o-forms/o-forms'),
    site: await first('site-locations'),
    legacy: (await first('surveys')) || (await created('surveys', 'surveys', { title: `E2E Axe Survey ${stamp}`, engagementId: Number(engagement) })),
    user: await first('users'),
    message: await first('generic-messages'),
    contactField: await first('contact-fields'),
    // The demo's referrals (every status), for the referral view.
    referral: await first('referrals'),
    language: await first('languages'),
    provider:
      (await first('rms-providers')) || (await created('rms-providers', 'rms-providers', { name: `E2E Axe RMS ${stamp}`, kind: 'none', isActive: false })),
  };
  // Which record a route's :param names, by route.
  const idFor: Record<string, string> = {
    Sponsors: ids.sponsor!,
    Engagements: ids.engagement!,
    SiteAssociations: ids.engagement!,
    MediaChannel: ids.channel!,
    Screener: ids.screener!,
    VersionedSurvey: ids.oform!,
    SiteLocations: ids.site!,
    Surveys: ids.legacy!,
    Users: ids.user!,
    GenericMessages: ids.message!,
    ContactFields: ids.contactField!,
    Languages: ids.language!,
    RmsProviders: ids.provider!,
    Referrals: ids.referral!,
  };
  for (const route of ROUTES) {
    // Log Out ends the session the other screens are opened in; the provider's log-out leaves the admin.
    if (route.redirect || route.name === 'Logout' || route.requiredQuery) {
      paths.set(route.name, null);
      continue;
    }
    if (route.access.kind === 'anonymous') {
      signedOut.set(route.name, route.path);
      continue;
    }
    if (route.name === 'NotFound') {
      paths.set(route.name, `/e2e-no-such-screen-${stamp.toLowerCase()}`);
      continue;
    }
    const own = Object.entries(idFor).find(([prefix]) => route.name.startsWith(prefix))?.[1] ?? '';
    const path = route.path
      .replace(':engagementId?', '')
      .replace(':screenerId?', '')
      .replace(':selectedSponsorId?', ids.sponsor!)
      .replace(':selectedSponsorId', ids.sponsor!)
      .replace(':engagementId', route.name.startsWith('Surveys') || route.name.startsWith('SiteLocations') ? ids.engagement! : own)
      .replace(':screenerId', route.name.startsWith('Screener') ? own : ids.screener!)
      .replace(':id', own)
      .replace(/\/$/, '');
    paths.set(route.name, path);
  }
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1366, height: 860 } })).newPage();
  await signInAsAdmin(page, base);
});
afterAll(async () => {
  await browser?.close();
});

/** Opens `path` in `on`, waits until the screen has its code and data, and runs axe. */
async function checkScreen(on: Page, name: string, path: string, found: string[]): Promise<void> {
  expect(path, name).not.toMatch(/:|\/\/|\/$/);
  await on.goto(`${base}${path}`);
  await on.locator('main').first().waitFor();
  // The screen's code has arrived (the router's fallback is a loading status too) and its data.
  await settled(on).catch((error: unknown) => {
    throw new Error(`${name} ${path} never settled`, { cause: error });
  });
  expect(new URL(on.url()).pathname, name).toBe(path || '/');
  for (const violation of await axeViolations(on)) found.push(`${name} ${path}: ${violation}`);
}

async function check(): Promise<string[]> {
  const found: string[] = [];
  for (const [name, path] of paths) if (path !== null) await checkScreen(page, name, path, found);
  const visitor = await (await browser.newContext({ viewport: page.viewportSize()! })).newPage();
  try {
    for (const [name, path] of signedOut) await checkScreen(visitor, name, path, found);
  } finally {
    await visitor.context().close();
  }
  return found;
}

describe('axe over every admin screen', () => {
  // Some sixty screens each: about three minutes on a loaded machine.
  it('finds nothing serious at 1366×860', { timeout: 480_000 }, async () => {
    expect(await check()).toEqual([]);
  });

  it('finds nothing serious at 390×844', { timeout: 480_000 }, async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await check()).toEqual([]);
  });
});
