/**
 * What a back-office user expects, in the real admin bundle in Chromium: a changed form asks
 * before it is left (a link, and a reload), lists export their whole filtered list as CSV,
 * filters survive a reload, hidden columns are remembered, a bulk deactivation reports the row
 * that failed and can be undone, a view screen's History shows an edit, toasts never move the
 * page, and axe finds no serious or critical violation on the screens these touch.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { adminToken, apiCaller, openAdminBrowser, postResource } from './admin-session';
import { axeViolations } from './axe';
import { parseCsv } from '../support/csv';

const base = inject('baseUrl');
const stamp = Date.now().toString(36).toUpperCase();
const WAIT = { timeout: 15_000 };

let browser: Browser;
let page: Page;
let token: string;
const api = apiCaller(base, () => token);
const ids = { activeSponsor: '', inactiveSponsor: '', otherInactive: '', phaseTwo: '', phaseThree: '', languages: [] as string[] };

async function create(path: string, type: string, attributes: Record<string, unknown>): Promise<string> {
  const doc = await postResource(api, path, type, attributes);
  if (!doc.data) throw new Error(`${path}: ${JSON.stringify(doc)}`);
  return doc.data.id as string;
}

async function exportCsv(): Promise<{ filename: string; rows: string[][] }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  const file = await download.path();
  return { filename: download.suggestedFilename(), rows: parseCsv(fs.readFileSync(file, 'utf8')) };
}

beforeAll(async () => {
  token = await adminToken(base);
  ids.activeSponsor = await create('sponsors', 'sponsors', { name: `E2E Office Active ${stamp}`, identification: `OFA-${stamp}` });
  ids.inactiveSponsor = await create('sponsors', 'sponsors', { name: `=E2E Office Formula ${stamp}`, identification: `OFI-${stamp}`, isActive: false });
  ids.otherInactive = await create('sponsors', 'sponsors', { name: `E2E Office Dormant ${stamp}`, identification: `OFD-${stamp}`, isActive: false });
  const sponsorId = Number(ids.activeSponsor);
  ids.phaseTwo = await create('engagements', 'engagements', { name: `E2E Office Study II ${stamp}`, identification: `S2-${stamp}`, sponsorId, phase: 'II' });
  ids.phaseThree = await create('engagements', 'engagements', {
    name: `E2E Office Study III ${stamp}`,
    identification: `S3-${stamp}`,
    sponsorId,
    phase: 'III',
  });
  for (const letter of ['a', 'b']) {
    ids.languages.push(
      await create('languages', 'languages', {
        name: `Office ${letter}`,
        description: `E2E Office ${letter.toUpperCase()} ${stamp}`,
        isoCode: `q${letter}_${stamp}`,
      }),
    );
  }

  ({ browser, page } = await openAdminBrowser(base, { viewport: { width: 1366, height: 860 }, acceptDownloads: true }));
});
afterAll(async () => {
  // This run's languages would otherwise be offered in every language list of later tests.
  for (const id of ids.languages) {
    await fetch(`${base}/api/languages/${id}`, { method: 'DELETE', headers: { Authorization: `Bearer ${token}` } });
  }
  await browser?.close();
});

const sponsorsTable = () => page.getByRole('table', { name: 'Sponsors' });

describe('unsaved changes', () => {
  it('asks before a changed form is left by a link or a reload, keeps it on Stay, and leaves on Leave', async () => {
    await page.goto(`${base}/sponsors/add`);
    await page.getByLabel('Name').fill(`Half typed ${stamp}`);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Engagements' }).click();
    const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });
    await dialog.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Stay' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(page.url()).toBe(`${base}/sponsors/add`);
    expect(await page.getByLabel('Name').inputValue()).toBe(`Half typed ${stamp}`);

    // A reload gets the browser's own prompt; dismissed, the page and what was typed stay.
    const prompt = page.waitForEvent('dialog');
    await page.evaluate(() => setTimeout(() => window.location.reload(), 0));
    const beforeUnload = await prompt;
    expect(beforeUnload.type()).toBe('beforeunload');
    await beforeUnload.dismiss();
    expect(await page.getByLabel('Name').inputValue()).toBe(`Half typed ${stamp}`);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Engagements' }).click();
    await dialog.getByRole('button', { name: 'Leave' }).click();
    await page.waitForURL(`${base}/engagements`);
  });
});

describe('lists', () => {
  it('filters by status beside the search, keeps the filter in the address through a reload, and clears it at once', async () => {
    await page.goto(`${base}/sponsors?searchQuery=${stamp}`);
    await sponsorsTable()
      .getByRole('row')
      .filter({ hasText: `E2E Office Active ${stamp}` })
      .waitFor(WAIT);
    await page.getByLabel('Status').selectOption({ label: 'Inactive' });
    await page.waitForURL(/isActive=false/);
    await sponsorsTable()
      .getByRole('row')
      .filter({ hasText: `E2E Office Active ${stamp}` })
      .waitFor({ state: 'detached' });

    await page.reload();
    await sponsorsTable()
      .getByRole('row')
      .filter({ hasText: `E2E Office Dormant ${stamp}` })
      .waitFor(WAIT);
    expect(await page.getByLabel('Status').inputValue()).toBe('false');
    expect(await sponsorsTable().getByRole('row').count()).toBe(3);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('exports the whole filtered sponsors list as CSV with the shown columns, ids and formula escaping; the toast moves nothing', async () => {
    // Still filtered to this run's inactive sponsors.
    const tableTop = (await sponsorsTable().boundingBox())!.y;
    const { filename, rows } = await exportCsv();
    expect(filename).toMatch(/^sponsors-\d{4}-\d{2}-\d{2}\.csv$/);
    // Headed as the screen's columns; a column of several figures names each.
    expect(rows[0]).toEqual([
      'ID',
      'Name',
      'Identification',
      'Country',
      'Active',
      'Modified',
      'Active engagements',
      'Total engagements',
      'Sites',
      'Total referrals',
      'Total screened referrals',
      'Total randomized referrals',
      'Duplicate referrals',
    ]);
    // Both inactive sponsors of this run and nothing else; a name that starts a formula is escaped.
    const data = rows.slice(1).sort((a, b) => Number(a[0]) - Number(b[0]));
    expect(data.map((r) => [r[0], r[1], r[2], r[4]])).toEqual([
      [ids.inactiveSponsor, `'=E2E Office Formula ${stamp}`, `OFI-${stamp}`, 'false'],
      [ids.otherInactive, `E2E Office Dormant ${stamp}`, `OFD-${stamp}`, 'false'],
    ]);
    await page.getByText(`Downloaded ${filename}.`).waitFor();
    expect((await sponsorsTable().boundingBox())!.y).toBe(tableTop);

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.waitForURL(`${base}/sponsors`);
  });

  it('exports engagements filtered by phase, the identification column as shown', async () => {
    await page.goto(`${base}/engagements?searchQuery=${stamp}`);
    await page
      .getByRole('table', { name: 'Engagements' })
      .getByRole('row')
      .filter({ hasText: `E2E Office Study III ${stamp}` })
      .waitFor(WAIT);
    await page.getByLabel('Phase').selectOption('II');
    await page.waitForURL(/phase=II(&|$)/);
    await page
      .getByRole('table', { name: 'Engagements' })
      .getByRole('row')
      .filter({ hasText: `E2E Office Study III ${stamp}` })
      .waitFor({ state: 'detached' });
    const { filename, rows } = await exportCsv();
    expect(filename).toMatch(/^engagements-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(rows[0]).toEqual(['ID', 'Name', 'Identification', 'Sponsor', 'Phase', 'Start Date', 'End Date', 'Active']);
    expect(rows.slice(1)).toEqual([
      [ids.phaseTwo, `E2E Office Study II ${stamp}`, `OFA-${stamp}-S2-${stamp}`, `E2E Office Active ${stamp}`, 'II', '', '', 'true'],
    ]);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('hides a column of a wide list and still hides it after a reload', async () => {
    await page.goto(`${base}/sponsors`);
    await sponsorsTable()
      .getByRole('columnheader', { name: /Identification/ })
      .waitFor(WAIT);
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('checkbox', { name: 'Identification' }).uncheck();
    await sponsorsTable()
      .getByRole('columnheader', { name: /Identification/ })
      .waitFor({ state: 'detached' });
    expect(await axeViolations(page)).toEqual([]);

    await page.reload();
    await sponsorsTable()
      .getByRole('columnheader', { name: /Country/ })
      .waitFor(WAIT);
    expect(
      await sponsorsTable()
        .getByRole('columnheader', { name: /Identification/ })
        .count(),
    ).toBe(0);
    await page.getByRole('button', { name: 'Columns (7/8)' }).click();
    await page.getByRole('checkbox', { name: 'Identification' }).check();
    await sponsorsTable()
      .getByRole('columnheader', { name: /Identification/ })
      .waitFor();
  });

  it('deactivates languages in bulk: the default one is refused with its reason, the others undone from the toast', async () => {
    await page.goto(`${base}/languages`);
    const table = page.getByRole('table', { name: 'Languages' });
    await table
      .getByRole('row')
      .filter({ hasText: `E2E Office A ${stamp}` })
      .waitFor(WAIT);
    for (const name of ['English', `E2E Office A ${stamp}`, `E2E Office B ${stamp}`]) await page.getByRole('checkbox', { name: `Select ${name}` }).check();
    const bar = page.getByRole('region', { name: 'Selected rows' });
    await bar.getByText('3 languages selected').waitFor();
    await bar.getByRole('button', { name: 'Deactivate' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deactivate 3 languages?' });
    await dialog.getByRole('button', { name: 'Deactivate' }).click();

    const report = bar.getByRole('alert');
    await report.getByText('2 languages deactivated; 1 could not be deactivated:').waitFor(WAIT);
    expect(await report.getByRole('listitem').allInnerTexts()).toEqual(['English: The default language is always active.']);
    expect(await axeViolations(page)).toEqual([]);
    const state = async () => (await Promise.all(ids.languages.map((id) => api(`languages/${id}`)))).map((doc) => doc.data.attributes.isActive as boolean);
    expect(await state()).toEqual([false, false]);
    await table
      .getByRole('row')
      .filter({ hasText: `E2E Office A ${stamp}` })
      .getByText('Inactive')
      .waitFor();

    await page.getByRole('status').filter({ hasText: '2 languages deactivated.' }).getByRole('button', { name: 'Undo' }).click();
    await page.getByText('Undone: 2 languages back as they were.').waitFor(WAIT);
    expect(await state()).toEqual([true, true]);
  });
});

describe('history', () => {
  it("shows an edit in the sponsor's History: who, and the old and new name", async () => {
    await page.goto(`${base}/sponsors/edit/${ids.activeSponsor}`);
    await page.getByLabel('Name').fill(`E2E Office Renamed ${stamp}`);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(`${base}/sponsors/view/${ids.activeSponsor}`);
    const panel = page.getByRole('region', { name: 'History' });
    await panel.getByRole('button', { name: 'Show history' }).click();
    const newest = panel.getByRole('listitem').first();
    await newest.getByText('Changed by admin').waitFor(WAIT);
    expect(await newest.innerText()).toContain(`E2E Office Active ${stamp} → E2E Office Renamed ${stamp}`);
    expect(await panel.getByRole('listitem').last().innerText()).toContain('Created by admin');
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe('accessibility of the lists touched', () => {
  it('finds no serious or critical violation on every list with its toolbar and a selection', async () => {
    const screens: [string, string][] = [
      ['/screeners', 'Screeners'],
      ['/surveys-new', 'Versioned Surveys'],
      ['/surveys', 'Surveys'],
      ['/site-locations', 'Site Locations'],
      ['/users', 'Users'],
      ['/contact-fields', 'Contact Fields'],
      ['/generic-messages', 'Generic Messages'],
      ['/rms-audits', 'RMS Audits'],
    ];
    const found: string[] = [];
    for (const [path, caption] of screens) {
      await page.goto(`${base}${path}`);
      const table = page.getByRole('table', { name: caption });
      await table.waitFor(WAIT);
      // Loaded: a loading table is dimmed on purpose.
      await page.locator('table.data-table:not([aria-busy])').waitFor(WAIT);
      await page.getByRole('button', { name: 'Export CSV' }).waitFor();
      const first = table.getByRole('checkbox').nth(1);
      if ((await table.getByRole('row').count()) > 1 && (await first.count()) > 0) await first.check();
      found.push(...(await axeViolations(page)).map((v) => `${path}: ${v}`));
    }
    expect(found).toEqual([]);
  });

  it('finds none on the view screens with their History open, nor on the forms and builders that guard unsaved changes', async () => {
    const first = async (path: string) => {
      const doc = await api(`${path}${path.includes('?') ? '&' : '?'}limit=10`);
      if (!doc.data?.[0]) throw new Error(`no ${path} to open`);
      return doc.data[0].id as string;
    };
    const [engagement, screener, channel, site, form, survey, language] = await Promise.all([
      first('engagements'),
      first('screeners'),
      first('media-channels'),
      first('site-locations'),
      first('o-forms/o-forms'),
      first('surveys').catch(() => null),
      first('languages'),
    ]);
    const views = [
      `/engagements/view/${engagement}`,
      `/screeners/view/${screener}`,
      `/media-channels/view/${channel}`,
      `/site-locations/view/${site}`,
      `/surveys-new/view/${form}`,
      `/languages/view/${language}`,
      ...(survey ? [`/surveys/view/${survey}`] : []),
    ];
    const found: string[] = [];
    for (const path of views) {
      await page.goto(`${base}${path}`);
      const panel = page.getByRole('region', { name: 'History' });
      await panel.getByRole('button', { name: 'Show history' }).click(WAIT);
      await panel.getByRole('listitem').first().or(panel.getByText('No changes recorded yet.')).waitFor(WAIT);
      found.push(...(await axeViolations(page)).map((v) => `${path}: ${v}`));
    }
    const forms = [`/engagements/edit/${engagement}`, `/screeners/edit/${screener}`, `/site-locations/edit/${site}`, `/surveys-new/edit/${form}`, '/users/add'];
    for (const path of forms) {
      await page.goto(`${base}${path}`);
      await page.getByRole('main').getByRole('textbox').first().waitFor(WAIT);
      found.push(...(await axeViolations(page)).map((v) => `${path}: ${v}`));
    }
    expect(found).toEqual([]);
  });
});
