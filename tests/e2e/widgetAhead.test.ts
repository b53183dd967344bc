/**
 * The page after one that cannot end the run, shown before its save's answer, in Chromium on a
 * partner's page through a 150 ms round trip (the latency proxy, which can hold the server's
 * answer to a request): a save the server refuses brings the participant back to that page with
 * the server's message, every answer kept (the next page's too) and the progress back where it
 * was; a page that can end the run stays on screen for as long as its answer is held; and a
 * reload at every step resumes exactly, also while the save behind a page shown ahead is out.
 *
 * The demo survey gets, for this file, a birth date on "Your heart health" (no age range: the
 * page still cannot end the run; the server refuses a date after today, which the widget cannot
 * check without the server's clock) and a page "Other studies" before "Where you live" whose
 * "Yes" disqualifies and ends the survey.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { and, eq } from 'drizzle-orm';
import { startDemoBehindLatency, type DemoBehindLatency } from './demoOnPartner';
import { W, WAIT, choose, next } from './demoWidget';
import { asParticipantOn } from './partnerSite';
import type { ProxiedRequest } from '../support/latencyProxy';
import { oFormContainers, oFormFields, oForms } from '../../server/db/schema';
import { DEMO_SURVEY_IDENTITY } from '../../server/demo';

const RTT_MS = 150;
const FUTURE_BIRTH = '2090-05-01';
const BIRTH = '1961-05-01';
const NOT_A_MATCH = 'not a match';

let wire: DemoBehindLatency;

beforeAll(async () => {
  wire = await startDemoBehindLatency(RTT_MS, {
    async prepare(db) {
      const [form] = await db
        .select()
        .from(oForms)
        .where(and(eq(oForms.identity, DEMO_SURVEY_IDENTITY), eq(oForms.isApproved, true)));
      const pages = await db.select().from(oFormContainers).where(eq(oFormContainers.oFormId, form!.id));
      const page = (identity: string) => pages.find((p) => p.identity === identity)!;
      const config = (options: object[], required: boolean) => ({ required, helperText: null, translations: {}, options });
      await db.insert(oFormFields).values({
        identity: 'demo-birth',
        containerId: page('demo-heart').id,
        title: 'Your date of birth',
        type: 'dob',
        displayOrder: 3,
        configuration: config([], false),
      });
      await db
        .update(oFormContainers)
        .set({ displayOrder: 4 })
        .where(eq(oFormContainers.id, page('demo-where').id));
      const [other] = await db
        .insert(oFormContainers)
        .values({ identity: 'demo-other-study', oFormId: form!.id, title: 'Other studies', displayOrder: 3 })
        .returning();
      const option = (value: string, label: string, extra: object = {}) => ({
        value,
        label,
        translations: {},
        isDisqualified: false,
        transition: null,
        ...extra,
      });
      await db.insert(oFormFields).values({
        identity: 'demo-other',
        containerId: other!.id,
        title: 'Are you taking part in another clinical study now?',
        type: 'yes_no',
        displayOrder: 1,
        configuration: config([option('yes', 'Yes', { isDisqualified: true, transition: { to: 'end' } }), option('no', 'No')], true),
      });
      await db.update(oForms).set({ containerCount: 4 }).where(eq(oForms.id, form!.id));
    },
  });
}, 180_000);

afterAll(async () => {
  await wire?.stop();
});

/** The page title on screen (the outcome and the steps after the survey have titles of their own). */
const title = (page: Page) => page.locator(`${W} h2`).first().textContent({ timeout: WAIT.timeout });
const shows = (page: Page, text: string) => page.locator(`${W} h2`, { hasText: text }).waitFor(WAIT);
const progress = async (page: Page) => Number(await page.locator(`${W} [role=progressbar]`).getAttribute('aria-valuenow', { timeout: WAIT.timeout }));
const checked = (page: Page, value: string) => page.locator(`${W} input[value="${value}"]`).isChecked();
const birth = (page: Page) => page.locator(`${W} input[autocomplete=bday]`);
const visits = (page: Page) => page.locator(`${W} input[inputmode=numeric]`);
/** The field problems shown (each question keeps an empty live region for its own). */
const errors = async (page: Page) => (await page.locator(`${W} .tw-error`).allTextContents()).filter((t) => t.trim() !== '');
/** The preflight requests the proxy saw from log entry `from` on: a run's calls need none. */
const preflightsSince = (from: number) =>
  wire.proxy.log
    .slice(from)
    .filter((r) => r.method === 'OPTIONS')
    .map((r) => r.path);
