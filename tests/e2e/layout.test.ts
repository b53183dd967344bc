/**
 * The admin on a laptop (1366×860) and a phone (390 px wide), in the real bundle: lists fit their
 * frame, no screen scrolls sideways, buttons beside fields and on the dark cards line up, every
 * page of the survey builder can be clicked, the favicon is served, and axe finds no serious or
 * critical violation on those screens.
 */
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { launchBrowser } from './browser';
import { adminApiOn, signInAsAdmin } from './admin-session';
import { axeViolations } from './axe';
import { settled } from './settled';

const base = inject('baseUrl');
const LAPTOP = { width: 1366, height: 860 };
const PHONE = { width: 390, height: 844 };
const stamp = Date.now().toString(36).toUpperCase();
const LONG_TITLE = 'About your health history, the medicines you take and any clinical study you joined before';

let browser: Browser;
let context: BrowserContext;
let page: Page;
const failed: string[] = [];
const ids = { sponsor: '', engagement: '', survey: '', screener: '', channel: '' };

const { api, post, signIn } = adminApiOn(base);
const create = async (path: string, type: string, attributes: Record<string, unknown>) =>
  (await post(path, type, attributes)).data as { id: string; attributes: Record<string, unknown> };

beforeAll(async () => {
  await signIn();
  ids.sponsor = (await create('sponsors', 'sponsors', { name: `E2E Layout Pharma ${stamp}`, identification: `LAY-${stamp}` })).id;
  ids.engagement = (
    await create('engagements', 'engagements', { name: `E2E Layout Study ${stamp}`, identification: `LAYE-${stamp}`, sponsorId: Number(ids.sponsor) })
  ).id;
  const survey = await create('o-forms/o-forms', 'o-forms', { title: `E2E Layout Survey ${stamp}`, engagementId: Number(ids.engagement) });
  ids.survey = survey.id;
  await create('o-forms/o-form-containers', 'o-form-containers', { oFormId: Number(ids.survey) });
  await create('o-forms/o-form-containers', 'o-form-containers', { oFormId: Number(ids.survey) });
  const doc = await api(`o-forms/o-forms/${ids.survey}`);
  const firstPage = doc.data.relationships.oFormContainers.data[0].id as string;
  await api(`o-forms/o-form-containers/${firstPage}`, {
    method: 'PATCH',
    body: JSON.stringify({ data: { type: 'o-form-containers', id: firstPage, attributes: { title: LONG_TITLE } } }),
  });
  // The demo channel and its screener: a channel with surveys and a preview.
  const channels = await api('media-channels?limit=1000');
  const demo = (channels.data as { id: string; attributes: { title: string; screenerId: number } }[]).find((c) => c.attributes.title === 'Demo partner page');
  if (!demo) throw new Error('the demo media channel is missing');
  ids.channel = demo.id;
  ids.screener = String(demo.attributes.screenerId);

  browser = await launchBrowser();
  context = await browser.newContext({ viewport: LAPTOP });
  page = await context.newPage();
  // No screen makes a request that is expected to fail.
  page.on('response', (r) => r.status() >= 400 && failed.push(`${r.status()} ${r.request().method()} ${r.url()}`));
  await signInAsAdmin(page, base);
});
afterAll(async () => {
  await browser?.close();
});
afterEach(() => {
  expect(failed.splice(0)).toEqual([]);
});

const box = async (locator: Locator) => {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not visible');
  return b;
};

/** Opens a screen and waits until its main content has rendered and nothing on it is still loading. */
async function open(path: string, ready: (p: Page) => Locator) {
  await page.goto(`${base}${path}`);
  await ready(page).first().waitFor();
  await settled(page);
}

