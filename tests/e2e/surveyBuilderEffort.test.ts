/**
 * What building a survey costs a new user, counted: from the surveys list to a survey of three
 * pages and eight questions of seven types, with a branch, two disqualifying options, an age
 * range of 18 to 65 and Spanish for every text (through the translations grid), at 1366×860 in
 * the real admin bundle. Clicks (a choice in a select counts as one), typed fields and scrolls
 * (an element not on screen when it is needed) are counted; the survey is then read back from
 * the API. The grid then goes out as CSV and comes back, and axe finds nothing serious on it.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser } from './browser';
import { adminApiOn, adminPage, LAPTOP_SCREEN as SCREEN } from './admin-session';
import { axeViolations } from './axe';

const base = inject('baseUrl');
const SLOW = { timeout: 20_000 };
let browser: Browser;
let page: Page;
const { api, signIn } = adminApiOn(base);
let surveyId = '';

beforeAll(async () => {
  await signIn();
  browser = await launchBrowser();
  page = await adminPage(browser, base, SCREEN);
});
afterAll(async () => {
  await browser?.close();
});

const count = { clicks: 0, typed: 0, scrolls: 0 };

/** Brings `target` on screen the way a user would, counting a scroll when it was not. */
async function reach(target: Locator) {
  await target.waitFor({ state: 'visible' });
  const onScreen = await target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight;
  });
  if (!onScreen) {
    count.scrolls++;
    console.log(`[effort] scroll to ${target.toString()}`);
    await target.scrollIntoViewIfNeeded();
  }
}
async function click(target: Locator) {
  await reach(target);
  count.clicks++;
  await target.click();
}
async function choose(target: Locator, label: string) {
  await reach(target);
  count.clicks++;
  await target.selectOption({ label });
}
/** Types into a field and leaves it (saving it), as Tab would. */
async function type(target: Locator, text: string) {
  await reach(target);
  count.typed++;
  await target.fill(text);
  await target.blur();
}

const openCard = () => page.locator('.question-card.open');
/** Adds a question of `typeLabel` titled `title` to the page being edited; answers its open card. */
async function addQuestion(typeLabel: string, title: string): Promise<Locator> {
  const before = await page.locator('.question-list > li').count();
  await click(page.getByRole('button', { name: 'Add Question' }));
  await expect.poll(() => page.locator('.question-list > li').count(), SLOW).toBe(before + 1);
  const card = openCard();
  await expect.poll(() => card.getAttribute('aria-label'), SLOW).toBe(`Question ${before + 1}`);
  await choose(card.getByLabel('Type', { exact: true }), typeLabel);
  await type(card.getByLabel('Question title', { exact: true }), title);
  return card;
}
/** Adds options to the open card and names them. */
async function addOptions(card: Locator, labels: string[]) {
  const rows = card.locator('.option-list > li');
  for (const label of labels) {
    const before = await rows.count();
    await click(card.getByRole('button', { name: 'Add Option' }));
    await expect.poll(() => rows.count(), SLOW).toBe(before + 1);
    await type(rows.nth(before).getByLabel('Label', { exact: true }), label);
  }
}
async function addPage(title: string) {
  const pages = page.getByRole('list', { name: 'Page order' }).getByRole('listitem');
  const before = await pages.count();
  await click(page.getByRole('button', { name: 'Add Page' }));
  await expect.poll(() => pages.count(), SLOW).toBe(before + 1);
  await expect.poll(() => page.locator('.question-list > li').count(), SLOW).toBe(0);
  await setPageTitle(title);
}
async function setPageTitle(title: string) {
  const field = page.locator('.page-title-editor').getByLabel('Page title', { exact: true });
  await type(field, title);
  await page.getByRole('button', { name: title, exact: true }).waitFor(SLOW);
}

