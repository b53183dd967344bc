/**
 * Stored XSS, admin side (issue 9, (e)): staff-authored texts carrying script payloads — a
 * sponsor's and an engagement's name, a screener's title and its messages, a generic message, a
 * survey's, a page's and a question's title and helper text, a media channel's title — shown in
 * the admin's lists, views and edit screens (and the channel's participant preview, which mounts
 * the widget) in Chromium: no payload runs, no dialog opens, nothing is refused by the CSP
 * because nothing reached the DOM as markup, and names show as the literal text typed.
 *
 * The widget's own case (messages shown to participants) plugs in with the same probes:
 * `watchXss(page)` before navigating, then `expect(await xssFindings(page, watch)).toEqual(NO_FINDINGS)`
 * (tests/e2e/xss.ts).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './browser';
import { adminApiOn, signInAsAdmin } from './admin-session';
import { pickSurvey } from './surveyPicker';
import { fullPayload, NO_FINDINGS, shortPayload, watchXss, xssFindings, type XssWatch } from './xss';

const base = inject('baseUrl');
const stamp = `XSS${Date.now().toString(36).toUpperCase()}`;
let browser: Browser;
let page: Page;
let watch: XssWatch;
const { api, post, signIn } = adminApiOn(base);
const send = async (method: string, path: string, type: string, attributes: Record<string, unknown>, id?: string) => {
  const doc = await api(path, { method, body: JSON.stringify({ data: { type, ...(id ? { id } : {}), attributes } }) });
  if (!doc.data) throw new Error(`${method} ${path}: ${JSON.stringify(doc)}`);
  return doc.data as { id: string; attributes: Record<string, unknown>; relationships?: Record<string, { data: { id: string }[] }> };
};

const name = (what: string) => `${stamp} ${what} ${shortPayload(what)}`;
const ids: Record<string, string> = {};
let generic: { id: string; message: string } | null = null;

beforeAll(async () => {
  await signIn();
  ids.sponsor = (await send('POST', 'sponsors', 'sponsors', { name: name('sponsor'), identification: stamp })).id;
  ids.engagement = (
    await send('POST', 'engagements', 'engagements', { name: name('engagement'), identification: `${stamp}-E`, sponsorId: Number(ids.sponsor) })
  ).id;
  const message = (key: string) => ({ consentMessage: fullPayload(`${key}-consent`), contactFormMessage: fullPayload(`${key}-form`) });
  ids.screener = (
    await send('POST', 'screeners', 'screeners', {
      title: name('screener'),
      description: fullPayload('screener-description'),
      sponsorId: Number(ids.sponsor),
      messages: { qualified: message('qualified'), notQualified: message('not-qualified') },
    })
  ).id;
  await post(`engagements-screeners/update/${ids.screener}`, 'engagements-screeners', { engagementIds: [Number(ids.engagement)] });
  const form = await send('POST', 'o-forms/o-forms', 'o-forms', { title: name('survey'), engagementId: Number(ids.engagement) });
  ids.form = form.id;
  ids.identity = String(form.attributes.identity);
  const read = await api(`o-forms/o-forms/${ids.form}`);
  ids.page = read.data.relationships.oFormContainers.data[0].id;
  await send('PATCH', `o-forms/o-form-containers/${ids.page}`, 'o-form-containers', { title: name('page') }, ids.page);
  await send('POST', 'o-forms/o-form-fields', 'o-form-fields', {
    containerId: Number(ids.page),
    oFormFieldTypeId: 'text',
    title: name('question'),
    configuration: { helperText: fullPayload('helper') },
  });
  await send('POST', 'screener-surveys', 'screener-surveys', { screenerId: Number(ids.screener), oFormIdentity: form.attributes.identity });
  ids.channel = (
    await send('POST', 'media-channels', 'media-channels', {
      title: name('channel'),
      domain: 'xss.example',
      channelType: 'Partner Website',
      screenerId: Number(ids.screener),
    })
  ).id;
  await send('POST', 'media-channel-surveys', 'media-channel-surveys', { mediaChannelId: Number(ids.channel), oFormIdentity: form.attributes.identity });
  // A generic message is shared by the whole server: changed for this test and put back after.
  const list = await api('generic-messages?sort=keyName');
  const first = list.data?.[0] as { id: string; attributes: { message: string } } | undefined;
  if (!first) throw new Error(`no generic message: ${JSON.stringify(list)}`);
  generic = { id: first.id, message: first.attributes.message };
  await send('PATCH', `generic-messages/${generic.id}`, 'generic-messages', { message: `${stamp} ${fullPayload('generic')}` }, generic.id);

  browser = await launchBrowser();
  page = await (await browser.newContext()).newPage();
  watch = watchXss(page);
  await signInAsAdmin(page, base);
});

afterAll(async () => {
  if (generic) await send('PATCH', `generic-messages/${generic.id}`, 'generic-messages', { message: generic.message }, generic.id).catch(() => undefined);
  await browser?.close();
});

/** Opens `path`, waits for `marker` to show, and answers what of the page ran or could run. */
async function visit(path: string, marker: string) {
  await page.goto(`${base}${path}`);
  await page.getByText(marker).first().waitFor({ timeout: 15_000 });
  // Image errors and toggles fire asynchronously: let them, had they a chance.
  await page.waitForTimeout(300);
  return xssFindings(page, watch);
}

