/**
 * Every step a participant sees — the survey's pages, the ZIP, the sites, the contact details,
 * the consent and the outcome — in English and in Spanish, on a phone (375 px wide) and on a
 * desktop (1280 px): axe-core finds no serious or critical violation at any of them, on a
 * partner page of another origin under a strict CSP; nor at the dead ends (not qualified, no
 * trial site near the ZIP). Each run also comes from a campaign link
 * and a snippet with a hidden field the channel declares: both reach the record system's push
 * and the staff's RMS audits screen, and nothing else of the page address does.
 *
 * Steps are found by what they hold (option values, input kinds), not by their wording, so the
 * same walk serves both languages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { W, WAIT, choose, next, answerDemoToZip, giveZip, noThanks } from './demoWidget';
import { eq } from 'drizzle-orm';
import { startDemoOnPartner, sendDemoReferralsTo, type DemoOnPartner } from './demoOnPartner';
import { axeViolations as axeIn, magazinePage, newParticipant } from './partnerSite';
import { signInAsAdmin } from './admin-session';
import { newWebhookSecret } from '../support/standardWebhooks';
import { startRecordSystem, type RecordSystemReceiver } from '../support/recordSystemReceiver';
import { mediaChannels } from '../../server/db/schema';

const PROVIDER_NAME = 'E2E steps webhook';
const CAMPAIGN = { utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'autumn-drive' };
const REFERRER = 'partner-issue-42';

let demo: DemoOnPartner;
let receiver: RecordSystemReceiver;
type Push = { data: { values: Record<string, string>; attribution: { utm: Record<string, string>; hiddenFields: Record<string, string> } } };
const pushes = (): Push[] => receiver.received.map((r) => JSON.parse(r.body) as Push);

beforeAll(async () => {
  receiver = await startRecordSystem();
  demo = await startDemoOnPartner({
    env: { RMS_RETRY_SCHEDULE: 'none' },
    async prepare(db, ids) {
      await db
        .update(mediaChannels)
        .set({ hiddenFields: [{ name: 'referrer', maxLength: 40 }] })
        .where(eq(mediaChannels.id, ids.mediaChannelId));
      await sendDemoReferralsTo(db, { name: PROVIDER_NAME, endpointUrl: `${receiver.origin}/hook`, signingSecret: newWebhookSecret() });
    },
  });
  magazinePage(demo.partner, demo.server.url, demo, `data-field-referrer="${REFERRER}" data-field-undeclared="dropped"`);
}, 120_000);

afterAll(async () => {
  await demo?.stop();
  await receiver?.close();
});

/**
 * Walks the demo survey to a referral, running axe at each step it reaches; answers the
 * violations per step. The survey pages' headings go into `headings` as they show.
 */
async function walk(page: Page, email: string, phone: string, headings: string[]): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {};
  const check = async (step: string) => {
    found[step] = await axeIn(page, demo.partner.url, W);
  };
  const heading = async () => void headings.push((await page.locator(`${W} .tw-title`).first().textContent()) ?? '');
  await page.locator(`${W} input[value="18-64"]`).waitFor({ state: 'attached', ...WAIT });
  await heading();
  await check('first page');
  // A Next with nothing answered: the page's errors are shown, and must be as accessible.
  await next(page);
  await page
    .locator(`${W} [aria-invalid=true]`)
    .first()
    .waitFor({ state: 'attached', ...WAIT });
  await check('first page with errors');
  await choose(page, '18-64');
  await choose(page, 'yes');
  await next(page);
  await page.locator(`${W} input[value="pills"]`).waitFor({ state: 'attached', ...WAIT });
  await heading();
  await check('second page');
  await choose(page, 'pills');
  await next(page);
  const zip = page.locator(`${W} input[autocomplete=postal-code]`);
  await zip.waitFor(WAIT);
  await heading();
  await check('ZIP');
  await zip.fill('10001');
  await next(page);
  const sites = page.locator(`${W} .tw-site`);
  await sites.first().waitFor(WAIT);
  await check('sites');
  await sites.first().click();
  await next(page);
  const emailInput = page.locator(`${W} input[type=email]`);
  await emailInput.waitFor(WAIT);
  await check('contact details');
  const texts = page.locator(`${W} input[type=text]:not([autocomplete=postal-code])`);
  await texts.nth(0).fill('Ann');
  await texts.nth(1).fill('Steps');
  await emailInput.fill(email);
  await page.locator(`${W} input[type=tel]`).fill(phone);
  await next(page);
  const consent = page.locator(`${W} label:has(input[type=checkbox])`);
  await consent.first().waitFor(WAIT);
  await check('consent');
  await consent.first().click();
  await next(page);
  await page.locator(`${W} [data-outcome=completed]`).waitFor(WAIT);
  await check('outcome');
  return found;
}

const RUNS = [
  { locale: 'en-US', width: 375 },
  { locale: 'en-US', width: 1280 },
  { locale: 'es-ES', width: 375 },
  { locale: 'es-ES', width: 1280 },
] as const;

