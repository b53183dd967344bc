/**
 * Versioned surveys end to end in the real admin bundle: build a three-page survey whose first
 * question has a disqualifying option and an option jumping to page 3, add Spanish with every
 * translation, approve it, make version 2, change a question and approve that, see version 1
 * no longer approved, and export the PDF.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { adminApiOn, openAdminBrowser } from './admin-session';

const base = inject('baseUrl');
let browser: Browser;
let page: Page;
const stamp = Date.now().toString(36).toUpperCase();
const sponsorName = `E2E OForm Pharma ${stamp}`;
const engagementName = `E2E OForm Study ${stamp}`;
const surveyTitle = `E2E Versioned Survey ${stamp}`;
let firstId = '';
let secondId = '';

const { api, post: create, signIn } = adminApiOn(base);
// Each change saves on its own, one after another; the machine running the suite is shared.
const SLOW = { timeout: 15_000 };

interface ApiField {
  title: string;
  oFormFieldTypeId: string;
  configuration: {
    translations: Record<string, { title?: string }>;
    options: { label: string; isDisqualified: boolean; transition: { to: string; identity?: string } | null; translations: Record<string, string> }[];
  };
}
interface ApiPage {
  identity: string;
  title: string;
  fields: ApiField[];
}

/** The version's pages and questions, as the API has them. */
async function structure(id: string): Promise<{ attributes: Record<string, unknown>; pages: ApiPage[] }> {
  const doc = await api(`o-forms/o-forms/${id}?include=oFormContainers.oFormFields`);
  const included = doc.included as {
    type: string;
    id: string;
    attributes: Record<string, unknown>;
    relationships?: Record<string, { data: { id: string }[] }>;
  }[];
  const find = (type: string, rid: string) => included.find((r) => r.type === type && r.id === rid)!;
  const pages = (doc.data.relationships.oFormContainers.data as { id: string }[]).map(({ id: cid }) => {
    const c = find('o-form-containers', cid);
    return {
      identity: c.attributes.identity as string,
      title: c.attributes.title as string,
      fields: c.relationships!.oFormFields!.data.map((f) => find('o-form-fields', f.id).attributes as unknown as ApiField),
    };
  });
  return { attributes: doc.data.attributes, pages };
}

/** Types a text and leaves the field, which saves it. */
async function type(field: Locator, text: string) {
  await field.fill(text);
  await field.press('Tab');
}

const question = (n: number) => page.getByRole('listitem', { name: `Question ${n}` });
const optionRow = (card: Locator, n: number) => card.locator('.option-editor').nth(n);

beforeAll(async () => {
  await signIn();
  const sponsor = await create('sponsors', 'sponsors', { name: sponsorName, identification: `OF-${stamp}` });
  await create('engagements', 'engagements', { name: engagementName, identification: `OFE-${stamp}`, sponsorId: Number(sponsor.data.id) });
  ({ browser, page } = await openAdminBrowser(base, { acceptDownloads: true }));
});
afterAll(async () => {
  await browser?.close();
});

