/**
 * Screeners and media channels end to end in the real admin bundle: create a screener for an
 * engagement from the sponsor's page with two colours and a Spanish message, attach three
 * contact fields and reorder them (arrows and drag), then create a media channel and copy its
 * embed snippet to the clipboard.
 */
import { HOST_NAME_INVALID } from '@core/model/mediaChannel';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from './browser';
import { adminApiOn, signInAsAdmin } from './admin-session';
import { pickSurvey } from './surveyPicker';
import { axeViolations } from './axe';

const base = inject('baseUrl');
let browser: Browser;
let context: BrowserContext;
let page: Page;
const stamp = Date.now().toString(36).toUpperCase();
const sponsorName = `E2E Screener Pharma ${stamp}`;
const engagementName = `E2E Screener Study ${stamp}`;
const screenerTitle = `E2E Screener ${stamp}`;
const fieldLabels = ['Alpha', 'Bravo', 'Charlie'].map((l) => `${l} ${stamp}`);
let sponsorId = '';
let screenerId = '';
const surveyTitles = [`Intake ${stamp}`, `Follow-up ${stamp}`];
const surveyIdentities: string[] = [];

const { api, post: create, signIn } = adminApiOn(base);

const order = async () =>
  (await api(`contact-fields-screeners?limit=100&sort=weight&screenerId=${screenerId}`)).data.map((r: { attributes: { label: string } }) => r.attributes.label);

beforeAll(async () => {
  await signIn();
  sponsorId = (await create('sponsors', 'sponsors', { name: sponsorName, identification: `SC-${stamp}` })).data.id;
  const engagementId = (await create('engagements', 'engagements', { name: engagementName, identification: `SCE-${stamp}`, sponsorId: Number(sponsorId) })).data
    .id;
  for (const title of surveyTitles) {
    surveyIdentities.push((await create('o-forms/o-forms', 'o-forms', { title, engagementId: Number(engagementId) })).data.attributes.identity);
  }
  for (const [i, label] of fieldLabels.entries()) {
    await create('contact-fields/', 'contact-fields', { label, name: `e2e_${stamp.toLowerCase()}_${i}` });
  }

  browser = await launchBrowser();
  context = await browser.newContext();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  page = await context.newPage();
  await signInAsAdmin(page, base);
});
afterAll(async () => {
  await browser?.close();
});

