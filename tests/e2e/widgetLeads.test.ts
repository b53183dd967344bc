/**
 * Leads in Chromium, on a partner page of another origin under a strict CSP, in English and in
 * Spanish: at notQualified, noTrialSites and notActive the widget shows the outcome's own message
 * pair around the screener's contact form (the consent message is the consent box's text); sent,
 * it keeps a lead (listed for staff, never a referral); "No thanks" keeps nothing; the same
 * e-mail again is flagged as a duplicate. axe finds no serious or critical violation on the three
 * forms at 375 px. A channel switched off before the participant arrives offers the notActive
 * form at once. The channel's own page (/take/) shows the form too, and the admin's channel
 * preview, told an outcome, shows its form and thanks for it without keeping a lead.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { W, WAIT, choose, next, answerDemoToZip, giveZip, leadForm } from './demoWidget';
import { addDemoChannel, startDemoWithAdmin, type DemoOnPartner } from './demoOnPartner';
import { axeViolations, newParticipant, snippet } from './partnerSite';
import { type apiCaller, signInAsAdmin } from './admin-session';
import { axeViolations as adminAxe } from './axe';
import { pickSurvey } from './surveyPicker';
import { settled } from './settled';

let demo: DemoOnPartner;
let api: ReturnType<typeof apiCaller>;
/** A second channel of the demo screener, switched off mid-run for notActive. */
let closingId = '';

