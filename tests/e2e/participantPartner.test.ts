/**
 * The widget on a partner's page (issue 8, "Done means"): the page is served from another
 * origin than the API (`partner.localhost`, the demo channel's domain, on a port of its own), with
 * hostile CSS and a strict Content-Security-Policy. Participants qualify and reach the record
 * system's webhook, are disqualified in Spanish, go back and change their path, reload, run with
 * the keyboard alone; axe-core checks the widget; the channel's figures follow. Then the admin
 * preview of an unapproved version, which stores nothing, and the screener's stored HTML on an
 * outcome screen, which runs nothing.
 *
 * One server (its own, with the demo data, so the figures are this file's alone) and one browser.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { and, count, eq, inArray } from 'drizzle-orm';
import { startDemoOnPartner, sendDemoReferralsTo, type DemoOnPartner } from './demoOnPartner';
import { axeViolations as axeIn, newParticipant, snippet } from './partnerSite';
import { adminToken, apiCaller, signInAsAdmin } from './admin-session';
import { newWebhookSecret, verifyStandardWebhook } from '../support/standardWebhooks';
import { startRecordSystem, type RecordSystemReceiver } from '../support/recordSystemReceiver';
import { DEMO_SURVEY_IDENTITY } from '../../server/demo';
import { pickSurvey } from './surveyPicker';
import { fillContactByLabel } from './demoWidget';
import { oFormContainerEntries, oFormContainers, oFormFields, oFormPageMetrics, oForms, oFormSubmissions, screenerMessages } from '../../server/db/schema';

const WEBHOOK_SECRET = newWebhookSecret();
const PROVIDER_NAME = 'E2E partner webhook';
const XSS_MESSAGE = '<p>Not a match today.</p><img src=x onerror="window.__xss=1"><script>window.__xss=2</script>';
const DRAFT_TITLE = 'Draft question for the preview?';

let demo: DemoOnPartner;
let receiver: RecordSystemReceiver;
let partnerUrl: string;
let draftFormId = 0;
let token = '';
let api: ReturnType<typeof apiCaller>;
const received = () => receiver.received;

beforeAll(async () => {
  receiver = await startRecordSystem();
  demo = await startDemoOnPartner({
    env: { RMS_RETRY_SCHEDULE: 'none' },
    async prepare(db, ids) {
      await sendDemoReferralsTo(db, { name: PROVIDER_NAME, endpointUrl: `${receiver.origin}/hook`, signingSecret: WEBHOOK_SECRET });
      await db
        .update(screenerMessages)
        .set({ contactFormMessage: XSS_MESSAGE })
        .where(and(eq(screenerMessages.screenerId, ids.screenerId), eq(screenerMessages.outcome, 'notQualified')));
      // An unapproved second version of the demo survey, for the preview.
      const [approved] = await db.select().from(oForms).where(eq(oForms.identity, DEMO_SURVEY_IDENTITY));
      const [draft] = await db
        .insert(oForms)
        .values({
          identity: DEMO_SURVEY_IDENTITY,
          version: 2,
          title: 'Healthy Heart questionnaire (draft)',
          isApproved: false,
          engagementId: approved!.engagementId,
          sponsorId: approved!.sponsorId,
          containerCount: 1,
        })
        .returning({ id: oForms.id });
      draftFormId = draft!.id;
      const [container] = await db
        .insert(oFormContainers)
        .values({ identity: 'draft-page', oFormId: draftFormId, title: 'Draft page', displayOrder: 1 })
        .returning({ id: oFormContainers.id });
      await db.insert(oFormFields).values({
        identity: 'draft-question',
        containerId: container!.id,
        title: DRAFT_TITLE,
        type: 'yes_no',
        displayOrder: 1,
        configuration: { required: true, helperText: null, translations: {}, options: [] },
      });
    },
  });
  token = await adminToken(demo.server.url);
  api = apiCaller(demo.server.url, () => token);

  demo.partner.asset('/hostile.css', 'text/css', '* { all: unset } button { display: none } input { display: none }');
  partnerUrl = demo.partner.page(
    '/',
    `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Healthy living</title><link rel="stylesheet" href="/hostile.css"></head>
<body><main><h1>Healthy living magazine</h1><p>Take part in research near you.</p>
<div data-trial-widget></div>
${snippet(demo.server.url, demo.channelId, demo.screenerId)}
</main></body></html>`,
  );
}, 120_000);

afterAll(async () => {
  await demo?.stop();
  await receiver?.close();
});

const W = '[data-trial-widget]';
const heading = (page: Page, text: string | RegExp) => page.locator(`${W} h2`, { hasText: text }).waitFor();
const next = (page: Page) => page.locator(`${W} button[type=submit]`).click();
const zipInput = (page: Page) => page.locator(`${W} input[autocomplete=postal-code]`);
const choose = (page: Page, label: string | RegExp) => page.locator(`${W} label`, { hasText: label }).click();

interface Figures {
  views: number;
  submissionsStarted: number;
  submissionsCompleted: number;
  submissionsQualified: number;
}
async function figures(): Promise<Figures> {
  const doc = await api<{ data: { attributes: Figures } }>(`media-channels/${demo.channelId}`);
  const { views, submissionsStarted, submissionsCompleted, submissionsQualified } = doc.data.attributes;
  return { views, submissionsStarted, submissionsCompleted, submissionsQualified };
}
const delta = (before: Figures, after: Figures) =>
  Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - before[k as keyof Figures]])) as unknown as Figures;

/** A fresh participant (own storage) on the partner page; CSP violations, page errors and failed answers collected. */
async function participant(locale = 'en-US'): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const { context, page, problems } = await newParticipant(demo.browser, { locale });
  await page.goto(partnerUrl);
  return { context, page, problems };
}