describe('versioned surveys', () => {
  it('builds a three-page survey with a disqualifying option and a jump to page 3', async () => {
    await page.goto(`${base}/surveys-new/add`);
    await page.getByLabel('Title', { exact: true }).fill(surveyTitle);
    const engagement = page.getByLabel('Engagement', { exact: true });
    await expect.poll(() => engagement.locator('option').allTextContents(), SLOW).toContain(`${engagementName} (${sponsorName})`);
    await engagement.selectOption({ label: `${engagementName} (${sponsorName})` });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/surveys-new\/edit\/\d+$/);
    firstId = page.url().split('/').pop() ?? '';

    await page.getByRole('button', { name: 'Add Page' }).click();
    await page.getByRole('button', { name: 'New Page 2', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Add Page' }).click();
    await page.getByRole('button', { name: 'New Page 3', exact: true }).waitFor();

    // Pages 2 and 3 get a text question each.
    for (const [pageTitle, title] of [
      ['New Page 2', 'What is your name?'],
      ['New Page 3', 'Anything else?'],
    ] as const) {
      await page.getByRole('button', { name: pageTitle, exact: true }).click();
      await page.getByRole('button', { name: 'Add Question' }).click();
      await question(1).waitFor();
      await question(1).getByLabel('Type', { exact: true }).selectOption({ label: 'Text' });
      await type(question(1).getByLabel('Question title', { exact: true }), title);
    }

    // Page 1: a single-choice question; Yes jumps to page 3, No disqualifies.
    await page.getByRole('button', { name: 'New Page 1', exact: true }).click();
    await page.getByRole('button', { name: 'Add Question' }).click();
    const card = question(1);
    await card.getByLabel('Type', { exact: true }).selectOption({ label: 'Single choice' });
    await type(card.getByLabel('Question title', { exact: true }), 'Do you smoke?');
    await card.getByRole('button', { name: 'Add Option' }).click();
    await optionRow(card, 0).waitFor();
    await card.getByRole('button', { name: 'Add Option' }).click();
    await optionRow(card, 1).waitFor();
    await type(optionRow(card, 0).getByLabel('Label', { exact: true }), 'Yes');
    await type(optionRow(card, 1).getByLabel('Label', { exact: true }), 'No');
    await optionRow(card, 0).getByLabel('Transition', { exact: true }).selectOption({ label: 'Page: New Page 3' });
    await optionRow(card, 1).getByLabel('Disqualify', { exact: true }).check();

    await expect
      .poll(async () => {
        const { pages } = await structure(firstId);
        const options = pages[0]?.fields[0]?.configuration.options ?? [];
        return [
          pages.map((p) => p.title),
          pages[0]?.fields[0]?.title,
          options.map((o) => [o.label, o.isDisqualified, o.transition?.identity === pages[2]?.identity]),
        ];
      }, SLOW)
      .toEqual([
        ['New Page 1', 'New Page 2', 'New Page 3'],
        'Do you smoke?',
        [
          ['Yes', false, true],
          ['No', true, false],
        ],
      ]);
    // The logic view draws the three pages and the jump.
    await page.getByRole('tab', { name: 'Logic' }).click();
    await expect.poll(() => page.locator('.react-flow__node.survey-flow-page').count(), SLOW).toBe(3);
    await page.locator('.react-flow__edge-text').filter({ hasText: 'Yes' }).first().waitFor();
    await page.getByRole('tab', { name: 'Questions' }).click();
  });

  it('adds Spanish with every translation and approves version 1', async () => {
    const languages = page.getByRole('region', { name: 'Survey languages' });
    await languages.getByLabel('Spanish (es)').check();
    const switcher = languages.getByLabel('Editing language', { exact: true });
    await expect.poll(() => switcher.locator('option').allTextContents(), SLOW).toContain('Spanish (es)');
    await switcher.selectOption('es');

    // Every page's title and every question's text need their Spanish before the version is approved.
    const pageTitleEs = () => page.getByLabel('Page title (es)', { exact: true });
    await page.getByRole('button', { name: 'New Page 1', exact: true }).click();
    await type(pageTitleEs(), 'Nueva página 1');
    await type(question(1).getByLabel('Question title (es)', { exact: true }), '¿Fuma?');
    await type(optionRow(question(1), 0).getByLabel('Label (es)', { exact: true }), 'Sí');
    await type(optionRow(question(1), 1).getByLabel('Label (es)', { exact: true }), 'No');
    for (const [pageTitle, pageTitleInSpanish, title] of [
      ['New Page 2', 'Nueva página 2', '¿Cómo se llama?'],
      ['New Page 3', 'Nueva página 3', '¿Algo más?'],
    ] as const) {
      await page.getByRole('button', { name: pageTitle, exact: true }).click();
      await type(pageTitleEs(), pageTitleInSpanish);
      await type(question(1).getByLabel('Question title (es)', { exact: true }), title);
    }
    await expect.poll(async () => (await api(`o-forms/o-forms/${firstId}/missing-translations`)).data, SLOW).toEqual([]);

    await page.getByRole('button', { name: 'Approve' }).click();
    const dialog = page.getByRole('dialog', { name: 'Approve version 1' });
    await dialog.getByText(/can never change again/).waitFor();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    const bar = page.getByRole('region', { name: 'Version' });
    await bar.getByText('Approved', { exact: true }).waitFor();
    expect((await structure(firstId)).attributes).toMatchObject({ version: 1, isApproved: true });
    // Approved: read-only.
    expect(await page.getByRole('button', { name: 'Add Page' }).count()).toBe(0);
    expect(await question(1).getByLabel('Question title (es)', { exact: true }).isDisabled()).toBe(true);
  });

  it('makes version 2, changes a question, approves it, and version 1 is no longer the approved one', async () => {
    await page.getByRole('region', { name: 'Version' }).getByRole('button', { name: 'New version' }).click();
    await page.waitForURL((url) => /\/surveys-new\/edit\/\d+$/.test(url.pathname) && !url.pathname.endsWith(`/${firstId}`));
    secondId = page.url().split('/').pop() ?? '';
    const bar = page.getByRole('region', { name: 'Version' });
    await bar.getByText('Version 2', { exact: true }).waitFor();
    await bar.getByText('Draft', { exact: true }).waitFor();

    await type(question(1).getByLabel('Question title', { exact: true }), 'Do you smoke daily?');
    await expect.poll(async () => (await structure(secondId)).pages[0]?.fields[0]?.title, SLOW).toBe('Do you smoke daily?');
    expect((await structure(firstId)).pages[0]?.fields[0]?.title).toBe('Do you smoke?');

    await page.getByRole('button', { name: 'Approve' }).click();
    const dialog = page.getByRole('dialog', { name: 'Approve version 2' });
    await dialog.getByText(/can never change again/).waitFor();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await bar.getByText('Approved', { exact: true }).waitFor();

    await bar.getByRole('link', { name: 'Version 1 (Previously approved)' }).click();
    await page.waitForURL(`${base}/surveys-new/view/${firstId}`);
    await page.getByRole('region', { name: 'Version' }).getByText('Previously approved', { exact: true }).waitFor();
    expect((await structure(firstId)).attributes).toMatchObject({ isApproved: false });
    expect((await structure(secondId)).attributes).toMatchObject({ isApproved: true });
  });

  it('exports the survey as a PDF', async () => {
    await page.goto(`${base}/surveys-new/edit/${secondId}`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export PDF' }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const bytes = fs.readFileSync((await download.path()) as string);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });
});
