/**
 * Self-diagnosis on real partner pages (another origin, a strict CSP): each embed problem names
 * its cause in one console line while the participant reads a calm message, and the problems
 * seen from partner pages are listed for staff on the channel. One server (its own, with the
 * demo data) and one browser.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDemoChannel, startDemoWithAdmin, type DemoOnPartner } from './demoOnPartner';
import { newParticipant, PARTNER_HOST, snippet, startPartnerSite, type PartnerSite } from './partnerSite';
import type { apiCaller } from './admin-session';
import { participantStrings } from '@core/i18n/participant';

let demo: DemoOnPartner;
let elsewhere: PartnerSite;
let inactiveId = '';
let api: ReturnType<typeof apiCaller>;

beforeAll(async () => {
  ({ demo, api } = await startDemoWithAdmin({
    async prepare(db, ids) {
      inactiveId = await addDemoChannel(db, ids, { title: 'Switched off', isActive: false });
    },
  }));
  elsewhere = await startPartnerSite(demo.server.url, 'elsewhere.localhost');
}, 120_000);

afterAll(async () => {
  await elsewhere?.close();
  await demo?.stop();
});

const W = '[data-trial-widget]';
const page = (body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Partner</title></head><body><h1>Partner</h1>${body}</body></html>`;
const CALM = 'This questionnaire could not be loaded. Please let the website owner know.';

/** Opens `url`, waits for the widget's card to show `text`, answers the console's widget lines and what the participant reads. */
async function open(url: string, text: string) {
  const p = await newParticipant(demo.browser);
  try {
    await p.page.goto(url);
    await p.page.locator(`${W} .tw-card`, { hasText: text }).waitFor();
    const shown = await p.page.locator(`${W} .tw-card`).innerText();
    const lines = p.consoleErrors.filter((l) => l.startsWith('[trial widget]'));
    const csp = p.problems.filter((l) => l.startsWith('CSP'));
    return { shown, lines, csp };
  } finally {
    await p.context.close();
  }
}

describe('the widget names what is wrong with its snippet', () => {
  it("a page whose origin is not the channel's domain: the domain allowed, in one console line", async () => {
    const url = elsewhere.page('/wrong-domain', page(`<div data-trial-widget></div>${snippet(demo.server.url, demo.channelId, demo.screenerId)}`));
    const { shown, lines, csp } = await open(url, CALM);
    expect(shown).toContain(CALM);
    expect(lines).toEqual([
      `[trial widget] This page's origin ${elsewhere.url} may not run media channel ${demo.channelId}: its domain is ${PARTNER_HOST}. Embed the snippet on ${PARTNER_HOST}, or change the channel's domain.`,
    ]);
    expect(csp).toEqual([]);
  });

  it('an unknown channel', async () => {
    const url = demo.partner.page('/unknown-channel', page(`<div data-trial-widget></div>${snippet(demo.server.url, '987654', demo.screenerId)}`));
    const { shown, lines } = await open(url, CALM);
    expect(shown).toContain(CALM);
    expect(lines).toEqual(['[trial widget] There is no media channel 987654: check data-media-channel-id in the snippet.']);
  });

  it("a screener that is not the channel's: the right data-screener-id", async () => {
    const url = demo.partner.page('/wrong-screener', page(`<div data-trial-widget></div>${snippet(demo.server.url, demo.channelId, '424242')}`));
    const { shown, lines } = await open(url, CALM);
    expect(shown).toContain(CALM);
    expect(lines).toEqual([
      `[trial widget] Media channel ${demo.channelId} runs screener ${demo.screenerId}, not 424242: set data-screener-id="${demo.screenerId}" in the snippet.`,
    ]);
  });

  it("a channel switched off: the survey's not-active message for the participant, with its lead form", async () => {
    const url = demo.partner.page('/inactive', page(`<div data-trial-widget></div>${snippet(demo.server.url, inactiveId, demo.screenerId)}`));
    const p = await newParticipant(demo.browser);
    await p.page.goto(url);
    // The demo screener asks contact fields, so the participant may leave a lead (widgetLeads.test.ts keeps one).
    await p.page.locator(`${W} form button.tw-back`).waitFor();
    expect(await p.page.locator(`${W} .tw-title`).innerText()).toBe(participantStrings('en').notActive);
    await expect
      .poll(() => p.consoleErrors.filter((l) => l.startsWith('[trial widget]')))
      .toEqual([`[trial widget] Media channel ${inactiveId} is switched off: participants see the survey's not-active message.`]);
    await p.context.close();
  });

  it('a snippet whose target is not on the page', async () => {
    const p = await newParticipant(demo.browser);
    await p.page.goto(demo.partner.page('/no-target', page(snippet(demo.server.url, demo.channelId, demo.screenerId, 'data-target="#nowhere"'))));
    await expect
      .poll(() => p.consoleErrors.filter((l) => l.startsWith('[trial widget]')))
      .toEqual(['[trial widget] data-target "#nowhere" matches no free element on this page.']);
    expect(await p.page.locator(W).count()).toBe(0);
    await p.context.close();
  });

  it('lists the problems seen from partner pages on the channel for staff', async () => {
    const channel = await api<{ data: { attributes: { origin: string; cause: string; count: number }[] } }>(`media-channels/${demo.channelId}/embed-problems`);
    const seen = (channel.data as unknown as { attributes: { origin: string; cause: string; count: number } }[]).map((r) => r.attributes);
    expect(seen).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ origin: elsewhere.url, cause: 'origin-not-allowed', count: 1 }),
        expect.objectContaining({ origin: demo.partner.url, cause: 'screener-mismatch', count: 1 }),
      ]),
    );
    const off = await api<{ data: { attributes: { origin: string; cause: string } }[] }>(`media-channels/${inactiveId}/embed-problems`);
    expect(off.data.map((r) => r.attributes)).toEqual([expect.objectContaining({ origin: demo.partner.url, cause: 'channel-inactive' })]);
  });
});