/** New York's ZIP sent; the sites then shown. */
async function toSites(page: Page) {
  await page.locator(`${W} input[autocomplete=postal-code]`).fill('10001');
  await next(page);
  await page.locator(`${W} .tw-site`).first().waitFor(WAIT);
}
const isPageSave = (r: ProxiedRequest) => r.method === 'POST' && r.path.startsWith('/api/o-forms/o-form-submission-page/');

/** "About you" answered as an adult who was diagnosed, then Next: "Your heart health" shows once its save is answered. */
async function aboutYou(page: Page) {
  await page.locator(`${W} input[value="18-64"]`).waitFor({ state: 'attached', ...WAIT });
  await choose(page, '18-64');
  await choose(page, 'yes');
  await next(page);
  await shows(page, 'Your heart health');
}

/** "Your heart health" answered: on pills, three visits, born `born`. */
async function heartHealth(page: Page, born: string) {
  await choose(page, 'pills');
  await visits(page).fill('3');
  await birth(page).fill(born);
}

describe('the next page before the answer, through a 150 ms round trip', () => {
  it('comes back to a page whose save the server refuses, with its message, keeping every answer and the progress', async () => {
    await asParticipantOn(wire.demo.browser, wire.partnerUrl, async ({ page, problems }) => {
      const runStarts = wire.proxy.log.length;
      await aboutYou(page);
      expect(await progress(page)).toBe(25);
      // A birth date after today: the widget lets it through (only the server's clock says what
      // today is), and nothing on the page can end the run, so "Other studies" shows at once.
      await heartHealth(page, FUTURE_BIRTH);
      const refusal = wire.proxy.hold(isPageSave);
      await next(page);
      await shows(page, 'Other studies');
      expect(await progress(page)).toBe(50);
      // The server has answered the save (a 422) and the answer is held: the participant
      // answers the page shown ahead meanwhile, and its Next waits for that answer.
      const refused = await refusal.held;
      await choose(page, 'no');
      await next(page);
      await page.waitForTimeout(2 * RTT_MS);
      expect(wire.proxy.log.filter((r) => isPageSave(r) && r.at > refused.at)).toEqual([]);
      refusal.release();

      // Back on "Your heart health" with the server's message, the answers as given, the progress as it was.
      await shows(page, 'Your heart health');
      await expect.poll(() => errors(page), WAIT).toEqual(['A date of birth cannot be in the future.']);
      expect(await progress(page)).toBe(25);
      expect(await checked(page, 'pills')).toBe(true);
      expect(await visits(page).inputValue()).toBe('3');
      expect(await birth(page).inputValue()).toBe(FUTURE_BIRTH);

      // The Next on the page shown ahead went with the refusal: nothing of "Other studies" was sent.
      expect(wire.proxy.log.filter((r) => isPageSave(r) && r.at > refused.at)).toEqual([]);

      // Corrected: "Other studies" shows at once again, its answer kept.
      await birth(page).fill(BIRTH);
      await next(page);
      await shows(page, 'Other studies');
      expect(await progress(page)).toBe(50);
      expect(await checked(page, 'no')).toBe(true);
      await next(page);
      await shows(page, 'Where you live');
      expect(await progress(page)).toBe(75);

      // What the server holds, read back after a reload: Back shows each page's stored answers.
      await page.reload();
      await shows(page, 'Where you live');
      expect(await progress(page)).toBe(75);
      await page.locator(`${W} .tw-back`).click();
      await shows(page, 'Other studies');
      expect(await checked(page, 'no')).toBe(true);
      await page.locator(`${W} .tw-back`).click();
      await shows(page, 'Your heart health');
      expect(await progress(page)).toBe(25);
      expect(await checked(page, 'pills')).toBe(true);
      expect(await visits(page).inputValue()).toBe('3');
      expect(await birth(page).inputValue()).toBe(BIRTH);

      // And on to the sites: qualified, so the server holds every page on the path, answered.
      await next(page);
      await shows(page, 'Other studies');
      await next(page);
      await shows(page, 'Where you live');
      await toSites(page);
      expect(preflightsSince(runStarts)).toEqual([]);
      // The refusal is the one failed answer of the run.
      expect(problems.filter((p) => !/^HTTP 422 .*\/o-form-submission-page\//.test(p))).toEqual([]);
      expect(problems).toHaveLength(1);
    });
  });

  it('keeps a page that can end the run on screen while its answer is held, then shows the outcome', async () => {
    await asParticipantOn(wire.demo.browser, wire.partnerUrl, async ({ page, problems }) => {
      await aboutYou(page);
      await heartHealth(page, BIRTH);
      await next(page);
      await shows(page, 'Other studies');
      // "Yes" disqualifies and ends the survey: the page waits for the server's answer to its save.
      await choose(page, 'yes');
      const answer = wire.proxy.hold(isPageSave);
      await next(page);
      await answer.held;
      // Answered by the server, held on the way: two round trips later the page is still the one on screen.
      await page.waitForTimeout(2 * RTT_MS);
      expect(await title(page)).toBe('Other studies');
      expect(await progress(page)).toBe(50);
      expect(await page.locator(`${W}`).textContent()).not.toContain(NOT_A_MATCH);
      answer.release();
      await page.locator(W, { hasText: NOT_A_MATCH }).waitFor(WAIT);
      expect(problems).toEqual([]);
    });
  });

  it('resumes exactly after a reload at every step, also while the save behind a page shown ahead is out', async () => {
    await asParticipantOn(wire.demo.browser, wire.partnerUrl, async ({ page, problems }) => {
      await page.locator(`${W} input[value="18-64"]`).waitFor({ state: 'attached', ...WAIT });
      const runStarts = wire.proxy.log.length;
      // Before any Next there is no run to resume: the survey starts again, nothing chosen.
      await choose(page, '18-64');
      await page.reload();
      await shows(page, 'About you');
      expect(await checked(page, '18-64')).toBe(false);
      expect(await progress(page)).toBe(0);

      await aboutYou(page);
      await page.reload();
      await shows(page, 'Your heart health');
      expect(await progress(page)).toBe(25);

      // "Other studies" shown ahead, the save behind it stored by the server but its answer held:
      // a reload resumes on "Your heart health" (the place until the save is confirmed) with the
      // answers the server stored.
      await heartHealth(page, BIRTH);
      const save = wire.proxy.hold(isPageSave);
      await next(page);
      await shows(page, 'Other studies');
      await save.held;
      await page.reload();
      save.release();
      await shows(page, 'Your heart health');
      expect(await progress(page)).toBe(25);
      expect(await checked(page, 'pills')).toBe(true);
      expect(await visits(page).inputValue()).toBe('3');
      expect(await birth(page).inputValue()).toBe(BIRTH);

      // Sent again and confirmed this time: a reload resumes on the page shown ahead.
      const confirmed = wire.proxy.log.length;
      await next(page);
      await shows(page, 'Other studies');
      await expect.poll(() => wire.proxy.log.slice(confirmed).some((r) => isPageSave(r) && r.done !== undefined), WAIT).toBe(true);
      await page.reload();
      await shows(page, 'Other studies');
      expect(await progress(page)).toBe(50);

      await choose(page, 'no');
      await next(page);
      await shows(page, 'Where you live');
      await page.reload();
      await shows(page, 'Where you live');
      expect(await progress(page)).toBe(75);

      await toSites(page);
      await page.reload();
      await page.locator(`${W} .tw-site`).first().waitFor(WAIT);
      expect(await page.locator(`${W} .tw-site`).count()).toBe(3);
      expect(preflightsSince(runStarts)).toEqual([]);
      expect(problems).toEqual([]);
    });
  });
});