const page = (apiUrl: string, channel: string, screener: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Healthy living</title></head>
<body><main><h1>Healthy living magazine</h1><div data-trial-widget></div>${snippet(apiUrl, channel, screener)}</main></body></html>`;

beforeAll(async () => {
  ({ demo, api } = await startDemoWithAdmin({
    async prepare(db, ids) {
      closingId = await addDemoChannel(db, ids, { title: 'Closing soon', isActive: true });
    },
  }));
  demo.partner.page('/', page(demo.server.url, demo.channelId, demo.screenerId));
  demo.partner.page('/closing', page(demo.server.url, closingId, demo.screenerId));
}, 120_000);

afterAll(async () => {
  await demo?.stop();
});

/** The demo's message pairs, as the lead forms show them (demo.ts). */
const PAIRS = {
  en: {
    notQualified: ['This study is not a match for you right now.', 'May we contact you about future studies that may suit you?'],
    noTrialSites: ['There is no study site within reach of your ZIP code yet.', 'May we contact you when a study site opens near you?'],
    notActive: ['This questionnaire is closed at the moment.', 'May we contact you when this questionnaire opens again?'],
  },
  es: {
    notQualified: ['Este estudio no es adecuado para usted en este momento.', '¿Podemos contactarle sobre futuros estudios que le convengan?'],
    noTrialSites: [
      'Todavía no hay ningún centro del estudio cerca de su código postal.',
      '¿Podemos contactarle cuando abra un centro del estudio cerca de usted?',
    ],
    notActive: ['Este cuestionario está cerrado en este momento.', '¿Podemos contactarle cuando este cuestionario vuelva a abrir?'],
  },
} as const;
type Kind = keyof (typeof PAIRS)['en'];

const switchClosing = (isActive: boolean) =>
  api(`media-channels/${closingId}`, { method: 'PATCH', body: JSON.stringify({ data: { type: 'media-channels', id: closingId, attributes: { isActive } } }) });

/**
 * Walks a fresh participant to `kind`'s lead form; answers the page, its problems and its
 * context. `at`: the page the widget runs on, the partner's by default.
 */
async function toLeadForm(kind: Kind, locale: string, at?: string) {
  if (kind === 'notActive') await switchClosing(true);
  const p = await newParticipant(demo.browser, { locale, viewport: { width: 375, height: 800 } });
  await p.page.goto(at ?? `${demo.partner.url}/${kind === 'notActive' ? 'closing' : ''}`);
  await p.page.locator(`${W} input[value="18-64"]`).waitFor({ state: 'attached', ...WAIT });
  if (kind === 'notQualified' || kind === 'notActive') {
    await choose(p.page, 'under-18');
    await choose(p.page, 'no');
    await next(p.page);
    const zip = p.page.locator(`${W} input[inputmode=numeric]`).first();
    await zip.waitFor(WAIT);
    // The run started on a running channel; it is switched off before the survey's end.
    if (kind === 'notActive') await switchClosing(false);
    await zip.fill('10001');
    await next(p.page);
  } else {
    await answerDemoToZip(p.page);
    // Anchorage: thousands of miles from the demo's New York sites.
    await giveZip(p.page, '99501');
  }
  await leadForm(p.page).locator('button.tw-back').waitFor(WAIT);
  return p;
}

type ListedLead = {
  id: string;
  attributes: { kind: string; duplicateOf: number | null; language: string; consentText: string; mediaChannelId: number | null };
};

/** How many leads are kept, the demo's included. */
const leadCount = async (): Promise<number> => (await api('leads?limit=10')).meta.total as number;

/** What a lead must never add to: the referrals and the record-system audits (the demo's included). */
const referralFigures = async () => ({
  referrals: (await api('referrals?limit=10')).meta.total as number,
  rmsAudits: (await api('rms-audits?limit=10')).meta.total as number,
});

/** The leads of `email`, oldest first: among the newest (the demo's own leads are older than any this file leaves). */
async function leadsOf(email: string): Promise<ListedLead[]> {
  const doc = await api(`leads?limit=20&sort=-created`);
  const newest = (doc.data as ListedLead[]).reverse();
  const mine = [];
  for (const lead of newest) {
    const values = (await api(`leads/${lead.id}/reveal`, { method: 'POST' })).meta.values as Record<string, string>;
    if (values.email === email) mine.push(lead);
  }
  return mine;
}

/** Fills the lead form of the widget in `within` (the partner page's by default). */
async function fillLead(p: Page, email: string, phone: string, within = W) {
  const texts = p.locator(`${within} input[type=text]:not([inputmode=numeric])`);
  await texts.nth(0).fill('Lee');
  await texts.nth(1).fill('Lead');
  await p.locator(`${within} input[type=email]`).fill(email);
  await p.locator(`${within} input[type=tel]`).fill(phone);
  // The screener's ZIP field: the one the sites were searched for already, else typed here.
  const zip = p.locator(`${within} form input[autocomplete=postal-code]`);
  if (!(await zip.inputValue())) await zip.fill('10001');
}

const KINDS: Kind[] = ['notQualified', 'noTrialSites', 'notActive'];

describe('the lead form at every outcome that is not a referral', () => {
  for (const locale of ['en-US', 'es-ES'] as const) {
    const lang = locale.slice(0, 2) as 'en' | 'es';
    for (const kind of KINDS) {
      it(`${locale}, ${kind}: its own message pair and form, no axe violation at 375 px; sent, a lead is kept (no referral, no RMS audit); the same e-mail again is a duplicate`, async () => {
        const email = `lead.${kind}.${lang}@example.com`.toLowerCase();
        // Each run its own person: the same phone again would make it a duplicate too.
        const phone = (n: number) => `907-555-${lang === 'es' ? 1 : 2}${KINDS.indexOf(kind)}${n}0`;
        const before = await leadCount();
        const referralsBefore = await referralFigures();
        const p = await toLeadForm(kind, locale);
        const form = p.page.locator(`${W} form`);
        const [message, consent] = PAIRS[lang][kind];
        expect(await form.locator('.tw-html').first().innerText()).toContain(message);
        // The consent message is the consent box's own label.
        expect(await form.locator('label:has(input[type=checkbox])').innerText()).toContain(consent);
        expect(await p.page.locator(`${W} .tw-card`).getAttribute('lang')).toMatch(new RegExp(`^${lang}`));
        expect(await axeViolations(p.page, demo.partner.url, W)).toEqual([]);

        // Sent without the box ticked: the consent's problem, nothing kept.
        await fillLead(p.page, email, phone(1));
        await next(p.page);
        await form.locator('label:has(input[type=checkbox]) input[aria-invalid=true]').waitFor(WAIT);
        expect(await axeViolations(p.page, demo.partner.url, W)).toEqual([]);
        await form.locator('label:has(input[type=checkbox])').click();
        await next(p.page);
        await p.page.locator(`${W} [data-outcome=${kind}]`).waitFor(WAIT);
        expect(await p.page.locator(`${W} [data-outcome=${kind}]`).innerText()).toMatch(
          lang === 'es' ? /Gracias\. Guardamos sus datos/ : /Your details are kept/,
        );
        await p.context.close();

        const kept = await leadsOf(email);
        expect(kept.map((l) => [l.attributes.kind, l.attributes.language, l.attributes.consentText, l.attributes.duplicateOf])).toEqual([
          [kind, lang, consent, null],
        ]);

        // The same person again, at the same outcome: kept, flagged as a duplicate of the first.
        const again = await toLeadForm(kind, locale);
        await fillLead(again.page, email, phone(2));
        await again.page.locator(`${W} form label:has(input[type=checkbox])`).click();
        await next(again.page);
        await again.page.locator(`${W} [data-outcome=${kind}]`).waitFor(WAIT);
        await again.context.close();
        const both = await leadsOf(email);
        expect(both.map((l) => l.attributes.duplicateOf)).toEqual([null, Number(kept[0]!.id)]);
        expect(await leadCount()).toBe(before + 2);
        // Never a referral: none listed, none pushed to a record system.
        expect(await referralFigures()).toEqual(referralsBefore);
      });
    }

    it(`${locale}: "No thanks" ends politely and keeps nothing`, async () => {
      const before = await leadCount();
      const p = await toLeadForm('noTrialSites', locale);
      await fillLead(p.page, `no.thanks.${lang}@example.com`, `907-555-${lang === 'es' ? 3 : 4}000`);
      await p.page.locator(`${W} form button.tw-back`).click();
      await p.page.locator(`${W} [data-outcome=noTrialSites]`).waitFor(WAIT);
      expect(await p.page.locator(`${W} form`).count()).toBe(0);
      expect(p.problems).toEqual([]);
      await p.context.close();
      expect(await leadCount()).toBe(before);
    });
  }

  it('a channel switched off before the participant arrives: the notActive lead form at once; sent, kept for that channel; "No thanks" keeps nothing', async () => {
    await switchClosing(false);
    try {
      const email = 'lead.closed.before@example.com';
      const before = await leadCount();
      const visit = async () => {
        const p = await newParticipant(demo.browser, { locale: 'en-US', viewport: { width: 375, height: 800 } });
        await p.page.goto(`${demo.partner.url}/closing`);
        await p.page.locator(`${W} form button.tw-back`).waitFor(WAIT);
        return p;
      };
      const p = await visit();
      const form = p.page.locator(`${W} form`);
      const [message, consent] = PAIRS.en.notActive;
      expect(await form.locator('.tw-html').first().innerText()).toContain(message);
      expect(await form.locator('label:has(input[type=checkbox])').innerText()).toContain(consent);
      expect(await axeViolations(p.page, demo.partner.url, W)).toEqual([]);
      await fillLead(p.page, email, '907-555-5010');
      await form.locator('label:has(input[type=checkbox])').click();
      await next(p.page);
      await p.page.locator(`${W} [data-outcome=notActive]`).waitFor(WAIT);
      expect(await p.page.locator(`${W} [data-outcome=notActive]`).innerText()).toMatch(/Your details are kept/);
      await p.context.close();
      const kept = await leadsOf(email);
      expect(kept.map((l) => [l.attributes.kind, l.attributes.mediaChannelId, l.attributes.consentText, l.attributes.duplicateOf])).toEqual([
        ['notActive', Number(closingId), consent, null],
      ]);

      const declining = await visit();
      await declining.page.locator(`${W} form button.tw-back`).click();
      await declining.page.locator(`${W} [data-outcome=notActive]`).waitFor(WAIT);
      expect(await declining.page.locator(`${W} form`).count()).toBe(0);
      await declining.context.close();
      expect(await leadCount()).toBe(before + 1);
    } finally {
      await switchClosing(true);
    }
  });

  it("/take/ (the channel's own page) shows the lead form too, and keeps the lead for its channel", async () => {
    const before = await leadCount();
    const p = await toLeadForm('notQualified', 'en-US', `${demo.server.url}/take/${demo.channelId}`);
    const form = p.page.locator(`${W} form`);
    const [message, consent] = PAIRS.en.notQualified;
    expect(await form.locator('.tw-html').first().innerText()).toContain(message);
    expect(await form.locator('label:has(input[type=checkbox])').innerText()).toContain(consent);
    await fillLead(p.page, 'lead.take@example.com', '907-555-5000');
    await form.locator('label:has(input[type=checkbox])').click();
    await next(p.page);
    await p.page.locator(`${W} [data-outcome=notQualified]`).waitFor(WAIT);
    expect(await p.page.locator(`${W} [data-outcome=notQualified]`).innerText()).toMatch(/Your details are kept/);
    expect(p.problems).toEqual([]);
    await p.context.close();
    const kept = await leadsOf('lead.take@example.com');
    expect(kept.map((l) => [l.attributes.kind, l.attributes.mediaChannelId, l.attributes.consentText])).toEqual([
      ['notQualified', Number(demo.channelId), consent],
    ]);
    expect(await leadCount()).toBe(before + 1);
  });

  it("the admin's channel preview, told noTrialSites, shows that outcome's own form (axe clean at 375 px); Submit thanks and keeps no lead", async () => {
    const before = await leadCount();
    const admin = await demo.browser.newPage({ viewport: { width: 375, height: 800 } });
    await signInAsAdmin(admin, demo.server.url);
    await admin.goto(`${demo.server.url}/media-channels/view/${demo.channelId}`);
    await pickSurvey(admin, 'Survey', 'Heart', /Heart/);
    await admin.getByLabel('Version', { exact: true }).selectOption({ index: 1 });
    await admin.getByLabel('Outcome', { exact: true }).selectOption('noTrialSites');
    await admin.getByRole('button', { name: 'Preview', exact: true }).click();
    const preview = admin.locator('[data-testid=survey-preview]');
    // Any path through the pages: the outcome is the one chosen, whatever the answers.
    await preview.locator('input[value="under-18"]').waitFor({ state: 'attached', ...WAIT });
    await preview.locator('label:has(input[value="under-18"])').click();
    await preview.locator('label:has(input[value="no"])').click();
    await preview.locator('button[type=submit]').click();
    const zip = preview.locator('input[inputmode=numeric]').first();
    await zip.waitFor(WAIT);
    await zip.fill('10001');
    await preview.locator('button[type=submit]').click();

    const form = preview.locator('form', { has: admin.locator('button.tw-back') });
    await form.locator('input[type=email]').waitFor(WAIT);
    const [message, consent] = PAIRS.en.noTrialSites;
    expect(await preview.locator('.tw-preview').count()).toBe(1);
    expect(await form.locator('.tw-html').first().innerText()).toContain(message);
    expect(await form.locator('label:has(input[type=checkbox])').innerText()).toContain(consent);
    expect(await form.locator('button.tw-back').innerText()).toBe('No thanks');
    expect(await adminAxe(admin, '[data-testid=survey-preview]')).toEqual([]);

    await fillLead(admin, 'lead.preview@example.com', '907-555-6000', '[data-testid=survey-preview]');
    await form.locator('label:has(input[type=checkbox])').click();
    await form.locator('button[type=submit]').click();
    await preview.locator('[data-outcome=noTrialSites]').waitFor(WAIT);
    expect(await preview.locator('[data-outcome=noTrialSites]').innerText()).toMatch(/Your details are kept/);
    await admin.close();
    // Thanked as a participant is, and nothing kept: no lead, of this e-mail or any other.
    expect(await leadCount()).toBe(before);
    expect(await leadsOf('lead.preview@example.com')).toEqual([]);
  });

  it('the Leads screen lists them with filters in the URL, reveals one (audited) and has no axe violation at 1366 and 390 px', async () => {
    const admin = await demo.browser.newPage({ viewport: { width: 1366, height: 860 } });
    await signInAsAdmin(admin, demo.server.url);
    // In Spanish: this file's leads only, none of the demo's.
    await admin.goto(`${demo.server.url}/leads?kind=noTrialSites&language=es`);
    const rows = admin.locator('tbody tr');
    await rows.first().waitFor(WAIT);
    // The list's first render is one "Loading…" placeholder row.
    await settled(admin);
    // Both Spanish noTrialSites leads of this file (the first and its duplicate), read until the
    // list has them: the screen shows whatever the list held when it loaded.
    const spanishNoSites = () => api('leads?kind=noTrialSites&language=es&limit=100');
    await expect.poll(async () => (await spanishNoSites()).meta.total).toBe(2);
    const listed = await spanishNoSites();
    expect(await rows.count()).toBe(listed.meta.total);
    expect(await rows.first().innerText()).toContain('No trial sites');
    expect(await adminAxe(admin)).toEqual([]);
    const first = listed.data[0] as { id: string };
    await admin.getByRole('button', { name: `Reveal contact details of lead ${first.id}` }).click();
    await admin.getByRole('definition').first().waitFor(WAIT);
    const trail = await api(`audit-events?entity=leads&entityId=${first.id}`);
    expect((trail.data as { attributes: { action: string } }[]).map((e) => e.attributes.action)).toContain('reveal');
    await admin.setViewportSize({ width: 390, height: 844 });
    expect(await adminAxe(admin)).toEqual([]);
    await admin.close();
  });
});
