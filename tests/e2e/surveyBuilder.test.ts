/**
 * The survey builder at 1366×860 in the real admin bundle over the demo data: a page of three
 * questions (one open) fits in two screen heights with the participant preview beside it and a
 * drag handle on each question; questions reorder by dragging and by keyboard; the logic view
 * draws the demo's branch as its own labelled edge that no page box covers; axe finds nothing
 * serious on the builder.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './browser';
import { adminApiOn, adminPage, LAPTOP_SCREEN as SCREEN } from './admin-session';
import { axeViolations } from './axe';

const base = inject('baseUrl');
const SLOW = { timeout: 20_000 };
let browser: Browser;
let page: Page;
const { api, post, signIn } = adminApiOn(base);
let demoId = '';
let draftId = '';
let firstPageId = '';

/** The first page's question titles, in order, as the API has them. */
async function firstPageTitles(id: string): Promise<string[]> {
  const doc = await api(`o-forms/o-forms/${id}?include=oFormContainers.oFormFields`);
  const included = doc.included as {
    type: string;
    id: string;
    attributes: { title: string; displayOrder: number };
    relationships?: Record<string, { data: { id: string }[] }>;
  }[];
  const container = included.find((r) => r.type === 'o-form-containers' && r.id === doc.data.relationships.oFormContainers.data[0].id)!;
  return container.relationships!.oFormFields!.data.map((f) => included.find((r) => r.type === 'o-form-fields' && r.id === f.id)!.attributes.title);
}

/** Every page's question titles, in order, as the API has them. */
async function pageTitles(id: string): Promise<string[][]> {
  const doc = await api(`o-forms/o-forms/${id}?include=oFormContainers.oFormFields`);
  const included = doc.included as { type: string; id: string; attributes: { title: string }; relationships?: Record<string, { data: { id: string }[] }> }[];
  return (doc.data.relationships.oFormContainers.data as { id: string }[]).map((ref) => {
    const container = included.find((r) => r.type === 'o-form-containers' && r.id === ref.id)!;
    return container.relationships!.oFormFields!.data.map((f) => included.find((r) => r.type === 'o-form-fields' && r.id === f.id)!.attributes.title);
  });
}

beforeAll(async () => {
  await signIn();
  const list = await api(`o-forms/o-forms?searchQuery=${encodeURIComponent('Healthy Heart questionnaire')}&limit=10`);
  const demo = (list.data as { id: string; attributes: { isApproved: boolean; identity: string } }[]).find((f) => f.attributes.isApproved)!;
  demoId = demo.id;
  // A draft of the demo with a third question on its first page: a date of birth, ages 18 to 65.
  const copy = await post('o-forms/o-form-copy', 'o-form-copy', { copy_identity: demo.attributes.identity });
  draftId = copy.data.id;
  const detail = await api(`o-forms/o-forms/${draftId}`);
  firstPageId = detail.data.relationships.oFormContainers.data[0].id;
  await post('o-forms/o-form-fields', 'o-form-fields', {
    containerId: Number(firstPageId),
    oFormFieldTypeId: 'dob',
    title: 'Your date of birth',
    configuration: { required: true, minAge: 18, maxAge: 65, translations: { es: { title: 'Su fecha de nacimiento' } } },
  });
  browser = await launchBrowser();
  page = await adminPage(browser, base, SCREEN);
});
afterAll(async () => {
  await browser?.close();
});

const cards = () => page.locator('.question-list > li');