describe('building a survey in the builder', () => {
  it('takes at most 60 clicks and one scroll per question for 3 pages, 8 questions, rules and Spanish', async () => {
    await page.goto(`${base}/surveys-new`);
    await click(page.getByRole('link', { name: 'Add', exact: true }));
    await type(page.getByLabel('Title', { exact: true }), 'Effort check survey');
    const engagement = page.getByLabel('Engagement', { exact: true });
    await expect.poll(() => engagement.locator('option').count(), SLOW).toBeGreaterThan(1);
    await choose(engagement, (await engagement.locator('option').nth(1).textContent())!);
    await click(page.getByRole('button', { name: 'Save', exact: true }));
    await page.waitForURL(/\/surveys-new\/edit\/\d+$/);
    const id = /edit\/(\d+)$/.exec(page.url())![1]!;
    surveyId = id;

    await click(page.getByRole('region', { name: 'Survey languages' }).getByLabel('Spanish (es)'));
    await setPageTitle('About you');
    const dob = await addQuestion('Date of birth', 'What is your date of birth?');
    await type(dob.getByLabel('Minimum age', { exact: true }), '18');
    await type(dob.getByLabel('Maximum age', { exact: true }), '65');
    await addQuestion('Yes / No', 'Do you smoke?');
    await addQuestion('Text', 'Which city do you live in?');

    await addPage('Your health');
    const days = await addQuestion('Single choice', 'How many days a week do you exercise?');
    await addOptions(days, ['Fewer than 4 days', '4 to 6 days', 'Every day']);
    await click(days.getByRole('listitem', { name: 'Option Fewer than 4 days' }).getByLabel('Disqualify'));
    await addQuestion('Number', 'What is your weight in kg?');
    const pregnant = await addQuestion('Yes / No', 'Are you pregnant?');
    await click(pregnant.getByRole('listitem', { name: 'Option Yes' }).getByLabel('Disqualify'));

    await addPage('Contact');
    await addQuestion('Email', 'What is your email address?');
    const time = await addQuestion('Dropdown', 'When may we call you?');
    await addOptions(time, ['Morning', 'Afternoon']);

    // The branch: smokers skip their health page.
    await click(page.getByRole('button', { name: 'About you', exact: true }));
    const smoke = page.getByRole('listitem', { name: 'Question 2' });
    await click(smoke.locator('.question-card-toggle'));
    await choose(smoke.getByRole('listitem', { name: 'Option Yes' }).getByLabel('Transition', { exact: true }), 'Page: Contact');
    await expect.poll(() => smoke.getByRole('listitem', { name: 'Option Yes' }).getByLabel('Transition', { exact: true }).inputValue(), SLOW).toMatch(/^page:/);

    // Spanish for every text, in the grid.
    await click(page.getByRole('tab', { name: 'Translations' }));
    const grid = page.getByRole('region', { name: 'Translations' });
    const cells = grid.locator('td.missing input');
    // Three page titles, eight questions and nine options; the messages have shipped Spanish.
    await expect.poll(() => cells.count(), SLOW).toBe(20);
    const spanish = new Map([
      ['About you', 'Sobre usted'],
      ['Your health', 'Su salud'],
      ['Contact', 'Contacto'],
      ['Yes', 'Sí'],
      ['No', 'No'],
    ]);
    // Cell after cell as a keyboard user goes: Tab leaves one (saving it) for the next, which
    // the browser brings on screen itself.
    await click(cells.first());
    for (let left = await cells.count(); left > 0; left--) {
      const cell = page.locator(':focus');
      const source = (await cell.locator('xpath=ancestor::tr/td[1]').textContent())!;
      count.typed++;
      await cell.fill(spanish.get(source) ?? `ES: ${source}`);
      await page.keyboard.press('Tab');
      await expect.poll(() => cells.count(), SLOW).toBe(left - 1);
    }
    await expect.poll(() => grid.getByRole('status').textContent(), SLOW).toBe('Every text is translated.');

    console.log(`[effort] ${count.clicks} clicks, ${count.typed} typed fields, ${count.scrolls} scrolls`);
    expect(count.clicks).toBeLessThanOrEqual(60);
    expect(count.scrolls).toBeLessThanOrEqual(8);

    // What the server holds is the survey described.
    const missing = await api(`o-forms/o-forms/${id}/missing-translations`);
    expect(missing.data).toEqual([]);
    const doc = await api(`o-forms/o-forms/${id}?include=oFormContainers.oFormFields`);
    const included = doc.included as {
      type: string;
      id: string;
      attributes: Record<string, unknown> & { title: string; identity: string };
      relationships?: Record<string, { data: { id: string }[] }>;
    }[];
    const pages = (doc.data.relationships.oFormContainers.data as { id: string }[]).map(
      (ref) => included.find((r) => r.type === 'o-form-containers' && r.id === ref.id)!,
    );
    expect(pages.map((p) => p.attributes.title)).toEqual(['About you', 'Your health', 'Contact']);
    const fields = pages.flatMap((p) =>
      p.relationships!.oFormFields!.data.map((f) => included.find((r) => r.type === 'o-form-fields' && r.id === f.id)!.attributes),
    );
    expect(fields).toHaveLength(8);
    expect(new Set(fields.map((f) => f.oFormFieldTypeId)).size).toBeGreaterThanOrEqual(6);
    type Config = {
      minAge?: number;
      maxAge?: number;
      options: { label: string; isDisqualified: boolean; transition: { to: string; identity?: string } | null }[];
    };
    const configs = fields.map((f) => f.configuration as Config);
    expect(configs[0]).toMatchObject({ minAge: 18, maxAge: 65 });
    expect(configs.flatMap((c) => c.options.filter((o) => o.isDisqualified).map((o) => o.label))).toEqual(['Fewer than 4 days', 'Yes']);
    expect(configs[1]!.options.find((o) => o.label === 'Yes')!.transition).toEqual({ to: 'page', identity: pages[2]!.attributes.identity });
    // Some hundred saves through a browser on a shared machine.
  }, 300_000);

  it('exports the grid and imports it back through the browser, a file with a mistake changing nothing', async () => {
    expect(surveyId).not.toBe('');
    await page.goto(`${base}/surveys-new/edit/${surveyId}?tab=translations`);
    const grid = page.getByRole('region', { name: 'Translations' });
    await expect.poll(() => grid.getByRole('status').textContent(), SLOW).toBe('Every text is translated.');
    expect(await axeViolations(page)).toEqual([]);
    const [download] = await Promise.all([page.waitForEvent('download'), grid.getByRole('button', { name: 'Export CSV' }).click()]);
    const fs = await import('node:fs');
    const csv = fs.readFileSync((await download.path())!, 'utf8').replace(/^\ufeff/, '');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('key,where,en,es');
    const contact = lines.findIndex((l) => l.endsWith(',Contact,Contacto'));
    expect(contact).toBeGreaterThan(0);

    const upload = (text: string) => grid.getByLabel('Import CSV').setInputFiles({ name: 'grid.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });
    const changed = lines.map((l, i) => (i === contact ? l.replace(/,Contacto$/, ',Datos de contacto') : l));
    // A row naming no text of this version: the file is refused whole, row and column named.
    await upload([...changed, 'page:0,,Nowhere,=1+1'].join('\r\n'));
    await expect
      .poll(() => grid.getByRole('alert').textContent(), SLOW)
      .toContain(`Row ${lines.length + 1}, column key: 'page:0' is not a text of this survey version.`);
    const titles = async () => {
      const doc = await api(`o-forms/o-forms/${surveyId}?include=oFormContainers`);
      return (doc.included as { type: string; attributes: { translations: Record<string, { title?: string }> } }[])
        .filter((r) => r.type === 'o-form-containers')
        .map((r) => r.attributes.translations.es?.title);
    };
    expect(await titles()).toContain('Contacto');

    await upload(changed.join('\r\n'));
    await expect.poll(titles, SLOW).toContain('Datos de contacto');
    await expect.poll(() => grid.getByLabel('Page 3 (es)', { exact: true }).inputValue(), SLOW).toBe('Datos de contacto');
  });
});