describe('screeners and media channels', () => {
  it('creates a screener for an engagement with two colours and a Spanish message', async () => {
    await page.goto(`${base}/sponsors/view/${sponsorId}`);
    await page.getByRole('link', { name: 'Add Screener' }).click();
    await page.waitForURL(`${base}/screeners/add/${sponsorId}`);
    await page.getByLabel('Title', { exact: true }).fill(screenerTitle);
    await page.getByRole('group', { name: 'Engagements' }).getByLabel(engagementName).check();
    await page.getByRole('group', { name: 'Additional Languages' }).getByLabel('Spanish (es)').check();
    await page.getByLabel('Next Button Active', { exact: true }).fill('1a2b3c');
    await page.getByLabel('Progress Bar Color', { exact: true }).fill('00');
    await page.getByLabel('Qualified Consent Message', { exact: true }).fill('You qualify');
    await page.getByLabel('Qualified Consent Message (Spanish)', { exact: true }).fill('Usted califica');
    await page.getByRole('button', { name: 'Save' }).click();

    await page.waitForURL(/\/screeners\/view\/\d+$/);
    screenerId = page.url().split('/').pop() ?? '';
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: sponsorName }).waitFor();
    await page.getByRole('link', { name: engagementName }).waitFor();
    const saved = (await api(`screeners/${screenerId}`)).data.attributes;
    expect(saved).toMatchObject({ title: screenerTitle, sponsorId: Number(sponsorId) });
    expect(saved.engagements.map((e: { name: string }) => e.name)).toEqual([engagementName]);
    expect(saved.styles.nextButton.active).toBe('1A2B3C');
    expect(saved.styles.progressBar).toEqual({ background: 'CCCCCC', color: '00' });
    expect(saved.messages.qualified).toEqual({
      consentMessage: 'You qualify',
      contactFormMessage: null,
      translations: { es: { consentMessage: 'Usted califica' } },
    });
  });

  it('attaches three contact fields and reorders them with the arrows and by dragging', async () => {
    const attach = page.getByLabel('Contact field to attach', { exact: true });
    for (const label of fieldLabels) {
      await attach.selectOption({ label: `${label} (e2e_${stamp.toLowerCase()}_${fieldLabels.indexOf(label)})` });
      await page.getByRole('button', { name: 'Attach', exact: true }).click();
      await page
        .getByRole('status')
        .filter({ hasText: `Attached ${label}` })
        .waitFor();
    }
    expect(await order()).toEqual(fieldLabels);

    await page.getByRole('button', { name: `Move ${fieldLabels[2]} up` }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Moved ${fieldLabels[2]} to position 2.` })
      .waitFor();
    expect(await order()).toEqual([fieldLabels[0], fieldLabels[2], fieldLabels[1]]);

    const list = page.getByRole('list', { name: 'Contact field order' });
    await list
      .getByRole('listitem')
      .filter({ hasText: fieldLabels[0]! })
      .dragTo(list.getByRole('listitem').filter({ hasText: fieldLabels[1]! }));
    await page
      .getByRole('status')
      .filter({ hasText: `Moved ${fieldLabels[0]} to position 3.` })
      .waitFor();
    expect(await order()).toEqual([fieldLabels[2], fieldLabels[1], fieldLabels[0]]);
    // The order survives a reload.
    await page.reload();
    await expect
      .poll(async () => (await list.getByRole('listitem').allTextContents()).map((t) => fieldLabels.find((l) => t.includes(l))))
      .toEqual([fieldLabels[2], fieldLabels[1], fieldLabels[0]]);
  });

  it('associates surveys picked by title and draws them as a flow of 200 px nodes', async () => {
    await page.getByRole('link', { name: 'Associate Surveys' }).click();
    await page.waitForURL(`${base}/screeners/associate-surveys/${screenerId}`);
    for (const title of surveyTitles) {
      await pickSurvey(page, 'Survey', title.split(' ')[0]!, `${title} (version 1, not approved)`);
      await page.getByRole('button', { name: 'Add Survey' }).click();
      await page.getByRole('button', { name: `Remove ${title} (version 1, not approved)` }).waitFor();
    }
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Done' }).click();
    await page.waitForURL(`${base}/screeners/view/${screenerId}`);
    const nodes = page.locator('.react-flow__node');
    await expect.poll(() => nodes.count()).toBe(2);
    expect((await nodes.first().boundingBox())?.width).toBeCloseTo(
      200 *
        (await page.evaluate(() => {
          const vp = document.querySelector<HTMLElement>('.react-flow__viewport');
          return vp ? new DOMMatrixReadOnly(getComputedStyle(vp).transform).a : 1;
        })),
      0,
    );
    // Named by title alone: the identity is shown nowhere.
    expect(await page.locator('main').innerText()).not.toContain(surveyIdentities[0]!);
    await page.getByRole('button', { name: `Deactivate ${surveyTitles[0]} (version 1, not approved)` }).click();
    await page.getByRole('button', { name: `Activate ${surveyTitles[0]} (version 1, not approved)` }).waitFor();
    const surveys = await api(`screener-surveys?screenerId=${screenerId}`);
    expect(
      surveys.data.map((s: { attributes: { oFormIdentity: string; isActive: boolean } }) => [s.attributes.oFormIdentity, s.attributes.isActive]).sort(),
    ).toEqual(
      [
        [surveyIdentities[1], true],
        [surveyIdentities[0], false],
      ].sort(),
    );
  });

  it('creates a media channel and copies its embed snippet', async () => {
    await page.getByRole('link', { name: 'Add Media Channel' }).click();
    await page.waitForURL(`${base}/media-channels/add/${screenerId}`);
    await page.getByLabel('Title', { exact: true }).fill(`E2E Channel ${stamp}`);
    await page.getByLabel('Domain', { exact: true }).fill('https://partner.example');
    await page.getByLabel('Type', { exact: true }).selectOption('Partner Website');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(HOST_NAME_INVALID).waitFor();
    await page.getByLabel('Domain', { exact: true }).fill('www.partner.example');
    await page.getByRole('button', { name: 'Save' }).click();

    await page.waitForURL(/\/media-channels\/view\/\d+$/);
    const channelId = page.url().split('/').pop() ?? '';
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    await crumbs.getByRole('link', { name: sponsorName }).waitFor();
    await crumbs.getByRole('link', { name: screenerTitle }).waitFor();

    const expected = `<div data-trial-widget style="display:block;min-height:26em"></div><script async src="${base}/widget.js" data-media-channel-id="${channelId}" data-screener-id="${screenerId}"></script>`;
    expect(await page.getByLabel('Embed snippet', { exact: true }).inputValue()).toBe(expected);
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(expected);
  });
});
