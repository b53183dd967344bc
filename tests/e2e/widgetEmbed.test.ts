/**
 * The widget on real partner pages (another origin, a strict CSP without 'unsafe-inline'): the
 * host's CSS cannot reach its look; a view counts once the widget is seen. One server (its own, with the demo data, so the channel's
 * figures are this file's alone) and one browser; checks are grouped into few page loads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startDemoWithAdmin, type DemoOnPartner } from './demoOnPartner';
import { newParticipant, snippet } from './partnerSite';
import type { apiCaller } from './admin-session';
import { answerDemoByLabel, type DemoPerson } from './demoWidget';
import { expectSameEventsEitherWay, recordHostEvents } from './hostEvents';
import { asLogged, isView } from '../support/participantWire';

let demo: DemoOnPartner;
let api: ReturnType<typeof apiCaller>;

beforeAll(async () => {
  ({ demo, api } = await startDemoWithAdmin());
}, 120_000);

afterAll(async () => {
  await demo?.stop();
});

const W = '[data-trial-widget]';
const page = (body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Partner</title>${head}</head><body>${body}</body></html>`;

interface Figures {
  views: number;
  submissionsStarted: number;
}
async function figures(): Promise<Figures> {
  const { views, submissionsStarted } = (await api<{ data: { attributes: Figures } }>(`media-channels/${demo.channelId}`)).data.attributes;
  return { views, submissionsStarted };
}

/** The first question's title and Next button as computed, and the widget's height. */
async function looks(p: Page) {
  await p.locator(`${W} h2`, { hasText: 'About you' }).waitFor();
  return p.evaluate((selector) => {
    const root = document.querySelector(selector)!.shadowRoot!;
    const pick = (el: Element) => {
      const s = getComputedStyle(el);
      return {
        fontSize: s.fontSize,
        fontFamily: s.fontFamily,
        color: s.color,
        lineHeight: s.lineHeight,
        fontWeight: s.fontWeight,
        letterSpacing: s.letterSpacing,
      };
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
    demo.partner.asset('/hostile.css', 'text/css', hostile);
    const plainUrl = demo.partner.page('/plain', page(`<div data-trial-widget></div>${snippet(demo.server.url, demo.channelId, demo.screenerId)}`));
    const hostileUrl = demo.partner.page(
      '/hostile',
      page(`<div data-trial-widget></div>${snippet(demo.server.url, demo.channelId, demo.screenerId)}`, '<link rel="stylesheet" href="/hostile.css">'),
    );

    const plain = await newParticipant(demo.browser);
    await plain.page.goto(plainUrl);
    const expected = await looks(plain.page);
    await plain.context.close();
    // The widget's own look, in px: the host's root font size (rem) does not reach it either.
    expect(expected.title).toMatchObject({ fontSize: '18.4px', color: 'rgb(0, 128, 128)' });
    expect(expected.button.fontSize).toBe('16px');

    const { context, page: p, problems } = await newParticipant(demo.browser);
    await p.goto(hostileUrl);
    expect(await looks(p)).toEqual(expected);
    // The host page's own text did take the hostile styles: the test's CSS is in force.
    expect(await p.evaluate(() => getComputedStyle(document.body).fontSize)).toBe('40px');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('counts a view once per page load, only once half of the widget is on screen; loading and a bare start request count nothing', async () => {
    demo.partner.asset('/long.css', 'text/css', '.article { height: 3000px }');
    const url = demo.partner.page(
      '/long',
      page(
        `<h1>Partner article</h1><div class="article">Long article</div><div data-trial-widget></div>${snippet(demo.server.url, demo.channelId, demo.screenerId)}`,
        '<link rel="stylesheet" href="/long.css">',
      ),
    );
    const before = await figures();
    // A plain GET of the start endpoint (a crawler, a prefetch) is no view.
    expect((await fetch(`${demo.server.url}/api/o-forms/participant-start?mediaChannelId=${demo.channelId}&screenerId=${demo.screenerId}`)).status).toBe(200);
    const { context, page: p, problems } = await newParticipant(demo.browser);
    const viewCalls: string[] = [];
    p.on('request', (r) => void (isView(asLogged(r)) && viewCalls.push(r.method())));
    await p.goto(url);
    const title = p.locator(`${W} h2`, { hasText: 'About you' });
    await title.waitFor({ state: 'attached' });
    // On the page, below the fold, for a while: no view.
    await p.waitForTimeout(1000);
    expect(viewCalls).toEqual([]);
    expect(await figures()).toEqual(before);
    // A sliver of it scrolled into sight is not yet a view.
    await p.evaluate(() =>
      window.scrollTo(0, document.querySelector('[data-trial-widget]')!.getBoundingClientRect().top + window.scrollY - window.innerHeight + 60),
    );
    await p.waitForTimeout(500);
    expect(viewCalls).toEqual([]);
    await p.locator(W).scrollIntoViewIfNeeded();
    await expect.poll(() => figures()).toEqual({ ...before, views: before.views + 1 });
    // Scrolled away and back on the same page load: still one.
    await p.evaluate(() => window.scrollTo(0, 0));
    await p.waitForTimeout(300);
    await p.locator(W).scrollIntoViewIfNeeded();
    await p.waitForTimeout(500);
    expect(viewCalls).toEqual(['POST']);
    // A reload is another page load, and a view once seen again; no answer yet: nothing started.
    await p.reload();
    await title.waitFor({ state: 'attached' });
    await p.locator(W).scrollIntoViewIfNeeded();
    await expect.poll(() => figures()).toEqual({ views: before.views + 2, submissionsStarted: before.submissionsStarted });
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('the snippet wherever a partner pastes it', () => {
  /** Each widget on the page: its mount index, where its host sits, its height and first title. */
  async function widgets(p: Page) {
    await expect.poll(() => p.evaluate((sel) => [...document.querySelectorAll(sel)].every((w) => w.shadowRoot?.querySelector('h2')), W)).toBe(true);
    await p.locator(`${W} h2`, { hasText: 'About you' }).first().waitFor();
    return p.evaluate(
      (sel) =>
        [...document.querySelectorAll(sel)].map((w) => ({
          id: w.id,
          parent: w.parentElement?.tagName.toLowerCase(),
          height: Math.round(w.getBoundingClientRect().height) > 100,
          title: w.shadowRoot?.querySelector('h2')?.textContent,
        })),
      W,
    );
  }
  const tag = (extra = '') => snippet(demo.server.url, demo.channelId, demo.screenerId, extra);

  it('mounts from <head>, before or after its div, at a data-target, twice with a run each, and when an SPA adds it after load', async () => {
    const { context, page: p, problems } = await newParticipant(demo.browser);
    const about = { height: true, title: 'About you' };

    // Only the script, in <head>: the widget at the start of the body, not a zero-height one in the head.
    await p.goto(demo.partner.page('/head-only', page('<h1>Partner</h1><p>Article</p>', tag())));
    expect(await widgets(p)).toEqual([{ id: '', parent: 'body', ...about }]);
    expect(await p.evaluate(() => document.body.firstElementChild?.hasAttribute('data-trial-widget'))).toBe(true);

    // The script in <head>, its div in the body.
    await p.goto(demo.partner.page('/head-div', page('<h1>Partner</h1><div data-trial-widget id="w"></div>', tag())));
    expect(await widgets(p)).toEqual([{ id: 'w', parent: 'body', ...about }]);

    // The script before its div; and a script with no div inside the body mounts right after itself.
    await p.goto(demo.partner.page('/before', page(`<main>${tag()}<div data-trial-widget id="w"></div><p>After</p></main>`)));
    expect(await widgets(p)).toEqual([{ id: 'w', parent: 'main', ...about }]);
    await p.goto(demo.partner.page('/no-div', page(`<main><p>Before</p>${tag()}<p id="after">After</p></main>`)));
    expect(await widgets(p)).toEqual([{ id: '', parent: 'main', ...about }]);
    expect(await p.evaluate(() => document.getElementById('after')!.previousElementSibling!.hasAttribute('data-trial-widget'))).toBe(true);

    // data-target names where it goes.
    await p.goto(demo.partner.page('/target', page('<aside id="slot"></aside>', tag('data-target="#slot"'))));
    expect(await widgets(p)).toEqual([{ id: 'slot', parent: 'body', ...about }]);

    // An SPA adds the div and the snippet long after load.
    demo.partner.asset(
      '/spa.js',
      'text/javascript',
      `addEventListener('load', () => setTimeout(() => {
        const div = document.createElement('div'); div.setAttribute('data-trial-widget', ''); div.id = 'spa';
        const s = document.createElement('script'); s.async = true; s.src = ${JSON.stringify(`${demo.server.url}/widget.js`)};
        s.dataset.mediaChannelId = ${JSON.stringify(demo.channelId)}; s.dataset.screenerId = ${JSON.stringify(demo.screenerId)};
        document.getElementById('app').append(div, s);
      }, 200));`,
    );
    await p.goto(demo.partner.page('/spa', page('<div id="app"></div><script src="/spa.js"></script>')));
    expect(await widgets(p)).toEqual([{ id: 'spa', parent: 'div', ...about }]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('twice on one page: two widgets, each with its own submission and stored run', async () => {
    const before = await figures();
    const { context, page: p, problems } = await newParticipant(demo.browser, { viewport: { width: 1280, height: 2400 } });
    await p.goto(demo.partner.page('/twice', page(`<div data-trial-widget id="a"></div>${tag()}<p>Between</p><div data-trial-widget id="b"></div>${tag()}`)));
    expect(await widgets(p)).toEqual([
      { id: 'a', parent: 'body', height: true, title: 'About you' },
      { id: 'b', parent: 'body', height: true, title: 'About you' },
    ]);
    for (const [id, age] of [
      ['a', '18 to 64'],
      ['b', '65 or older'],
    ] as const) {
      await p.locator(`#${id} label`, { hasText: age }).click();
      await p.locator(`#${id} label`, { hasText: /^Yes$/ }).click();
      await p.locator(`#${id} button[type=submit]`).click();
      await p.locator(`#${id} h2`, { hasText: 'Your heart health' }).waitFor();
    }
    const stored = await p.evaluate(() =>
      Object.fromEntries(Object.keys(sessionStorage).map((k) => [k, JSON.parse(sessionStorage.getItem(k)!).submissionId as string])),
    );
    const keys = Object.keys(stored).sort();
    expect(keys).toEqual([`trial-widget:${demo.channelId}:${demo.screenerId}`, `trial-widget:${demo.channelId}:${demo.screenerId}:2`]);
    expect(new Set(Object.values(stored)).size).toBe(2);
    await expect.poll(() => figures()).toEqual({ views: before.views + 2, submissionsStarted: before.submissionsStarted + 2 });
    // After a reload each widget takes up its own run again.
    await p.reload();
    await p.locator('#a h2', { hasText: 'Your heart health' }).waitFor();
    await p.locator('#b h2', { hasText: 'Your heart health' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe("events for the partner's tag manager", () => {
  const setPolicy = (eventsPolicy: string) =>
    api(`media-channels/${demo.channelId}`, {
      method: 'PATCH',
      body: JSON.stringify({ data: { type: 'media-channels', id: demo.channelId, attributes: { eventsPolicy } } }),
    });

  /** Who answers the runs whose events must carry nothing personal. */
  const EVE: DemoPerson = { first: 'Eve', last: 'Events', email: 'eve.events@example.com', phone: '212-555-0101' };

  /** A participant whose page records every widget event a tag manager could hear (on the document: they bubble). */
  async function listening() {
    const participant = await newParticipant(demo.browser);
    const events = await recordHostEvents(participant.page);
    return { ...participant, events };
  }

  it('under minimal (the default) announces the same for a qualified and a disqualified run: view, start, finish', async () => {
    await expectSameEventsEitherWay(async (qualified) => {
      const participant = await listening();
      await participant.page.goto(
        demo.partner.page(`/events-minimal-${qualified}`, page(`<div data-trial-widget></div>${snippet(demo.server.url, demo.channelId, demo.screenerId)}`)),
      );
      await answerDemoByLabel(participant.page, { qualified, person: { first: 'Min', last: 'Imal', email: 'min.imal@example.com', phone: '212-555-0102' } });
      return participant;
    });
  });

  it('under none announces nothing', async () => {
    await setPolicy('none');
    try {
      const { context, page: p, problems, events } = await listening();
      await p.goto(demo.partner.page('/events-none', page(`<div data-trial-widget></div>${snippet(demo.server.url, demo.channelId, demo.screenerId)}`)));
      await answerDemoByLabel(p, { qualified: false, person: EVE });
      expect(await events()).toEqual([]);
      expect(problems).toEqual([]);
      await context.close();
    } finally {
      await setPolicy('minimal');
    }
  });

  it('under detailed dispatches view, start, page, finish, outcome and complete on the widget element in order, with nothing personal in them', async () => {
    await setPolicy('detailed');
    try {
      await detailedRun();
    } finally {
      await setPolicy('minimal');
    }
  });

  async function detailedRun() {
    // The partner's listener (as a tag manager adds it), on the document: the events bubble.
    const { context, page: p, problems, events } = await listening();
    await p.goto(demo.partner.page('/events', page(`<div data-trial-widget></div>${snippet(demo.server.url, demo.channelId, demo.screenerId)}`)));
    await p.locator(`${W} h2`, { hasText: 'About you' }).waitFor();
    await expect.poll(events).toEqual(['view']);
    await answerDemoByLabel(p, { qualified: true, person: EVE });
    await expect
      .poll(events)
      .toEqual([
        'view',
        'start',
        'page demo-heart',
        'page demo-where',
        'finish',
        'page sites',
        'page contact',
        'page consent',
        'outcome completed',
        'complete',
      ]);
    const all = JSON.stringify(await events());
    for (const personal of [EVE.first, EVE.last, 'example.com', '555', '10001']) expect(all).not.toContain(personal);
    // A reload shows the outcome again and fires nothing new (the listener starts afresh; the
    // outcome restored reads no survey, so no policy: not even a view).
    await p.reload();
    await p.locator(`${W} [data-outcome=completed]`).waitFor();
    expect(await events()).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  }
});

describe('languages', () => {
  /** The card's lang, its first question's legend and its Next button, once shown. */
  async function card(p: Page) {
    await p.locator(`${W} .tw-card fieldset`).first().waitFor();
    return p.evaluate((sel) => {
      const root = document.querySelector(sel)!.shadowRoot!;
      return [
        root.querySelector('.tw-card')!.getAttribute('lang'),
        root.querySelector('legend')!.textContent!.replace(/\s*\*.*$/, ''),
        root.querySelector('button[type=submit]')!.textContent,
      ];
    }, W);
  }

  it('a malformed or unsupported data-language never hides the survey: the browser’s language when the survey has it, else English; lang names it', async () => {
    const bad = demo.partner.page(
      '/lang-bad',
      page(`<div data-trial-widget></div>${snippet(demo.server.url, demo.channelId, demo.screenerId, 'data-language="english"')}`),
    );
    const fr = demo.partner.page(
      '/lang-fr',
      page(`<div data-trial-widget></div>${snippet(demo.server.url, demo.channelId, demo.screenerId, 'data-language="fr"')}`),
    );
    const en = await newParticipant(demo.browser, { locale: 'en-US' });
    await en.page.goto(bad);
    expect(await card(en.page)).toEqual(['en', 'How old are you?', 'Next']);
    await en.page.goto(fr);
    expect(await card(en.page)).toEqual(['en', 'How old are you?', 'Next']);
    expect(en.problems).toEqual([]);
    await en.context.close();

    // A Spanish-speaking browser: the Spanish strings arrive as their own file from the widget's origin, under the CSP.
    const es = await newParticipant(demo.browser, { locale: 'es-ES' });
    const files: string[] = [];
    es.page.on('request', (r) => void (r.url().includes('/widget/') && files.push(new URL(r.url()).pathname.replace(/-[\w-]+\.js$/, ''))));
    await es.page.goto(bad);
    expect(await card(es.page)).toEqual(['es', '¿Qué edad tiene?', 'Siguiente']);
    expect(files).toContain('/widget/participantEs');
    expect(es.problems).toEqual([]);
    await es.context.close();
  });
});