/** What the widget saved for the reload: its submission, token and pages. */
async function snapshot(page: Page): Promise<{ submissionId: string; credentials: string; history: { page: string; entryId?: string }[] }> {
  const raw = await page.evaluate((key) => sessionStorage.getItem(key), `trial-widget:${demo.channelId}:${demo.screenerId}`);
  if (!raw) throw new Error('no resume snapshot');
  return JSON.parse(raw);
}

/** The focused element inside the widget, as `tag:type:label`. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    let el: Element | null = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    if (!el) return '';
    const root = el.getRootNode() as Document | ShadowRoot;
    const label = el.closest('label')?.textContent ?? (el.id ? root.querySelector(`label[for="${el.id}"]`)?.textContent : null) ?? el.textContent ?? '';
    return `${el.tagName.toLowerCase()}:${el.getAttribute('type') ?? ''}:${label.trim()}`;
  });
}
async function tabTo(page: Page, pattern: RegExp, max = 25): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (pattern.test(await focused(page))) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${pattern} (last: ${await focused(page)})`);
}

const axeViolations = (page: Page) => axeIn(page, demo.partner.url, W);

async function firstPage(page: Page, age: string, diagnosed: string) {
  await heading(page, 'About you');
  await choose(page, age);
  await choose(page, new RegExp(`^${diagnosed}$`));
  await next(page);
}

describe('the widget on a partner page of another origin, with hostile CSS and a strict CSP', () => {
  it('qualifies, picks the nearest site, gives contact details and consent; the webhook gets the contact and the Super User its audit', async () => {
    const before = await figures();
    const { context, page, problems } = await participant();
    await heading(page, 'About you');
    // The host page hides every button and input of its own; the widget's are untouched.
    expect(await page.locator(`${W} button[type=submit]`).evaluate((b) => getComputedStyle(b).display)).not.toBe('none');
    expect(await page.locator(`${W} .tw-card`).evaluate((c) => getComputedStyle(c).display)).toBe('block');
    expect(await axeViolations(page)).toEqual([]);

    await firstPage(page, '18 to 64', 'Yes');
    await heading(page, 'Your heart health');
    await next(page);
    await heading(page, 'Where you live');
    await page.locator(`${W} input`).fill('10001');
    await next(page);
    await heading(page, 'Choose a study site');
    const sites = page.locator(`${W} .tw-site`);
    expect(await sites.locator('strong').allTextContents()).toEqual(['Midtown Heart Center', 'Brooklyn Cardiology Research', 'Newark Clinical Trials Unit']);
    await sites.first().click();
    expect(await axeViolations(page)).toEqual([]);
    await next(page);
    await heading(page, 'Your contact details');
    await fillContactByLabel(page, { first: 'Ann', last: 'Partner', email: 'ann.partner@example.com', phone: '212-555-0100' });
    expect(await axeViolations(page)).toEqual([]);
    await next(page);
    await heading(page, 'Consent');
    await choose(page, 'I accept the terms and conditions.');
    await next(page);
    await page.locator(`${W} [data-outcome=completed]`).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();

    // The record system's webhook: the contact, signed.
    await expect.poll(() => received().length, { timeout: 15_000 }).toBeGreaterThan(0);
    const hook = received().at(-1)!;
    const { type, data: payload } = JSON.parse(hook.body) as {
      type: string;
      data: { contactId: number; attribution: { mediaChannelId: number }; values: Record<string, string>; site: { name: string } | null };
    };
    expect(type).toBe('referral.created');
    expect(payload.values).toMatchObject({
      first_name: 'Ann',
      last_name: 'Partner',
      email: 'ann.partner@example.com',
      phone: '212-555-0100',
      zip_code: '10001',
    });
    expect(payload.site?.name).toBe('Midtown Heart Center');
    expect(String(payload.attribution.mediaChannelId)).toBe(demo.channelId);
    expect(await verifyStandardWebhook(WEBHOOK_SECRET, hook.headers, hook.body, Date.now() / 1000)).toBe(true);

    expect(delta(before, await figures())).toEqual({ views: 1, submissionsStarted: 1, submissionsQualified: 1, submissionsCompleted: 1 });

    // The Super User's audit screen lists the push.
    const admin = await demo.browser.newPage();
    await signInAsAdmin(admin, demo.server.url);
    await admin.goto(`${demo.server.url}/rms-audits`);
    const row = admin.locator('tbody tr', { hasText: PROVIDER_NAME }).filter({ hasText: String(payload.contactId) });
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    await admin.close();
  });

  it('disqualifies another participant with the notQualified message in Spanish', async () => {
    const before = await figures();
    const { context, page, problems } = await participant('es-ES');
    await page.locator(`${W} legend`, { hasText: '¿Qué edad tiene?' }).waitFor();
    await choose(page, 'Menos de 18');
    await choose(page, /^No$/);
    await next(page);
    await zipInput(page).fill('10001');
    await next(page);
    // The outcome's lead form comes first, with its message; "No, gracias" leaves it.
    const form = page.locator(`${W} form`, { hasText: 'Este estudio no es adecuado para usted en este momento.' });
    await form.waitFor();
    await form.locator('button', { hasText: 'No, gracias' }).click();
    await page.locator(`${W} [data-outcome=notQualified]`).waitFor();
    expect(problems).toEqual([]);
    await context.close();
    expect(delta(before, await figures())).toEqual({ views: 1, submissionsStarted: 1, submissionsQualified: 0, submissionsCompleted: 0 });
  });

  it('forgets on the server the answers of a page abandoned by going back and taking another path', async () => {
    const { context, page } = await participant();
    await firstPage(page, '18 to 64', 'Yes');
    await heading(page, 'Your heart health');
    await choose(page, 'Blood pressure pills');
    await page.getByLabel('How many times did you see a doctor this year?').fill('4');
    await next(page);
    await heading(page, 'Where you live');
    const snap = await snapshot(page);
    const heartEntry = snap.history.find((v) => v.page === 'demo-heart')?.entryId;
    expect(heartEntry).toBeTruthy();
    const stored = async (entryId: string) => {
      const res = await fetch(`${demo.server.url}/api/o-forms/o-form-container-entries/${entryId}?include=oFormFieldEntries&mediaChannelId=${demo.channelId}`, {
        headers: { Accept: 'application/vnd.api+json', 'Survey-Submission-Token': snap.credentials },
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { meta: { answers: Record<string, unknown> } }).meta.answers;
    };
    // The number as typed: sealed answers come back exactly as given (a string from the input).
    // A page that cannot end the run shows the next one at once and is saved behind it: wait for the save.
    await expect.poll(() => stored(heartEntry!)).toEqual({ 'demo-treatment': ['pills'], 'demo-visits': '4' });

    await page.locator(`${W} .tw-back`).click();
    await heading(page, 'Your heart health');
    await page.locator(`${W} .tw-back`).click();
    await heading(page, 'About you');
    await choose(page, /^No$/);
    await next(page);
    await heading(page, 'Where you live');
    expect(await stored(heartEntry!)).toEqual({});
    const now = await snapshot(page);
    expect(now.history.map((v) => v.page)).toEqual(['demo-about-you', 'demo-where']);
    expect(await stored(now.history[0]!.entryId!)).toEqual({ 'demo-age': '18-64', 'demo-diagnosed': 'no' });
    await context.close();
  });

  it('resumes the same submission on the same page after a reload', async () => {
    const { context, page, problems } = await participant();
    await firstPage(page, '65 or older', 'Yes');
    await heading(page, 'Your heart health');
    await page.getByLabel('How many times did you see a doctor this year?').fill('2');
    await next(page);
    await heading(page, 'Where you live');
    // The page shows ahead of the previous page's save; the place moves to it once the save is
    // confirmed (a reload before that resumes on the previous page, as the widget tests prove).
    await expect.poll(async () => (await snapshot(page)).history.at(-1)).toMatchObject({ page: 'demo-where', entryId: expect.any(String) });
    const before = await snapshot(page);
    await page.reload();
    await heading(page, 'Where you live');
    const after = await snapshot(page);
    expect(after.submissionId).toBe(before.submissionId);
    expect(after.history).toEqual(before.history);
    // widget.js came again from the browser's cache (a 304) and still ran under the CSP.
    expect(problems).toEqual([]);
    await context.close();
  });

  it('runs to completion with the keyboard alone', async () => {
    const before = await figures();
    const { context, page, problems } = await participant();
    await heading(page, 'About you');
    await tabTo(page, /^input:radio:Under 18$/);
    await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toBe('input:radio:18 to 64');
    await page.keyboard.press('Tab');
    await tabTo(page, /^input:radio:Yes$/);
    await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toBe('input:radio:No');
    await tabTo(page, /^button:submit:/);
    await page.keyboard.press('Enter');

    await heading(page, 'Where you live');
    await tabTo(page, /^input:text:Your ZIP code/);
    await page.keyboard.type('10001');
    await page.keyboard.press('Enter');

    await heading(page, 'Choose a study site');
    await tabTo(page, /^input:radio:Midtown Heart Center/);
    await tabTo(page, /^button:submit:/);
    await page.keyboard.press('Enter');

    await heading(page, 'Your contact details');
    // Sent empty: the refusal puts the focus on the first field in error, where typing starts.
    await tabTo(page, /^button:submit:/);
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toMatch(/^input:text:First name/);
    for (const [label, value] of [
      ['First name', 'Kay'],
      ['Last name', 'Board'],
      ['Email', 'kay@example.com'],
      ['Phone', '973-555-0101'],
    ]) {
      await tabTo(page, new RegExp(`^input:[a-z]+:${label}`));
      await page.keyboard.type(value!);
    }
    await tabTo(page, /^button:submit:/);
    await page.keyboard.press('Enter');

    await heading(page, 'Consent');
    // Sent unticked: the focus goes to the box, where Space ticks it.
    await tabTo(page, /^button:submit:/);
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toMatch(/^input:checkbox:/);
    await page.keyboard.press('Space');
    await tabTo(page, /^button:submit:/);
    await page.keyboard.press('Enter');
    await page.locator(`${W} [data-outcome=completed]`).waitFor();
    expect(problems).toEqual([]);
    await context.close();
    expect(delta(before, await figures())).toEqual({ views: 1, submissionsStarted: 1, submissionsQualified: 1, submissionsCompleted: 1 });
    await expect.poll(() => received().some((r) => r.body.includes('kay@example.com')), { timeout: 15_000 }).toBe(true);
  });

  it('shows a screener message with stored script on an outcome screen without running any of it', async () => {
    // The channel's own hosted page: no partner CSP here to hide a widget-side hole.
    const context = await demo.browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${demo.server.url}/take/${demo.channelId}`);
    await firstPage(page, 'Under 18', 'No');
    await heading(page, 'Where you live');
    await page.locator(`${W} input`).fill('10001');
    await next(page);
    // The outcome's lead form shows the message first; "No thanks" leads to the outcome itself.
    const form = page.locator(`${W} form`, { hasText: 'Not a match today.' });
    await form.waitFor();
    expect(await form.locator('script').count()).toBe(0);
    expect(await form.locator('[onerror]').count()).toBe(0);
    await form.locator('button.tw-back').click();
    const outcome = page.locator(`${W} [data-outcome=notQualified]`);
    await outcome.waitFor();
    // Give an image error handler the chance to run, had it survived.
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await outcome.locator('script').count()).toBe(0);
    expect(await outcome.locator('[onerror]').count()).toBe(0);
    await context.close();
  });

  // Last: it stops the server to read the database.
  it('runs the admin preview of an unapproved version to its outcome and stores nothing', async () => {
    const admin = await demo.browser.newPage();
    await signInAsAdmin(admin, demo.server.url);
    await admin.goto(`${demo.server.url}/media-channels/view/${demo.channelId}`);
    await pickSurvey(admin, 'Survey', 'Heart', /Healthy Heart/);
    await admin.getByLabel('Version', { exact: true }).selectOption({ label: 'Version 2' });
    await admin.getByRole('button', { name: 'Preview', exact: true }).click();
    const preview = admin.locator('[data-testid=survey-preview]');
    await preview.locator('legend', { hasText: DRAFT_TITLE }).waitFor();
    await preview.locator('label', { hasText: /^Yes$/ }).click();
    await preview.locator('button[type=submit]').click();
    await preview.locator('[data-outcome=qualified]').waitFor();
    await admin.close();

    const { submissionsStarted } = await figures();
    await demo.server.stop();
    const { openDatabase } = await import('../../server/db/open');
    const database = await openDatabase({ databaseUrl: null, dataDir: demo.server.dataDir });
    try {
      const { db } = database;
      const [draft] = await db.select({ n: count() }).from(oFormSubmissions).where(eq(oFormSubmissions.oFormId, draftFormId));
      const [all] = await db.select({ n: count() }).from(oFormSubmissions);
      const draftPages = db.select({ id: oFormContainers.id }).from(oFormContainers).where(eq(oFormContainers.oFormId, draftFormId));
      const [entries] = await db.select({ n: count() }).from(oFormContainerEntries).where(inArray(oFormContainerEntries.containerId, draftPages));
      const [metrics] = await db.select({ n: count() }).from(oFormPageMetrics).where(eq(oFormPageMetrics.oFormId, draftFormId));
      expect({ draft: draft!.n, entries: entries!.n, metrics: metrics!.n }).toEqual({ draft: 0, entries: 0, metrics: 0 });
      // Every submission there is, is one of this file's participants on the channel.
      expect(all!.n).toBe(submissionsStarted);
      // The widget timed the pages its participants left.
      const [timed] = await db.select({ n: count() }).from(oFormPageMetrics);
      expect(timed!.n).toBeGreaterThan(0);
    } finally {
      await database.close();
    }
  });
});