describe('at 1366×860', () => {
  it('shows every column of the sponsors list inside its frame', async () => {
    // A row with a sponsor's link: the placeholder row "Loading…" is a row too.
    await open('/sponsors', (p) => p.getByRole('table', { name: 'Sponsors' }).getByRole('row').nth(1).getByRole('link'));
    const frame = page.locator('.table-wrap').first();
    const sizes = await frame.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(sizes.scroll).toBeLessThanOrEqual(sizes.client);
    const right = (await box(frame)).x + (await box(frame)).width;
    for (const header of await page.getByRole('columnheader').all()) {
      const b = await box(header);
      expect(b.x + b.width, await header.innerText()).toBeLessThanOrEqual(right + 0.5);
    }
    expect(await page.getByRole('columnheader', { name: 'Actions' }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('reaches every page of the survey builder with the mouse, however long a title', async () => {
    await open(`/surveys-new/edit/${ids.survey}`, (p) => p.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'New Page 3', exact: true }));
    const pages = page.getByRole('navigation', { name: 'Pages' });
    for (const name of [LONG_TITLE, 'New Page 2', 'New Page 3', LONG_TITLE]) {
      const button = pages.getByRole('button', { name, exact: true });
      await button.scrollIntoViewIfNeeded();
      const panel = await box(pages);
      const b = await box(button);
      // Inside the panel, and the topmost element where the pointer lands is the button itself.
      expect(b.x).toBeGreaterThanOrEqual(panel.x);
      expect(b.x + b.width).toBeLessThanOrEqual(panel.x + panel.width);
      const x = b.x + Math.min(b.width / 2, 20);
      const y = b.y + b.height / 2;
      expect(await page.evaluate(([px, py]) => document.elementFromPoint(px!, py!)?.closest('button')?.textContent, [x, y])).toBe(name);
      await page.mouse.click(x, y);
      await expect.poll(() => button.getAttribute('aria-pressed')).toBe('true');
    }
    expect(await axeViolations(page)).toEqual([]);
  });

  it('keeps buttons beside a field level with its input', async () => {
    await open(`/media-channels/view/${ids.channel}`, (p) => p.getByRole('button', { name: 'Preview', exact: true }));
    // Both measured at once: panels above may still be growing as their data arrives.
    const [input, button] = await page
      .getByRole('button', { name: 'Preview', exact: true })
      .evaluate((b) => [b.parentElement!.querySelector('select')!.getBoundingClientRect().toJSON(), b.getBoundingClientRect().toJSON()] as DOMRect[]);
    expect(Math.abs(button!.y - input!.y)).toBeLessThanOrEqual(1);
    expect(Math.abs(button!.height - input!.height)).toBeLessThanOrEqual(1);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('lines the buttons of a dark card up', async () => {
    await open('/change-password', (p) => p.getByRole('button', { name: 'Change Password' }));
    const [primary, other] = await page
      .getByRole('button', { name: 'Change Password' })
      .evaluate((b) => [b.getBoundingClientRect().toJSON(), b.parentElement!.querySelector('a')!.getBoundingClientRect().toJSON()] as DOMRect[]);
    expect(await page.getByRole('link', { name: 'Cancel' }).count()).toBe(1);
    expect(Math.abs(primary!.y - other!.y)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(primary!.height - other!.height)).toBeLessThanOrEqual(0.5);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('opens About from the footer: version, build, the database it runs on, and licences', async () => {
    await open('/sponsors', (p) => p.getByRole('table', { name: 'Sponsors' }));
    await page.getByRole('contentinfo').getByRole('link', { name: 'About' }).click();
    await page.waitForURL(`${base}/about`);
    const table = page.getByRole('table', { name: 'Licences of the packages the product runs with' });
    await table.getByRole('row').nth(1).waitFor();
    const fact = (label: string) => page.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');
    expect(await fact('Database').innerText()).toMatch(/^PGlite · PostgreSQL \d+/);
    expect(await fact('Built').innerText()).not.toContain('Not built');
    expect(await table.getByRole('row').filter({ hasText: 'react-dom' }).innerText()).toContain('MIT');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('has a favicon on the admin and on the participant page', async () => {
    await open('/sponsors', (p) => p.getByRole('table', { name: 'Sponsors' }));
    for (const path of ['/sponsors', `/take/${ids.channel}`]) {
      const html = await (await fetch(`${base}${path}`)).text();
      const href = /<link\s+rel="icon"[^>]*href="([^"]+)"/.exec(html)?.[1];
      expect(href, path).toBeTruthy();
      const icon = await fetch(new URL(href!, base));
      expect(icon.status).toBe(200);
      expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    }
    expect((await fetch(`${base}/favicon.ico`)).status).toBe(200);
  });
});

describe('at 1366×860, scrolled', () => {
  it('keeps the dark navigation column down the whole page when a long screen scrolls', async () => {
    await page.setViewportSize(LAPTOP);
    await open(`/engagements/view/${ids.engagement}`, (p) => p.getByRole('table', { name: 'Linked site locations' }));
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    // What is painted at the left edge, at the top and the bottom of the window after scrolling: dark.
    const colours = await page.evaluate(() => {
      const at = (y: number) => {
        let el = document.elementFromPoint(8, y) as HTMLElement | null;
        while (el) {
          const { backgroundColor, backgroundImage } = getComputedStyle(el);
          if (backgroundColor !== 'rgba(0, 0, 0, 0)' || backgroundImage !== 'none') return { backgroundColor, backgroundImage, cls: el.className };
          el = el.parentElement;
        }
        return null;
      };
      return [at(4), at(window.innerHeight - 4)];
    });
    for (const colour of colours)
      expect(
        colour?.cls === 'side-nav' || colour?.cls.startsWith('side-nav ') || /linear-gradient\(to right, rgb\(10, 10, 10\)/.test(colour?.backgroundImage ?? ''),
        JSON.stringify(colour),
      ).toBe(true);
  });
});

describe('at 390 px wide', () => {
  it('never scrolls a screen sideways', async () => {
    await page.setViewportSize(PHONE);
    const screens: [string, (p: Page) => Locator][] = [
      ['/sponsors', (p) => p.getByRole('table', { name: 'Sponsors' }).getByRole('row').nth(1).getByRole('link')],
      [`/sponsors/view/${ids.sponsor}`, (p) => p.getByRole('heading', { name: 'Engagements' })],
      ['/engagements', (p) => p.getByRole('table', { name: 'Engagements' }).getByRole('row').nth(1).getByRole('link')],
      [`/engagements/view/${ids.engagement}`, (p) => p.getByRole('table', { name: 'Linked site locations' })],
      [`/screeners/view/${ids.screener}`, (p) => p.getByRole('heading', { name: 'Messages' })],
      [`/media-channels/view/${ids.channel}`, (p) => p.getByRole('button', { name: 'Preview', exact: true })],
      [`/surveys-new/edit/${ids.survey}`, (p) => p.getByRole('button', { name: 'New Page 3', exact: true })],
      ['/users', (p) => p.getByRole('table', { name: 'Users' }).getByRole('row').nth(1).getByRole('link')],
    ];
    for (const [path, ready] of screens) {
      await open(path, ready);
      const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: document.documentElement.clientWidth }));
      // What sticks out, named in the failure: the innermost elements past the window's right edge.
      const wide =
        widths.page > widths.view
          ? await page.evaluate(
              (edge) =>
                [...document.querySelectorAll('main *')]
                  .filter((e) => e.getBoundingClientRect().right > edge && ![...e.children].some((c) => c.getBoundingClientRect().right > edge))
                  .slice(0, 5)
                  .map((e) => `<${e.tagName.toLowerCase()} class="${e.getAttribute('class') ?? ''}"> to ${Math.round(e.getBoundingClientRect().right)} px`),
              widths.view + 2,
            )
          : [];
      expect(widths.page, `${path}: ${wide.join('; ')}`).toBeLessThanOrEqual(widths.view);
    }
  });

  it('shades the edge of a table that scrolls sideways, where more of it lies beyond', async () => {
    await page.setViewportSize(PHONE);
    await open('/sponsors', (p) => p.getByRole('table', { name: 'Sponsors' }).getByRole('row').nth(1).getByRole('link'));
    const frame = page.locator('.table-wrap').first();
    const look = await frame.evaluate((el) => {
      const style = getComputedStyle(el);
      return { scrolls: el.scrollWidth > el.clientWidth, attachment: style.backgroundAttachment, image: style.backgroundImage };
    });
    expect(look.scrolls).toBe(true);
    // Covers that scroll with the table (local) over shadows that stay at the frame's edges (scroll).
    expect(look.attachment.split(', ')).toEqual(['local', 'local', 'scroll', 'scroll']);
    expect(look.image.match(/radial-gradient/g)?.length).toBe(2);
  });

  it('keeps the navigation in a drawer the Menu button opens, and closes it on the way to a screen', async () => {
    await page.setViewportSize(PHONE);
    await open('/sponsors', (p) => p.getByRole('table', { name: 'Sponsors' }).getByRole('row').nth(1).getByRole('link'));
    const nav = page.getByRole('navigation', { name: 'Main' });
    const menu = page.getByRole('button', { name: 'Menu' });
    // The screen has the whole width: no rail of icons beside it.
    expect(await nav.isVisible()).toBe(false);
    expect((await box(page.locator('main#main'))).x).toBeLessThan(30);
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await nav.getByRole('link', { name: 'Engagements' }).click();
    await page.waitForURL(/\/engagements$/);
    await expect.poll(() => nav.isVisible()).toBe(false);
    await menu.click();
    await nav.getByRole('link', { name: 'Sponsors' }).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => nav.isVisible()).toBe(false);
    expect(await axeViolations(page)).toEqual([]);
  });
});