describe('the widget at every step, in English and Spanish, on a phone and a desktop', () => {
  for (const run of RUNS) {
    it(`${run.locale} at ${run.width} px: no serious or critical axe violation at any step; the campaign and the hidden field reach the push`, async () => {
      const { context, page, problems } = await newParticipant(demo.browser, { locale: run.locale, viewport: { width: run.width, height: 800 } });
      await page.goto(`${demo.partner.url}/?${new URLSearchParams({ ...CAMPAIGN, email: 'never-stored@example.com' })}`);
      const language = run.locale.slice(0, 2);
      // The widget shows the language asked for (Spanish has its own text for the first question).
      await expect.poll(() => page.locator(`${W} .tw-card`).first().getAttribute('lang'), WAIT).toMatch(new RegExp(`^${language}\\b`));

      const email = `steps.${language}.${run.width}@example.com`;
      // Each run its own person: the same e-mail or phone again would be a duplicate, not pushed.
      const headings: string[] = [];
      const violations = await walk(page, email, `212-555-0${RUNS.indexOf(run)}${run.width}`.slice(0, 12), headings);
      // Each page headed by its title in the run's language (the demo's pages have Spanish titles).
      expect(headings).toEqual(
        language === 'es' ? ['Sobre usted', 'La salud de su corazón', 'Dónde vive'] : ['About you', 'Your heart health', 'Where you live'],
      );
      expect(violations).toEqual(Object.fromEntries(Object.keys(violations).map((step) => [step, []])));
      expect(Object.keys(violations)).toEqual(['first page', 'first page with errors', 'second page', 'ZIP', 'sites', 'contact details', 'consent', 'outcome']);
      // The page's own errors on an empty Next are answers the widget expects (422), nothing else went wrong.
      expect(problems.filter((p) => !/^HTTP 422 /.test(p))).toEqual([]);
      await context.close();

      await expect.poll(() => pushes().find((p) => p.data.values.email === email), { timeout: 15_000 }).toBeTruthy();
      const push = pushes().find((p) => p.data.values.email === email)!;
      expect(push.data.attribution.utm).toEqual(CAMPAIGN);
      // Only the field the channel declares; the page's e-mail parameter is not attribution and is not kept.
      expect(push.data.attribution.hiddenFields).toEqual({ referrer: REFERRER });
      expect(JSON.stringify(push)).not.toContain('never-stored@example.com');
    });
  }

  for (const locale of ['en-US', 'es-ES'] as const) {
    it(`${locale} at 375 px: the dead ends — not qualified, and no trial site near the ZIP — have no serious or critical axe violation`, async () => {
      const found: Record<string, string[]> = {};
      const young = await newParticipant(demo.browser, { locale, viewport: { width: 375, height: 800 } });
      await young.page.goto(`${demo.partner.url}/`);
      await young.page.locator(`${W} input[value="under-18"]`).waitFor({ state: 'attached', ...WAIT });
      await choose(young.page, 'under-18');
      await choose(young.page, 'no');
      await next(young.page);
      // The survey's last page (its own ZIP question) still comes: the outcome is the whole path's.
      const lastPage = young.page.locator(`${W} input[type=text], ${W} input[inputmode=numeric]`).first();
      await lastPage.waitFor(WAIT);
      await lastPage.fill('10001');
      await next(young.page);
      // The outcome's lead form first (its axe check is widgetLeads.test.ts's): "No thanks" leaves it.
      await noThanks(young.page);
      await young.page.locator(`${W} [data-outcome=notQualified]`).waitFor(WAIT);
      found.notQualified = await axeIn(young.page, demo.partner.url, W);
      expect(young.problems).toEqual([]);
      await young.context.close();

      const far = await newParticipant(demo.browser, { locale, viewport: { width: 375, height: 800 } });
      await far.page.goto(`${demo.partner.url}/`);
      await answerDemoToZip(far.page);
      // Anchorage: thousands of miles from the demo's New York sites.
      await giveZip(far.page, '99501');
      await noThanks(far.page);
      await far.page.locator(`${W} [data-outcome=noTrialSites]`).waitFor(WAIT);
      found.noTrialSites = await axeIn(far.page, demo.partner.url, W);
      expect(far.problems).toEqual([]);
      await far.context.close();

      expect(found).toEqual({ notQualified: [], noTrialSites: [] });
    });
  }

  it("shows each contact's campaign and hidden field to staff on the RMS audits screen", async () => {
    const admin = await demo.browser.newPage();
    await signInAsAdmin(admin, demo.server.url);
    await admin.goto(`${demo.server.url}/rms-audits`);
    // This file's pushes are the rows of its record system; the demo data has others.
    const rows = admin.locator('tbody tr', { hasText: PROVIDER_NAME });
    await rows.first().waitFor(WAIT);
    await expect.poll(() => rows.count(), WAIT).toBe(RUNS.length);
    for (const row of await rows.all()) {
      const pairs = await row
        .locator('dl.attribution')
        .evaluate((dl) => [...dl.querySelectorAll('div')].map((d) => `${d.querySelector('dt')?.textContent}=${d.querySelector('dd')?.textContent}`));
      // Stored as JSON objects, whose key order is the database's.
      expect(pairs.sort()).toEqual([...Object.entries(CAMPAIGN).map(([k, v]) => `${k}=${v}`), `referrer=${REFERRER}`].sort());
    }
    await admin.close();
  });
});