const text = () => page.evaluate(() => document.body.innerText);

describe('the probes', () => {
  it('catch a payload that runs and markup that could (so a clean page means something)', async () => {
    const probe = await browser.newPage();
    const seen = watchXss(probe);
    await probe.setContent(`<div>${fullPayload('planted')}</div>`);
    await probe.waitForTimeout(300);
    const found = await xssFindings(probe, seen);
    await probe.close();
    expect(found.ran).toEqual(expect.arrayContaining(['planted-img', 'planted-script']));
    expect(found.dialogs.length).toBeGreaterThan(0);
    expect(found.markup).toEqual(expect.arrayContaining(['<img onerror>', '<svg onload>']));
    expect(found.markup.some((m) => m.startsWith('<a href="javascript:'))).toBe(true);
  });
});

describe('stored XSS in the admin', () => {
  it.each([
    ['the sponsors list', () => `/sponsors?searchQuery=${stamp}`, () => `${stamp} sponsor`],
    ["the sponsor's view", () => `/sponsors/view/${ids.sponsor}`, () => `${stamp} sponsor`],
    ["the engagement's view", () => `/engagements/view/${ids.engagement}`, () => `${stamp} engagement`],
    ['the screeners list', () => `/screeners?searchQuery=${stamp}`, () => `${stamp} screener`],
    ["the screener's view (messages)", () => `/screeners/view/${ids.screener}`, () => `${stamp} screener`],
    ["the screener's edit form", () => `/screeners/edit/${ids.screener}`, () => 'Title'],
    ['the versioned surveys list', () => `/surveys-new?searchQuery=${stamp}`, () => `${stamp} survey`],
    ["the survey's view (pages, questions)", () => `/surveys-new/view/${ids.form}`, () => `${stamp} question`],
    ["the survey's builder", () => `/surveys-new/edit/${ids.form}`, () => `${stamp} page`],
    ["the media channel's view", () => `/media-channels/view/${ids.channel}`, () => `${stamp} channel`],
    ['the generic messages list', () => `/generic-messages?searchQuery=${stamp}`, () => stamp],
    ["the generic message's edit form", () => `/generic-messages/edit/${generic!.id}`, () => 'Message'],
  ])('runs nothing in %s', async (_where, path, marker) => {
    expect(await visit(path(), marker())).toEqual(NO_FINDINGS);
  });

  it('shows names as the literal text typed', async () => {
    await visit(`/sponsors/view/${ids.sponsor}`, `${stamp} sponsor`);
    expect(await text()).toContain(name('sponsor'));
    await visit(`/surveys-new/view/${ids.form}`, `${stamp} question`);
    expect(await text()).toContain(name('question'));
  });

  it("runs nothing in the channel's participant preview (the widget, mounted in the admin)", async () => {
    await visit(`/media-channels/view/${ids.channel}`, `${stamp} channel`);
    await pickSurvey(page, 'Survey', stamp);
    await page.getByLabel('Version', { exact: true }).selectOption(ids.form!);
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    await page.getByText(`${stamp} question`).first().waitFor({ timeout: 15_000 });
    await page.waitForTimeout(300);
    expect(await xssFindings(page, watch)).toEqual(NO_FINDINGS);
  });

  it("runs nothing in the screener's clone confirmation, whose message is HTML", async () => {
    await visit(`/screeners/view/${ids.screener}`, `${stamp} screener`);
    await page.getByRole('button', { name: /clone/i }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await page.waitForTimeout(300);
    expect(await xssFindings(page, watch)).toEqual(NO_FINDINGS);
    await dialog.getByRole('button', { name: /cancel/i }).click();
  });
});
