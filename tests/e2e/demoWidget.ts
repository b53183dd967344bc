/**
 * The demo survey as a participant answers it in the widget on the partner's page: the widget's
 * selector, the wait the browser tests allow, a choice and the page's submit, and the answers
 * that qualify (an adult, diagnosed, on pills) up to the ZIP question; or the whole run by the
 * labels a participant reads.
 */
import type { FrameLocator, Page } from 'playwright-core';

export const W = '[data-trial-widget]';
export const WAIT = { timeout: 20_000 };

export const choose = (page: Page, value: string) => page.locator(`${W} label:has(input[value="${value}"])`).click();
export const next = (page: Page) => page.locator(`${W} button[type=submit]`).click();

/** The first two pages answered to qualify; the run then stands at the ZIP question. */
export async function answerDemoToZip(page: Page): Promise<void> {
  await page.locator(`${W} input[value="18-64"]`).waitFor({ state: 'attached', ...WAIT });
  await choose(page, '18-64');
  await choose(page, 'yes');
  await next(page);
  await page.locator(`${W} input[value="pills"]`).waitFor({ state: 'attached', ...WAIT });
  await choose(page, 'pills');
  await next(page);
}

/** The ZIP question answered with `zip` and submitted. */
export async function giveZip(page: Page, zip: string): Promise<void> {
  const field = page.locator(`${W} input[autocomplete=postal-code]`);
  await field.waitFor(WAIT);
  await field.fill(zip);
  await next(page);
}

/**
 * An outcome's lead form in `where`: the form with a consent box. Wait for it, not for any Back
 * button: the step whose answer led to the outcome has one too, enabled until the widget has
 * re-rendered busy, so a click right after Next may land on it.
 */
export const leadForm = (where: Page | FrameLocator) => where.locator(`${W} form:has(input[type=checkbox])`);

/** "No thanks" on the outcome's lead form, once it shows: the run ends with no lead kept. */
export const noThanks = (where: Page | FrameLocator) => leadForm(where).locator('button.tw-back').click(WAIT);

/** Who leaves the demo's contact form: its four fields. */
export interface DemoPerson {
  first: string;
  last: string;
  email: string;
  phone: string;
}

/** A qualified run from its first page: New York's ZIP, the nearest site, `person`'s contact sent; the run then stands at its consent step. */
export async function qualifyToConsent(page: Page, person: DemoPerson): Promise<void> {
  await answerDemoToZip(page);
  await giveZip(page, '10001');
  const sites = page.locator(`${W} .tw-site`);
  await sites.first().waitFor(WAIT);
  await sites.first().click();
  await next(page);
  const email = page.locator(`${W} input[type=email]`);
  await email.waitFor(WAIT);
  const texts = page.locator(`${W} input[type=text]:not([autocomplete=postal-code])`);
  await texts.nth(0).fill(person.first);
  await texts.nth(1).fill(person.last);
  await email.fill(person.email);
  await page.locator(`${W} input[type=tel]`).fill(person.phone);
  await next(page);
}

/** The demo's contact form in `where` filled with `person`'s four fields, by their labels. */
export async function fillContactByLabel(where: Page | FrameLocator, person: DemoPerson): Promise<void> {
  await where.getByLabel('First name').fill(person.first);
  await where.getByLabel('Last name').fill(person.last);
  await where.getByLabel('Email').fill(person.email);
  await where.getByLabel('Phone').fill(person.phone);
}

/**
 * The demo survey answered by its labels in `where` (the partner's page, or the widget's frame),
 * to its outcome: qualified (on pills, New York's ZIP, the nearest site, `person`'s contact,
 * the terms accepted) or not (a minor without the condition, declining the lead form).
 * `shown`, when given, runs as each page's title shows (to measure it).
 */
export async function answerDemoByLabel(
  where: Page | FrameLocator,
  run: { qualified: boolean; person: DemoPerson; shown?: (title: string) => Promise<void> },
): Promise<void> {
  const at = async (title: string) => {
    await where.locator(`${W} h2`, { hasText: title }).waitFor();
    await run.shown?.(title);
  };
  const submit = () => where.locator(`${W} button[type=submit]`).click();
  const { qualified, person } = run;
  await at('About you');
  await where.locator(`${W} label`, { hasText: qualified ? '18 to 64' : 'Under 18' }).click();
  await where.locator(`${W} label`, { hasText: qualified ? /^Yes$/ : /^No$/ }).click();
  await submit();
  if (qualified) {
    await at('Your heart health');
    await where.locator(`${W} label`, { hasText: 'Blood pressure pills' }).click();
    await submit();
  }
  await at('Where you live');
  await where.locator(`${W} input`).fill('10001');
  await submit();
  if (!qualified) {
    // The outcome's lead form first: "No thanks" ends the run without a lead.
    await noThanks(where);
    await where.locator(`${W} [data-outcome=notQualified]`).waitFor();
    return;
  }
  await at('Choose a study site');
  await submit();
  await at('Your contact details');
  await fillContactByLabel(where, person);
  await submit();
  await at('Consent');
  await where.locator(`${W} label`, { hasText: 'I accept the terms and conditions.' }).click();
  await submit();
  await where.locator(`${W} [data-outcome=completed]`).waitFor();
}