describe('survey builder', () => {
  it('shows a page of three questions, one open, in two screen heights with the preview beside and a handle on each', async () => {
    await page.goto(`${base}/surveys-new/edit/${draftId}`);
    await expect.poll(() => cards().count(), SLOW).toBe(3);
    // Only the first question is open; the others are one line each, their rules in words.
    expect(await page.locator('.question-card.open').count()).toBe(1);
    await expect.poll(() => cards().nth(2).locator('.question-card-summary').textContent(), SLOW).toBe('Age 18–65, else disqualified · Required');
    expect(await cards().nth(0).locator('.question-card-summary').count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Move question \d$/ }).count()).toBe(3);

    // The preview shows the page being edited, beside the questions.
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByText('How old are you?').waitFor(SLOW);
    const list = (await page.locator('.question-list').boundingBox())!;
    const shown = (await preview.boundingBox())!;
    expect(shown.x).toBeGreaterThanOrEqual(list.x + list.width);
    expect(shown.y).toBeLessThan(list.y + list.height);
    expect(shown.x + shown.width).toBeLessThanOrEqual(SCREEN.width);

    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    if (process.env.BUILDER_SHOT) await page.screenshot({ path: process.env.BUILDER_SHOT, fullPage: true });
    console.log(`[builder] page of 3 questions, one open: ${height} px at ${SCREEN.width}×${SCREEN.height}`);
    expect(height).toBeLessThanOrEqual(2 * SCREEN.height);

    // It follows typing, before anything is saved.
    await cards().nth(0).getByLabel('Question title', { exact: true }).fill('How old are you today?');
    await preview.getByText('How old are you today?').waitFor(SLOW);
    await cards().nth(0).getByLabel('Question title', { exact: true }).fill('How old are you?');
    await cards().nth(0).getByLabel('Question title', { exact: true }).press('Tab');

    // Phone and desktop widths.
    const screenBox = page.locator('.builder-preview-screen');
    expect(await screenBox.evaluate((e) => e.style.width)).toBe('375px');
    await preview.getByRole('button', { name: 'Desktop' }).click();
    expect(await screenBox.evaluate((e) => e.style.width)).toBe('1024px');
    expect((await screenBox.boundingBox())!.width).toBeLessThanOrEqual(shown.width);

    expect(await axeViolations(page)).toEqual([]);
  });

  it('shows the approved demo read-only, in two screen heights, with a handle on each question', async () => {
    await page.goto(`${base}/surveys-new/edit/${demoId}`);
    await expect.poll(() => cards().count(), SLOW).toBe(2);
    await page.getByRole('region', { name: 'Preview' }).getByText('How old are you?').waitFor(SLOW);
    expect(await page.getByRole('button', { name: /^Move question \d$/ }).count()).toBe(2);
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(2 * SCREEN.height);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('reorders questions by keyboard and by dragging', async () => {
    await page.goto(`${base}/surveys-new/edit/${draftId}`);
    await expect.poll(() => cards().count(), SLOW).toBe(3);
    const before = await firstPageTitles(draftId);
    expect(before).toEqual(['How old are you?', 'Has a doctor ever told you that you have high blood pressure?', 'Your date of birth']);

    // Keyboard: pick up question 2, move it up one place, drop it; the move is announced.
    const handle = page.getByRole('button', { name: 'Move question 2', exact: true });
    await handle.focus();
    // The sensor listens for the next keys a moment after the item is picked up.
    for (const key of ['Space', 'ArrowUp', 'Space']) {
      await page.keyboard.press(key);
      await page.waitForTimeout(200);
    }
    await expect.poll(() => firstPageTitles(draftId), SLOW).toEqual([before[1], before[0], before[2]]);
    const announced = () => page.evaluate(() => [...document.querySelectorAll('[id^="DndLiveRegion"]')].map((e) => e.textContent).join(' | '));
    await expect.poll(announced, SLOW).toMatch(/question 2 dropped at place 1 of 3/);

    // Pointer: drag question 3 by its handle above question 1.
    await expect.poll(() => cards().nth(2).getAttribute('aria-label'), SLOW).toBe('Question 3');
    await expect.poll(async () => (await cards().nth(2).locator('.question-card-title').textContent())?.includes('Your date of birth'), SLOW).toBe(true);
    // Closed, the three cards are on screen together.
    await page.locator('.question-card.open .question-card-toggle').click();
    await expect.poll(() => page.locator('.question-card.open').count(), SLOW).toBe(0);
    await cards().nth(0).scrollIntoViewIfNeeded();
    const from = (await page.getByRole('button', { name: 'Move question 3', exact: true }).boundingBox())!;
    const to = (await cards().nth(0).boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, from.y - 10, { steps: 5 });
    await page.mouse.move(to.x + 20, to.y + 5, { steps: 15 });
    await page.waitForTimeout(200);
    await page.mouse.up();
    await expect.poll(() => firstPageTitles(draftId), SLOW).toEqual([before[2], before[1], before[0]]);
  });

  it('moves a question to another page by dragging it onto the page, and by keyboard, each undone', async () => {
    await page.goto(`${base}/surveys-new/edit/${draftId}`);
    await expect.poll(() => cards().count(), SLOW).toBe(3);
    const before = await pageTitles(draftId);
    const moved = before[0]![0]!;
    const history = page.getByRole('group', { name: 'Undo and redo' });
    const undo = async () => {
      const button = history.getByRole('button', { name: 'Undo' });
      await expect.poll(() => button.isEnabled(), SLOW).toBe(true);
      await button.click();
      await expect.poll(() => pageTitles(draftId), SLOW).toEqual(before);
      await expect.poll(() => cards().count(), SLOW).toBe(3);
    };

    // Pointer: question 1's handle onto the second page in the pages panel; it goes last there.
    const target = page.getByRole('navigation', { name: 'Pages' }).getByRole('listitem').nth(1);
    const from = (await page.getByRole('button', { name: 'Move question 1', exact: true }).boundingBox())!;
    const to = (await target.boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x - 10, from.y + from.height / 2, { steps: 5 });
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 15 });
    await page.waitForTimeout(200);
    await page.mouse.up();
    await expect.poll(() => pageTitles(draftId), SLOW).toEqual([before[0]!.slice(1), [...before[1]!, moved], ...before.slice(2)]);
    await expect.poll(() => cards().count(), SLOW).toBe(2);
    await undo();

    // Keyboard: pick it up, Left reaches the pages, drop it there; the move is announced.
    const handle = page.getByRole('button', { name: 'Move question 1', exact: true });
    await handle.focus();
    for (const key of ['Space', 'ArrowLeft', 'Space']) {
      await page.keyboard.press(key);
      await page.waitForTimeout(200);
    }
    const announced = () => page.evaluate(() => [...document.querySelectorAll('[id^="DndLiveRegion"]')].map((e) => e.textContent).join(' | '));
    await expect.poll(announced, SLOW).toMatch(/question 1 moved to page /);
    await expect.poll(async () => (await pageTitles(draftId))[0], SLOW).toEqual(before[0]!.slice(1));
    expect((await pageTitles(draftId)).flat().sort()).toEqual(before.flat().sort());
    await undo();
  });

  it('undoes a deleted question, with its rules, and redoes the delete', async () => {
    await page.goto(`${base}/surveys-new/edit/${draftId}`);
    await expect.poll(() => cards().count(), SLOW).toBe(3);
    const before = await firstPageTitles(draftId);
    const dob = cards().filter({ hasText: 'Your date of birth' });
    if ((await dob.getAttribute('class'))?.includes('open') !== true) await dob.locator('.question-card-toggle').click();
    await dob.getByRole('button', { name: 'Delete Question' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => firstPageTitles(draftId), SLOW).toEqual(before.filter((t) => t !== 'Your date of birth'));

    const history = page.getByRole('group', { name: 'Undo and redo' });
    await history.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => firstPageTitles(draftId), SLOW).toEqual(before);
    await expect.poll(() => cards().count(), SLOW).toBe(3);
    // With its age range: the rule the logic view and the PDF state.
    const doc = await api(`o-forms/o-forms/${draftId}?include=oFormContainers.oFormFields`);
    const restored = (doc.included as { type: string; attributes: { title: string; configuration: { minAge?: number; maxAge?: number } } }[]).find(
      (r) => r.type === 'o-form-fields' && r.attributes.title === 'Your date of birth',
    );
    expect(restored?.attributes.configuration).toMatchObject({ minAge: 18, maxAge: 65 });

    await history.getByRole('button', { name: 'Redo' }).click();
    await expect.poll(() => firstPageTitles(draftId), SLOW).toEqual(before.filter((t) => t !== 'Your date of birth'));
    // And back again, from the keyboard outside a text field, once the redo has settled (the
    // history takes no step while one runs).
    await expect.poll(() => history.getByRole('button', { name: 'Undo' }).isEnabled(), SLOW).toBe(true);
    await page.getByRole('tab', { name: 'Questions' }).focus();
    await page.keyboard.press('Control+z');
    await expect.poll(() => firstPageTitles(draftId), SLOW).toEqual(before);
  });

  it('draws the demo branch as its own labelled edge that no page box covers, and opens fitted to the whole logic', async () => {
    await page.goto(`${base}/surveys-new/edit/${demoId}?tab=logic`);
    await expect.poll(() => page.locator('.react-flow__node.survey-flow-page').count(), SLOW).toBe(3);
    const branch = page.locator('.react-flow__edge.survey-flow-edge-branch');
    await expect.poll(() => branch.count(), SLOW).toBe(1);
    expect(await branch.locator('.react-flow__edge-text').textContent()).toBe('No');
    // The ways out: the disqualifying option, to Disqualified.
    expect(await page.locator('.react-flow__edge.survey-flow-edge-out .react-flow__edge-text').allTextContents()).toEqual(['Under 18']);
    await page.locator('.react-flow__node.survey-flow-out').getByText('Disqualified').waitFor();

    const geometry = await page.evaluate(() => {
      const rect = (e: Element) => {
        const r = e.getBoundingClientRect();
        return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
      };
      const edge = document.querySelector('.react-flow__edge.survey-flow-edge-branch')!;
      const path = edge.querySelector('path.react-flow__edge-path') as SVGPathElement;
      const matrix = path.getScreenCTM()!;
      const length = path.getTotalLength();
      const points: { x: number; y: number }[] = [];
      for (let i = 1; i < 40; i++) {
        const p = path.getPointAtLength((length * i) / 40);
        points.push({ x: matrix.a * p.x + matrix.c * p.y + matrix.e, y: matrix.b * p.x + matrix.d * p.y + matrix.f });
      }
      return {
        points,
        label: rect(edge.querySelector('.react-flow__edge-text')!),
        labelColour: getComputedStyle(edge.querySelector('.react-flow__edge-text')!).fill,
        stroke: getComputedStyle(path).stroke,
        nextStroke: getComputedStyle(document.querySelector('.react-flow__edge.survey-flow-edge-next path.react-flow__edge-path')!).stroke,
        pages: [...document.querySelectorAll('.react-flow__node.survey-flow-page')].map(rect),
        all: [...document.querySelectorAll('.react-flow__node:not(.survey-flow-bound)')].map(rect),
        canvas: rect(document.querySelector('.flow-canvas')!),
      };
    });
    const inside = (p: { x: number; y: number }, r: { left: number; top: number; right: number; bottom: number }) =>
      p.x > r.left + 1 && p.x < r.right - 1 && p.y > r.top + 1 && p.y < r.bottom - 1;
    const overlaps = (a: typeof geometry.label, b: typeof geometry.label) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    for (const box of geometry.pages) {
      expect(geometry.points.filter((p) => inside(p, box))).toEqual([]);
      expect(overlaps(geometry.label, box)).toBe(false);
    }
    // Its own colour, not the grey of next-page edges.
    expect(geometry.stroke).not.toBe(geometry.nextStroke);
    expect(geometry.labelColour).toBe(geometry.stroke);
    // Fitted: every box and the label are inside the canvas.
    for (const box of [...geometry.all, geometry.label]) {
      expect(box.left).toBeGreaterThanOrEqual(geometry.canvas.left);
      expect(box.right).toBeLessThanOrEqual(geometry.canvas.right);
      expect(box.top).toBeGreaterThanOrEqual(geometry.canvas.top);
      expect(box.bottom).toBeLessThanOrEqual(geometry.canvas.bottom);
    }
    expect(await axeViolations(page)).toEqual([]);
  });
});
