/**
 * The recruitment funnel on the real server and database, from a scripted set of participants
 * driven through the participant API (views, pages, qualification, sites, contact, delivery to
 * a real local record system and its signed callback): exact stage counts for every grouping
 * and filter, the 400s, CSV, and the sponsor scope.
 *
 * Sponsor A's channel, on three days over two weeks:
 *   day 1 (Tue 2031-05-06)  a view without a start or source; P1 answers page 1 and leaves on
 *                           page 2; P2 is disqualified (both from the newsletter)
 *   day 2 (Wed 2031-05-07)  P3, in Spanish, qualifies but finds no site (newsletter, read from the page address)
 *   day 3 (Tue 2031-05-13)  P4 and P5 complete with contacts at the site (facebook); P4 is
 *                           delivered, then screened and randomized through the callback
 * Sponsor B: P6 completes with a contact on day 2 (an engagement without a record system).
 *
 * Hidden fields: both channels declare `partner`, B's also `region`. P1 and P2 carry partner
 * acme, P3 a value a spreadsheet would run (=cmd), P4 beta, P5 none; P6 acme and region north.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createHarness, json, type Harness } from '../harness';
import {
  answerPage,
  createParticipantFixture,
  type ParticipantFixture,
  runQualified,
  sendReferralsTo,
  startSubmission,
  TOKEN_HEADER,
} from '../../support/participantFixture';
import { contactLeft } from '../participantServer';
import { parseCsv } from '../../support/csv';
import { mediaChannels, oFormSubmissions } from '../../../server/db/schema';
import { rowsOf } from '../../../server/db/rows';
import { settleDeliveries } from '../../../server/rms/worker';
import { recountNextRange, startFunnelRecountJob, uncountedDays } from '../../../server/funnel/recount';
import type { Logger } from '../../../server/log';
import { newWebhookSecret, signStandardWebhook } from '../../support/standardWebhooks';
import { FUNNEL_FIGURES, FUNNEL_STAGES, type FunnelCounts } from '@core/model/funnel';
import { COST_FIGURES } from '@core/model/funnelCosts';
import type { Utm } from '@core/model/partnerPage';

const SECRET = newWebhookSecret();
const DAY1 = '2031-05-06T10:00:00.000Z';
const DAY2 = '2031-05-07T15:00:00.000Z';
const DAY3 = '2031-05-13T09:30:00.000Z';
const NEWSLETTER = { utm_source: 'newsletter', utm_campaign: 'may-letter' };
const FACEBOOK = { utm_source: 'facebook', utm_campaign: 'may-ads' };
const FORMULA = '=cmd';

let h: Harness;
let a: ParticipantFixture;
let b: ParticipantFixture;
let superToken: string;
let scopedToken: string;
let server: http.Server;

const withToken = (token: string) => ({ [TOKEN_HEADER]: token });
/** A CSV line's key, label and stage counts, without the cost figures after them. */
const countsOnly = (line: string[]) => line.slice(0, 3 + FUNNEL_FIGURES.length);

/** A view of the channel's survey on the clock's day, as the widget reports it once it is seen. */
async function view(f: ParticipantFixture, options: { language?: string; utm?: Utm } = {}) {
  const res = await h.request('POST', `/api/o-forms/participant-views?mediaChannelId=${f.mediaChannelId}`, {
    body: {
      data: { type: 'participant-views', attributes: { mediaChannelId: f.mediaChannelId, language: options.language ?? null, utm: options.utm ?? null } },
    },
  });
  expect(res.status).toBe(202);
}

/** Dates the submission on the clock's instant (the database stamps it with its own clock). */
async function dated(submissionId: string) {
  await h.db
    .update(oFormSubmissions)
    .set({ created: h.clock() })
    .where(eq(oFormSubmissions.id, Number(submissionId)));
}

async function qualification(submissionId: string, token: string) {
  return (await json(await h.request('GET', `/api/o-forms/o-form-submission-qualification/${submissionId}`, { headers: withToken(token) }))).meta;
}

