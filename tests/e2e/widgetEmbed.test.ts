/**
 * The widget on real partner pages (another origin, a strict CSP without 'unsafe-inline'): the
 * host's CSS cannot reach its look. One server (its own, with the demo data, so the channel's
 * figures are this file's alone) and one browser; checks are grouped into few page loads.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { eq } from 'drizzle-orm';
import { launchBrowser } from './browser';
import { prepareDataDir, startServer, tempDataDir, type RunningServer } from './server';
import { newParticipant, PARTNER_HOST, snippet, startPartnerSite, type PartnerSite } from './partnerSite';
import { demoChannel } from '../../server/db/demo';
import { mediaChannels } from '../../server/db/schema';

let server: RunningServer;
let browser: Browser;
let partner: PartnerSite;
let channelId = '';
let screenerId = '';

beforeAll(async () => {
  const dataDir = tempDataDir();
  await prepareDataDir(dataDir, async (db) => {
    const demo = await demoChannel(db);
    if (!demo) throw new Error('no demo channel');
    channelId = String(demo.mediaChannelId);
    screenerId = String(demo.screenerId);
    await db.update(mediaChannels).set({ domain: PARTNER_HOST }).where(eq(mediaChannels.id, demo.mediaChannelId));
  });
  server = await startServer({ dataDir, env: { DIST_DIR: inject('distDir') } });
  partner = await startPartnerSite(server.url);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await partner?.close();
  if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
});

const W = '[data-trial-widget]';
const page = (body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Partner</title>${head}</head><body>${body}</body></html>`;

/** The first question's title and Next button as computed, and the widget's height. */
async function looks(p: Page) {
  await p.locator(`${W} h2`, { hasText: 'About you' }).waitFor();
  return p.evaluate((selector) => {
    const root = document.querySelector(selector)!.shadowRoot!;
    const pick = (el: Element) => {
      const s = getComputedStyle(el);
      return { fontSize: s.fontSize, fontFamily: s.fontFamily, color: s.color, lineHeight: s.lineHeight, fontWeight: s.fontWeight, letterSpacing: s.letterSpacing };
    };
    return {
      title: pick(root.querySelector('.tw-title')!),
      button: pick(root.querySelector('button[type=submit]')!),
      label: pick(root.querySelector('.tw-choice span')!),
      height: Math.round(root.querySelector('.tw-card')!.getBoundingClientRect().height),
      width: Math.round(root.querySelector('.tw-card')!.getBoundingClientRect().width),
    };
  }, W);
}

describe('the widget on a partner page of another origin under a strict CSP', () => {
  it("keeps its own typography, colours and size whatever the host's CSS sets, inherited or !important", async () => {
    const hostile = [
      'html { font-size: 40px !important; }',
      '* { font-size: 40px !important; color: red !important; line-height: 3 !important; font-family: "Comic Sans MS", serif !important;',
      '    font-weight: 900 !important; letter-spacing: 4px !important; text-transform: uppercase !important; --tw-primary: red; --tw-nextButton-active: #f0f; }',
      'button { display: none !important; } div { padding: 30px !important; }',
    ].join('\n');
    partner.asset('/hostile.css', 'text/css', hostile);
    const plainUrl = partner.page('/plain', page(`<div data-trial-widget></div>${snippet(server.url, channelId, screenerId)}`));
    const hostileUrl = partner.page('/hostile', page(`<div data-trial-widget></div>${snippet(server.url, channelId, screenerId)}`, '<link rel="stylesheet" href="/hostile.css">'));

    const plain = await newParticipant(browser);
    await plain.page.goto(plainUrl);
    const expected = await looks(plain.page);
    await plain.context.close();
    // The widget's own look, in px: the host's root font size (rem) does not reach it either.
    expect(expected.title).toMatchObject({ fontSize: '18.4px', color: 'rgb(0, 128, 128)' });
    expect(expected.button.fontSize).toBe('16px');

    const { context, page: p, problems } = await newParticipant(browser);
    await p.goto(hostileUrl);
    expect(await looks(p)).toEqual(expected);
    // The host page's own text did take the hostile styles: the test's CSS is in force.
    expect(await p.evaluate(() => getComputedStyle(document.body).fontSize)).toBe('40px');
    expect(problems).toEqual([]);
    await context.close();
  });
});
