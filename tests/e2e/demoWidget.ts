/**
 * The demo survey as a participant answers it in the widget on the partner's page: the widget's
 * selector, the wait the browser tests allow, a choice and the page's submit, and the answers
 * that qualify (an adult, diagnosed, on pills) up to the ZIP question.
 */
import type { Page } from 'playwright-core';

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
