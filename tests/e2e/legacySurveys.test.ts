/**
 * Legacy surveys end to end in the real admin bundle: build a survey for an engagement with
 * two pages, a 'multiple' question (its 'None of the Above' option appears) and an option that
 * jumps to the end, then read it back on the view screen and through the API.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { adminApiOn, openAdminBrowser } from './admin-session';

const base = inject('baseUrl');
let browser: Browser;
let page: Page;
const stamp = Date.now().toString(36).toUpperCase();
const engagementName = `E2E Survey Study ${stamp}`;
const surveyTitle = `E2E Legacy Survey ${stamp}`;
let engagementId = '';
let surveyId = '';

const { api, post, signIn } = adminApiOn(base);
// The screen is lazy and its engagement picker loads up to 1000 engagements (as many as the
// shared e2e server holds by then): on a busy machine that takes longer than expect.poll's 1 s.
const SLOW = { timeout: 15_000 };

beforeAll(async () => {
  await signIn();
  const sponsor = await post('sponsors', 'sponsors', { name: `E2E Survey Pharma ${stamp}`, identification: `SV-${stamp}` });
  const engagement = await post('engagements', 'engagements', { name: engagementName, identification: `LS-${stamp}`, sponsorId: Number(sponsor.data.id) });
  engagementId = engagement.data.id;

  ({ browser, page } = await openAdminBrowser(base));
});
afterAll(async () => {
  await browser?.close();
});

describe('legacy surveys', () => {
  it('creates a survey for an engagement from the surveys index', async () => {
    await page.goto(`${base}/surveys`);
    const picker = page.getByLabel('Add a survey for engagement');
    await expect.poll(() => picker.locator('option').allTextContents(), SLOW).toContain(`${engagementName} (SV-${stamp}-LS-${stamp})`);
    await picker.selectOption(engagementId);
    await page.getByRole('button', { name: 'Add Survey' }).click();
    await page.waitForURL(`${base}/surveys/add/${engagementId}`);
    await page.getByLabel('Title', { exact: true }).fill(surveyTitle);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/surveys\/edit\/\d+$/);
    surveyId = page.url().split('/').pop() ?? '';
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'New Page 1', exact: true }).waitFor();
  });

  it("adds a second page and a multiple question that gets 'None of the Above'", async () => {
    const pages = page.getByRole('navigation', { name: 'Pages' });
    await pages.getByRole('button', { name: 'Add Page' }).click();
    await pages.getByRole('button', { name: 'New Page 2', exact: true }).waitFor();
    await pages.getByRole('button', { name: 'New Page 1', exact: true }).click();
    await page.getByRole('region', { name: 'Page New Page 1' }).waitFor();

    await page.getByRole('button', { name: 'Add Question' }).click();
    const question = page.getByRole('listitem', { name: 'Question 1', exact: true });
    await expect.poll(() => question.getByLabel('Question title', { exact: true }).inputValue(), SLOW).toBe('Placeholder');
    await question.getByLabel('Type', { exact: true }).selectOption('multiple');
    await question.getByLabel('Question title', { exact: true }).fill('Which conditions do you have?');
    await question.getByRole('button', { name: 'Save Question' }).click();
    const none = question.getByRole('listitem', { name: 'Option None of the Above' });
    await none.waitFor();
    expect(await none.getByLabel('Label', { exact: true }).inputValue()).toBe('None of the Above');
  });

  it("adds an option that jumps to 'end'", async () => {
    const question = page.getByRole('listitem', { name: 'Question 1', exact: true });
    await question.getByRole('button', { name: 'Add Option' }).click();
    const option = question.getByRole('listitem', { name: 'Option Option 2' });
    await option.waitFor();
    const transition = option.getByLabel('Transition', { exact: true });
    expect(await transition.locator('option').allTextContents()).toEqual(['Next page', 'End of survey', 'Page: New Page 2']);
    await option.getByLabel('Label', { exact: true }).fill('Asthma');
    await transition.selectOption('end');
    await option.getByRole('button', { name: 'Save Option' }).click();
    await question.getByRole('listitem', { name: 'Option Asthma' }).waitFor();

    const survey = await api(`surveys/${surveyId}`);
    const [first, second] = survey.data.attributes.pages;
    expect([first.title, second.title]).toEqual(['New Page 1', 'New Page 2']);
    expect(survey.data.attributes.pageCounter).toBe(2);
    expect(first.questions[0]).toMatchObject({ questionType: 'multiple', title: 'Which conditions do you have?' });
    // A new option goes before 'None of the Above', which participants keep seeing last.
    expect(first.questions[0].options.map((o: { label: string; transitionTo: string | null }) => [o.label, o.transitionTo])).toEqual([
      ['Asthma', 'end'],
      ['None of the Above', null],
    ]);
  });

  it('shows the survey on its view screen', async () => {
    await page.goto(`${base}/surveys/view/${surveyId}`);
    const firstPage = page.getByRole('region', { name: 'New Page 1', exact: true });
    await firstPage.getByText('Which conditions do you have?').waitFor();
    expect(await firstPage.getByRole('listitem').filter({ hasText: 'Asthma' }).last().textContent()).toContain('End of survey');
    await page.getByRole('region', { name: 'New Page 2', exact: true }).getByText('No questions on this page.').waitFor();
  });
});