/** Qualified, the site found and chosen, the contact left; answers the contact's id once its delivery settled. */
async function completeWithContact(f: ParticipantFixture, email: string, utm?: Utm, fields?: Record<string, string>): Promise<number> {
  const { submissionId, token } = await runQualified(h, f, { utm, fields });
  await dated(submissionId);
  expect((await qualification(submissionId, token)).isQualified).toBe(true);
  const sites = await json(await h.request('GET', `/api/o-forms/o-form-submission-sites/${submissionId}?zip=10001`, { headers: withToken(token) }));
  expect(sites.data).toHaveLength(1);
  expect((await h.request('GET', `/api/o-forms/o-form-submission-contact-fields/${submissionId}`, { headers: withToken(token) })).status).toBe(200);
  return (await contactLeft(h, f, { submissionId, token }, { first_name: 'Ada', email, phone: '212-555-0100' })).id;
}

async function script() {
  h.clock.set(DAY1);
  await view(a);
  // P1: answers page 1, leaves on page 2.
  await view(a, { utm: NEWSLETTER });
  const p1 = await startSubmission(h, a, { utm: NEWSLETTER, fields: { partner: 'acme' } });
  await dated(p1.submissionId);
  const left = await answerPage(h, p1.token, p1.firstEntryId, { q_choice: 'yes' });
  expect(left.meta.nextContainerIdentity).toBe('p2');
  // P2: disqualified.
  await view(a, { utm: NEWSLETTER });
  const p2 = await startSubmission(h, a, { utm: NEWSLETTER, fields: { partner: 'acme' } });
  await dated(p2.submissionId);
  const p2a = await answerPage(h, p2.token, p2.firstEntryId, { q_choice: 'no' });
  const p2b = await answerPage(h, p2.token, p2a.meta.nextContainerEntryId!, { q_dob: '1980-06-15' });
  await answerPage(h, p2.token, p2b.meta.nextContainerEntryId!, { q_zip: '10001' });
  expect((await qualification(p2.submissionId, p2.token)).outcome).toBe('notQualified');

  h.clock.set(DAY2);
  // P3: Spanish, qualified, no site near.
  await view(a, { language: 'es', utm: NEWSLETTER });
  const p3 = await runQualified(h, a, {
    language: 'es',
    fields: { partner: FORMULA },
    mediaChannelUrl: 'https://partner.example/trial?utm_source=newsletter&utm_campaign=may-letter&email=x@example.com',
  });
  await dated(p3.submissionId);
  expect((await qualification(p3.submissionId, p3.token)).isQualified).toBe(true);
  const far = await json(await h.request('GET', `/api/o-forms/o-form-submission-sites/${p3.submissionId}?zip=08540`, { headers: withToken(p3.token) }));
  expect(far.meta.outcome).toBe('noTrialSites');
  // P6, sponsor B.
  await view(b);
  await completeWithContact(b, 'bea@example.com', undefined, { partner: 'acme', region: 'north' });

  h.clock.set(DAY3);
  await view(a, { utm: FACEBOOK });
  const p4 = await completeWithContact(a, 'ada@example.com', FACEBOOK, { partner: 'beta' });
  await view(a, { utm: FACEBOOK });
  await completeWithContact(a, 'ADA@example.com', FACEBOOK);
  const body = JSON.stringify({ contactId: p4, randomized: true });
  const callback = await h.request('POST', '/api/rms-callback', {
    body,
    headers: { 'Content-Type': 'application/json', ...(await signStandardWebhook(SECRET, 'msg_funnel_1', h.clock().getTime() / 1000, body)) },
  });
  expect(callback.status).toBe(200);
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"accepted":true}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/contacts`;
  h = await createHarness({ FUNNEL_ABANDON_MINUTES: '0' });
  a = await createParticipantFixture(h.db);
  b = await createParticipantFixture(h.db);
  await sendReferralsTo(h.db, a, { name: 'Funnel webhook', endpointUrl: endpoint, signingSecret: h.phi.seal(SECRET) });
  await h.db
    .update(mediaChannels)
    .set({ hiddenFields: [{ name: 'partner', maxLength: 20 }] })
    .where(eq(mediaChannels.id, a.mediaChannelId));
  await h.db
    .update(mediaChannels)
    .set({
      hiddenFields: [
        { name: 'partner', maxLength: 20 },
        { name: 'region', maxLength: 20 },
      ],
    })
    .where(eq(mediaChannels.id, b.mediaChannelId));
  await h.createUser({ username: 'funnel-sponsor-a', password: 'funnel-sponsor-a', roles: ['User'], sponsorIds: [a.sponsorId] });
  await script();
  // Signed in at the script's last instant, where the clock stays.
  superToken = await h.token();
  scopedToken = await h.token('funnel-sponsor-a', 'funnel-sponsor-a');
});

afterAll(async () => {
  await settleDeliveries();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await h.close();
});

type Row = { id: string; type: string; attributes: FunnelCounts & { group: string | null; label: string } };

async function funnel(query: string, token = superToken): Promise<{ rows: Row[]; meta: Record<string, unknown> }> {
  const res = await h.request('GET', `/api/recruitment-funnel${query ? `?${query}` : ''}`, { token });
  expect(res.status, await res.clone().text()).toBe(200);
  const body = await json(res);
  return { rows: body.data, meta: body.meta };
}

/** The counts in stage order, for compact expectations. */
const stages = (row: Row | undefined) => FUNNEL_STAGES.map((s) => row?.attributes[s]);
const byGroup = (rows: Row[]) => Object.fromEntries(rows.map((r) => [r.attributes.group ?? 'null', stages(r)]));

//                  viewed started completed qualified site contactLeft delivered reached screened screenFailed randomized
const A_TOTAL = [6, 5, 4, 3, 2, 2, 2, 1, 1, 0, 1];
const B_TOTAL = [1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0];
const NOTHING = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];

describe('GET /api/recruitment-funnel', () => {
  it('counts each stage once, a later stage never above an earlier one, with the definitions', async () => {
    const { rows, meta } = await funnel(`sponsorId=${a.sponsorId}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ type: 'funnel-rows', attributes: { group: null, label: 'All' } });
    expect(stages(rows[0])).toEqual(A_TOTAL);
    expect(Object.keys(meta.definitions as object)).toEqual([...FUNNEL_FIGURES]);
    const all = await funnel('');
    expect(stages(all.rows[0])).toEqual(A_TOTAL.map((n, i) => n + B_TOTAL[i]!));
  });

  it('groups by engagement, media channel, language, site, day and week', async () => {
    const scoped = `sponsorId=${a.sponsorId}`;
    expect(byGroup((await funnel(`${scoped}&groupBy=engagement`)).rows)).toEqual({ [a.engagementIds[0]]: A_TOTAL });
    const channels = (await funnel('groupBy=mediaChannel')).rows;
    expect(byGroup(channels)).toEqual({ [a.mediaChannelId]: A_TOTAL, [b.mediaChannelId]: B_TOTAL });
    expect(channels.map((r) => r.attributes.label).sort()).toEqual([expect.stringMatching(/^Channel /), expect.stringMatching(/^Channel /)]);
    expect(byGroup((await funnel(`${scoped}&groupBy=language`)).rows)).toEqual({
      en: [5, 4, 3, 2, 2, 2, 2, 1, 1, 0, 1],
      es: [1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0],
    });
    expect(byGroup((await funnel(`${scoped}&groupBy=site`)).rows)).toEqual({
      // A view happens before any site is chosen: not tracked (null) in a site's row, all in the row without one.
      [a.siteLocationId]: [null, 2, 2, 2, 2, 2, 2, 1, 1, 0, 1],
      null: [6, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0],
    });
    const days = (await funnel(`${scoped}&groupBy=day`)).rows;
    expect(days.map((r) => r.attributes.group)).toEqual(['2031-05-06', '2031-05-07', '2031-05-13']);
    expect(byGroup(days)).toEqual({
      '2031-05-06': [3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0],
      '2031-05-07': [1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0],
      '2031-05-13': [2, 2, 2, 2, 2, 2, 2, 1, 1, 0, 1],
    });
    const sources = (await funnel(`${scoped}&groupBy=source`)).rows;
    expect(byGroup(sources)).toEqual({
      newsletter: [3, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0],
      facebook: [2, 2, 2, 2, 2, 2, 2, 1, 1, 0, 1],
      null: [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    });
    expect(sources.map((r) => r.attributes.label)).toEqual(['facebook', 'newsletter', 'No source']);
    expect(byGroup((await funnel(`${scoped}&groupBy=campaign`)).rows)).toEqual({
      'may-letter': [3, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0],
      'may-ads': [2, 2, 2, 2, 2, 2, 2, 1, 1, 0, 1],
      null: [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    });
    const weeks = (await funnel(`${scoped}&groupBy=week`)).rows;
    expect(byGroup(weeks)).toEqual({ '2031-05-05': [4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0], '2031-05-12': [2, 2, 2, 2, 2, 2, 2, 1, 1, 0, 1] });
    expect(weeks[0]!.attributes.label).toBe('Week of 2031-05-05');
  });

  it("groups by a hidden field's value from the submissions; views, which carry none, and runs without one go to the row without a value", async () => {
    const { rows, meta } = await funnel(`sponsorId=${a.sponsorId}&groupBy=hiddenField&hiddenField=partner`);
    expect(meta).toMatchObject({ groupBy: 'hiddenField', hiddenField: 'partner' });
    expect(rows.map((r) => r.attributes.label)).toEqual([FORMULA, 'acme', 'beta', 'No value (and every view)']);
    expect(byGroup(rows)).toEqual({
      // Not tracked (null) in a value's row, never a 0 that reads as a page with no traffic.
      acme: [null, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0],
      [FORMULA]: [null, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0],
      beta: [null, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1],
      null: [6, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0],
    });
    // Every sponsor's channels: P6 joins acme; B's view goes without a value.
    expect(byGroup((await funnel('groupBy=hiddenField&hiddenField=partner')).rows)).toMatchObject({
      acme: [null, 3, 2, 1, 1, 1, 1, 0, 0, 0, 0],
      null: [7, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0],
    });
    expect(byGroup((await funnel('groupBy=hiddenField&hiddenField=region')).rows)).toEqual({
      north: B_TOTAL.map((n, i) => (i === 0 ? null : n)),
      null: [7, 5, 4, 3, 2, 2, 2, 1, 1, 0, 1],
    });
    // With the other filters, as any grouping.
    expect(byGroup((await funnel(`sponsorId=${a.sponsorId}&from=2031-05-13&groupBy=hiddenField&hiddenField=partner`)).rows)).toEqual({
      beta: [null, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1],
      null: [2, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0],
    });
  });

  it('filters by engagement, screener, channel, survey, site and dates (inclusive)', async () => {
    expect(stages((await funnel(`engagementId=${a.engagementIds[0]}`)).rows[0])).toEqual(A_TOTAL);
    expect(stages((await funnel(`engagementId=${a.engagementIds[1]}`)).rows[0])).toEqual(NOTHING);
    expect(stages((await funnel(`screenerId=${a.screenerId}`)).rows[0])).toEqual(A_TOTAL);
    expect(stages((await funnel(`mediaChannelId=${b.mediaChannelId}`)).rows[0])).toEqual(B_TOTAL);
    expect(stages((await funnel(`oFormIdentity=${a.oFormIdentity}`)).rows[0])).toEqual(A_TOTAL);
    expect(stages((await funnel(`siteLocationId=${a.siteLocationId}`)).rows[0])).toEqual([0, 2, 2, 2, 2, 2, 2, 1, 1, 0, 1]);
    expect(stages((await funnel(`sponsorId=${a.sponsorId}&from=2031-05-07&to=2031-05-13`)).rows[0])).toEqual([3, 3, 3, 3, 2, 2, 2, 1, 1, 0, 1]);
    expect(stages((await funnel(`sponsorId=${a.sponsorId}&to=2031-05-06`)).rows[0])).toEqual([3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(stages((await funnel(`sponsorId=${a.sponsorId}&from=2031-05-14`)).rows[0])).toEqual(NOTHING);
  });

  it("shows a sponsor's staff only their sponsors' rows", async () => {
    expect(stages((await funnel('', scopedToken)).rows[0])).toEqual(A_TOTAL);
    expect(byGroup((await funnel('groupBy=mediaChannel', scopedToken)).rows)).toEqual({ [a.mediaChannelId]: A_TOTAL });
    expect(stages((await funnel(`sponsorId=${b.sponsorId}`, scopedToken)).rows[0])).toEqual(NOTHING);
    expect(stages((await funnel(`mediaChannelId=${b.mediaChannelId}`, scopedToken)).rows[0])).toEqual(NOTHING);
    expect((await h.request('GET', '/api/recruitment-funnel')).status).toBe(401);
    // A hidden field only another sponsor's channel declares is not theirs to group by.
    const res = await h.request('GET', '/api/recruitment-funnel?groupBy=hiddenField&hiddenField=region', { token: scopedToken });
    expect(res.status).toBe(400);
    expect((await json(res)).errors[0]).toMatchObject({
      source: { parameter: 'hiddenField' },
      detail: "No media channel in scope declares the hidden field 'region'.",
    });
    expect(byGroup((await funnel('groupBy=hiddenField&hiddenField=partner', scopedToken)).rows)).toMatchObject({ acme: [null, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0] });
  });

  it('refuses unknown filters, groupings and unreadable values with a 400 naming them', async () => {
    for (const [query, parameter] of [
      ['channel=1', 'channel'],
      ['groupBy=country', 'groupBy'],
      ['engagementId=abc', 'engagementId'],
      ['from=2031-02-30', 'from'],
      ['from=2031-05-10&to=2031-05-01', 'from'],
      ['oFormIdentity=a%20b', 'oFormIdentity'],
      ['groupBy=day&groupBy=week', 'groupBy'],
      // A hidden field's grouping without its name, with an empty or malformed one, a name with
      // another grouping, or one no channel declares.
      ['groupBy=hiddenField', 'hiddenField'],
      ['groupBy=hiddenField&hiddenField=', 'hiddenField'],
      ['groupBy=hiddenField&hiddenField=Partner%20Ref', 'hiddenField'],
      ['groupBy=source&hiddenField=partner', 'hiddenField'],
      ['hiddenField=partner', 'hiddenField'],
      ['groupBy=hiddenField&hiddenField=nowhere', 'hiddenField'],
      // Declared, but not by a channel within the filters.
      [`mediaChannelId=${a.mediaChannelId}&groupBy=hiddenField&hiddenField=region`, 'hiddenField'],
      [`sponsorId=${a.sponsorId}&groupBy=hiddenField&hiddenField=region`, 'hiddenField'],
    ] as const) {
      const res = await h.request('GET', `/api/recruitment-funnel?${query}`, { token: superToken });
      expect(res.status, query).toBe(400);
      expect((await json(res)).errors[0].source).toEqual({ parameter });
    }
  });

  it("reports in the survey's metrics CSV the participant who left on page 2", async () => {
    const res = await h.request('GET', `/api/export-survey-metrics/${a.oFormId}`, { token: superToken });
    expect(res.status).toBe(200);
    expect(parseCsv(await res.text())).toEqual([
      ['page', 'title', 'views', 'completions', 'drop_off', 'median_seconds', 'p90_seconds'],
      ['1', 'Page 1', '5', '5', '0', '', ''],
      ['2', 'Page 2', '5', '4', '1', '', ''],
      ['3', 'Page 3', '4', '4', '0', '', ''],
    ]);
  });

  it('answers CSV with Accept: text/csv, one line per group', async () => {
    const res = await h.request('GET', `/api/recruitment-funnel?sponsorId=${a.sponsorId}&groupBy=day`, { token: superToken, headers: { Accept: 'text/csv' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const [header, ...lines] = parseCsv(await res.text());
    // The cost figures (funnel/costs.test.ts) are empty by day: spend is not told by day.
    expect(header).toEqual(['id', 'group', 'label', ...FUNNEL_FIGURES, 'spend', ...Object.keys(COST_FIGURES)]);
    expect(lines.every((l) => l.slice(header!.indexOf('spend')).every((cell) => cell === ''))).toBe(true);
    expect(lines.map(countsOnly)).toEqual([
      ['2031-05-06', '2031-05-06', '2031-05-06', '3', '2', '1', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0'],
      ['2031-05-07', '2031-05-07', '2031-05-07', '1', '1', '1', '1', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0'],
      ['2031-05-13', '2031-05-13', '2031-05-13', '2', '2', '2', '2', '2', '2', '2', '1', '1', '0', '1', '0', '0', '0', '0'],
    ]);
    // A hidden field's values are the partner page's text: a formula is written as text.
    const byField = await h.request('GET', `/api/recruitment-funnel?sponsorId=${a.sponsorId}&groupBy=hiddenField&hiddenField=partner`, {
      token: superToken,
      headers: { Accept: 'text/csv' },
    });
    expect(byField.status).toBe(200);
    expect(
      parseCsv(await byField.text())
        .slice(1)
        .map(countsOnly),
    ).toEqual([
      // Views are not tracked by hidden field: an empty cell, not a 0 that reads as no traffic.
      [`'${FORMULA}`, `'${FORMULA}`, `'${FORMULA}`, '', '1', '1', '1', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0'],
      ['acme', 'acme', 'acme', '', '2', '1', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0'],
      ['beta', 'beta', 'beta', '', '1', '1', '1', '1', '1', '1', '1', '1', '0', '1', '0', '0', '0', '0'],
      ["'-", '', 'No value (and every view)', '6', '1', '1', '1', '1', '1', '1', '0', '0', '0', '0', '0', '0', '0', '0'],
    ]);
  });
});

describe('figures agree', () => {
  /** The funnel row of a filter, by stage. */
  const totals = async (query: string, token = superToken) => (await funnel(query, token)).rows[0]!.attributes;

  it('the sponsors list, the referral counts, the media channel figures and the funnel count the same, for every scope', async () => {
    for (const [f, token] of [
      [a, superToken],
      [b, superToken],
      [a, scopedToken],
    ] as const) {
      const funnelOfSponsor = await totals(`sponsorId=${f.sponsorId}`, token);
      const sponsor = (await json(await h.request('GET', `/api/sponsors/${f.sponsorId}`, { token }))).data.attributes;
      expect({ referrals: sponsor.totalReferrals, screened: sponsor.totalScreenedReferrals, randomized: sponsor.totalRandomizedReferrals }).toEqual({
        referrals: funnelOfSponsor.delivered,
        screened: funnelOfSponsor.screened,
        randomized: funnelOfSponsor.randomized,
      });

      for (const engagementId of f.engagementIds) {
        const funnelOfEngagement = await totals(`engagementId=${engagementId}`, token);
        const counts = (await json(await h.request('GET', `/api/referrals/counts/${engagementId}`, { token }))).data.attributes;
        expect({ total: counts.total, screened: counts.screened, randomized: counts.randomized }).toEqual({
          total: funnelOfEngagement.delivered,
          screened: funnelOfEngagement.screened,
          randomized: funnelOfEngagement.randomized,
        });
      }

      const funnelOfChannel = await totals(`mediaChannelId=${f.mediaChannelId}`, token);
      const channel = (await json(await h.request('GET', `/api/media-channels/${f.mediaChannelId}`, { token }))).data.attributes;
      // The channel's "completed" is a run that left its contact, duplicates included: the funnel's
      // siteSelected runs that went on to a contact (no duplicates here; duplicateReferrals.test.ts
      // states the difference: contactLeft leaves them out).
      expect({
        views: channel.views,
        started: channel.submissionsStarted,
        qualified: channel.submissionsQualified,
        completed: channel.submissionsCompleted,
      }).toEqual({
        views: funnelOfChannel.viewed,
        started: funnelOfChannel.started,
        qualified: funnelOfChannel.qualified,
        completed: funnelOfChannel.contactLeft,
      });
    }
    // What these figures say for sponsor A, so agreement is not agreement on nothing.
    expect((await totals(`sponsorId=${a.sponsorId}`)).delivered).toBe(2);
    expect((await totals(`sponsorId=${a.sponsorId}`)).randomized).toBe(1);
  });
});

describe('the daily rollup', () => {
  const sum = (rows: Row[]) => FUNNEL_STAGES.map((s) => rows.reduce((n, r) => n + r.attributes[s], 0));
  const dirty = async () => Number(rowsOf(await h.db.execute(sql`select count(*)::int as n from funnel_dirty`))[0]!.n);

  it('follows a write made behind the API after it was read, and agrees with the count over the submissions', async () => {
    const scoped = `sponsorId=${a.sponsorId}`;
    // By day from the rollup; by source (which it does not keep) from the submissions.
    expect(sum((await funnel(`${scoped}&groupBy=day`)).rows)).toEqual(A_TOTAL);
    expect(sum((await funnel(`${scoped}&groupBy=source`)).rows)).toEqual(A_TOTAL);
    expect(await dirty()).toBe(0);
    expect(Number(rowsOf(await h.db.execute(sql`select count(*)::int as n from funnel_day_counts`))[0]!.n)).toBeGreaterThan(0);

    // The record system takes back its screening, as a direct write would: the trigger marks the
    // bucket, and the next read recomputes it.
    const screened = rowsOf(await h.db.execute(sql`select contact_id from referrals where is_screened`)).map((r) => Number(r.contact_id));
    expect(screened).toHaveLength(1);
    await h.db.execute(sql`update referrals set is_screened = false, is_randomized = false where contact_id = ${screened[0]}`);
    expect(await dirty()).toBeGreaterThan(0);
    // Its site had reached the person: that stays.
    const withdrawn = [...A_TOTAL.slice(0, 8), 0, 0, 0];
    expect(stages((await funnel(scoped)).rows[0])).toEqual(withdrawn);
    expect(sum((await funnel(`${scoped}&groupBy=source`)).rows)).toEqual(withdrawn);
    expect(sum((await funnel(`${scoped}&groupBy=hiddenField&hiddenField=partner`)).rows)).toEqual(withdrawn);
    expect(await dirty()).toBe(0);

    await h.db.execute(sql`update referrals set is_screened = true, is_randomized = true where contact_id = ${screened[0]}`);
    expect(stages((await funnel(scoped)).rows[0])).toEqual(A_TOTAL);
  });

  it('counts the days an installation had before the rollup in a job, range by range, with the figures right throughout', async () => {
    const everyView = async () => {
      const out: Record<string, unknown> = {};
      for (const query of [
        '',
        `sponsorId=${a.sponsorId}&groupBy=day`,
        'groupBy=week',
        'groupBy=engagement',
        `mediaChannelId=${a.mediaChannelId}&groupBy=mediaChannel`,
        'from=2031-05-07&to=2031-05-13',
      ]) {
        out[query] = byGroup((await funnel(query)).rows);
      }
      return out;
    };
    const counted = await everyView();
    const rollupRows = async () => rowsOf(await h.db.execute(sql`select * from funnel_day_counts order by day, o_form_id, media_channel_id`));
    const rollup = await rollupRows();

    // An installation whose rollup was never counted, as migration 0022 finds it: every bucket
    // marked (0020), no counts. The migration hands the days to the job and drops their marks.
    await h.db.execute(sql`delete from funnel_day_counts`);
    await h.db.execute(
      sql`insert into funnel_dirty (day, o_form_id) select distinct (created at time zone 'UTC')::date, o_form_id from o_form_submissions on conflict do nothing`,
    );
    const file = fs.readFileSync(path.join(__dirname, '../../../server/db/migrations/0022_funnel_recount.sql'), 'utf8');
    const statements = file
      .split('--> statement-breakpoint')
      .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
      .filter((s) => !s.startsWith('CREATE'));
    expect(statements).toHaveLength(2);
    for (const statement of statements) await h.db.execute(sql.raw(statement));
    expect(await uncountedDays(h.db)).toEqual({ firstDay: '2031-05-06', lastDay: '2031-05-13' });
    expect(await dirty()).toBe(0);

    // Reads count the days not counted yet from the submissions: the same figures, and no recount.
    expect(await everyView()).toEqual(counted);
    expect(await rollupRows()).toEqual([]);
    // One range of the latest day (a day is counted whole); the figures mix the rollup and the rest.
    expect(await recountNextRange(h.db, 1)).toEqual({ firstDay: '2031-05-13', lastDay: '2031-05-13', left: { firstDay: '2031-05-06', lastDay: '2031-05-12' } });
    expect(await everyView()).toEqual(counted);
    // A write on a day not counted yet: its mark is recounted by the next read as any other.
    const screened = rowsOf(await h.db.execute(sql`select contact_id from referrals where is_screened`)).map((r) => Number(r.contact_id));
    await h.db.execute(sql`update referrals set is_screened = false, is_randomized = false where contact_id = ${screened[0]}`);
    expect(stages((await funnel(`sponsorId=${a.sponsorId}`)).rows[0])).toEqual([...A_TOTAL.slice(0, 8), 0, 0, 0]);
    await h.db.execute(sql`update referrals set is_screened = true, is_randomized = true where contact_id = ${screened[0]}`);

    // Two server processes' jobs at once: each range is counted by one of them, nothing twice.
    const lines: string[] = [];
    const log = { debug: () => {}, info: (msg: string) => lines.push(msg), warn: () => {}, error: (msg: string) => lines.push(msg) } as Logger;
    const jobs = [startFunnelRecountJob({ db: h.db, log, rangeSubmissions: 1 }), startFunnelRecountJob({ db: h.db, log, rangeSubmissions: 1 })];
    await Promise.all(jobs.map((job) => job.done));
    expect(await uncountedDays(h.db)).toBeNull();
    expect(lines).toContain('funnel: rollup counted');
    expect(lines).not.toContain('funnel: counting the rollup failed');
    expect(await everyView()).toEqual(counted);
    expect(await rollupRows()).toEqual(rollup);
    // Nothing left: a job at the next start reads one empty table and ends.
    const lines2: string[] = [];
    await startFunnelRecountJob({ db: h.db, log: { ...log, info: (msg: string) => lines2.push(msg) } }).done;
    expect(lines2).toEqual([]);
  });
});
