/**
 * The funnel's cost per outcome on the real server and database, against figures worked out by
 * hand. One channel (C1) draws three participants between 2031-06-11 and 2031-06-20: P1 starts
 * (campaign june-ads), P2 qualifies (june-ads), P3 qualifies, is referred and is randomized (no
 * campaign). A second channel of the same screener (C2) spends and draws no one.
 *
 * Spends, and what the range 2031-06-11..20 keeps of each (days of overlap / days of the period):
 *   C1  3000.00 USD  06-01..06-30               10/30 -> 1000.00 USD
 *   C1   600.00 USD  06-11..06-20  june-ads    10/10 ->  600.00 USD
 *   C1   50000 JPY   06-15..06-24                6/10 ->   30000 JPY
 *   C1  1000.00 USD  07-01..07-31               outside the range
 *   C2   900.00 EUR  06-11..06-19                9/9  ->  900.00 EUR
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { doc, json, type Harness } from '../harness';
import { useParticipantServer } from '../participantServer';
import { answerPage, leaveContact, runQualified, startSubmission, TOKEN_HEADER, type ParticipantFixture } from '../../support/participantFixture';
import { parseCsv } from '../../support/csv';
import { contacts, mediaChannels, oFormSubmissions, referrals } from '../../../server/db/schema';
import { settleDeliveries } from '../../../server/rms/worker';

let h: Harness;
let f: ParticipantFixture;
let c2: number;
let token: string;
const JUNE = { utm_source: 'ads', utm_campaign: 'june-ads' };
const RANGE = 'from=2031-06-11&to=2031-06-20';

const withToken = (t: string) => ({ [TOKEN_HEADER]: t });

async function dated(submissionId: string) {
  await h.db
    .update(oFormSubmissions)
    .set({ created: h.clock() })
    .where(eq(oFormSubmissions.id, Number(submissionId)));
}

async function qualify(run: { submissionId: string; token: string }) {
  await dated(run.submissionId);
  const meta = (await json(await h.request('GET', `/api/o-forms/o-form-submission-qualification/${run.submissionId}`, { headers: withToken(run.token) }))).meta;
  expect(meta.isQualified).toBe(true);
}

async function spend(mediaChannelId: number, amountMinor: number, currency: string, periodStart: string, periodEnd: string, campaign: string | null = null) {
  const res = await h.request('POST', '/api/channel-spends', {
    token,
    body: doc('channel-spends', { mediaChannelId, amountMinor, currency, periodStart, periodEnd, campaign }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
}

async function funnel(query: string) {
  const res = await h.request('GET', `/api/recruitment-funnel?sponsorId=${f.sponsorId}&${query}`, { token });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await json(res)).data.map((d: { attributes: Record<string, unknown> }) => d.attributes) as Record<string, any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any
}

useParticipantServer((server) => ({ h, f } = server), { at: '2031-06-12T10:00:00.000Z' });

beforeAll(async () => {
  const [second] = await h.db
    .insert(mediaChannels)
    .values({ title: 'Second channel', domain: 'second.example', screenerId: f.screenerId, channelType: 'Other' })
    .returning();
  c2 = second!.id;
  token = await h.token();

  const p1 = await startSubmission(h, f, { utm: JUNE });
  await dated(p1.submissionId);
  expect((await answerPage(h, p1.token, p1.firstEntryId, { q_choice: 'yes' })).status).toBe(200);
  await qualify(await runQualified(h, f, { utm: JUNE }));
  const p3 = await runQualified(h, f);
  await qualify(p3);
  const sites = await json(await h.request('GET', `/api/o-forms/o-form-submission-sites/${p3.submissionId}?zip=10001`, { headers: withToken(p3.token) }));
  expect(sites.data).toHaveLength(1);
  expect((await leaveContact(h, f, p3, { first_name: 'Ada', email: 'ada.costs@example.org', phone: '212-555-0100' })).status).toBe(201);
  await settleDeliveries();
  const [contact] = await h.db
    .select()
    .from(contacts)
    .where(eq(contacts.submissionId, Number(p3.submissionId)));
  await h.db.update(referrals).set({ isScreened: true, isRandomized: true }).where(eq(referrals.contactId, contact!.id));

  await spend(f.mediaChannelId, 300_000, 'USD', '2031-06-01', '2031-06-30');
  await spend(f.mediaChannelId, 60_000, 'usd', '2031-06-11', '2031-06-20', 'june-ads');
  await spend(f.mediaChannelId, 50_000, 'JPY', '2031-06-15', '2031-06-24');
  await spend(f.mediaChannelId, 100_000, 'USD', '2031-07-01', '2031-07-31');
  await spend(c2, 90_000, 'EUR', '2031-06-11', '2031-06-19');
});

describe('cost per outcome', () => {
  it('divides the prorated spend of everything by each stage', async () => {
    const [all] = await funnel(RANGE);
    expect(all).toMatchObject({ started: 3, qualified: 2, contactLeft: 1, randomized: 1 });
    expect(all).toMatchObject({
      spend: { EUR: '900.00', JPY: '30000', USD: '1600.00' },
      costPerStarted: { EUR: '300.00', JPY: '10000', USD: '533.33' },
      costPerQualified: { EUR: '450.00', JPY: '15000', USD: '800.00' },
      costPerReferred: { EUR: '900.00', JPY: '30000', USD: '1600.00' },
      costPerRandomized: { EUR: '900.00', JPY: '30000', USD: '1600.00' },
    });
  });

  it('takes whole spends without a range', async () => {
    const [all] = await funnel('');
    expect(all!.spend).toEqual({ EUR: '900.00', JPY: '50000', USD: '4600.00' });
  });

  it('tells the channels apart, the one that drew no one included', async () => {
    const rows = await funnel(`${RANGE}&groupBy=mediaChannel`);
    const first = rows.find((r) => r.group === String(f.mediaChannelId));
    const second = rows.find((r) => r.group === String(c2));
    expect(first).toMatchObject({ started: 3, spend: { JPY: '30000', USD: '1600.00' }, costPerQualified: { JPY: '15000', USD: '800.00' } });
    expect(second).toMatchObject({
      label: 'Second channel',
      started: 0,
      spend: { EUR: '900.00' },
      costPerStarted: { EUR: null },
      costPerRandomized: { EUR: null },
    });
  });

  it('tells the campaigns apart', async () => {
    const rows = await funnel(`${RANGE}&groupBy=campaign`);
    expect(rows.find((r) => r.group === 'june-ads')).toMatchObject({
      started: 2,
      qualified: 1,
      contactLeft: 0,
      spend: { USD: '600.00' },
      costPerStarted: { USD: '300.00' },
      costPerQualified: { USD: '600.00' },
      costPerReferred: { USD: null },
    });
    expect(rows.find((r) => r.group === null)).toMatchObject({
      started: 1,
      spend: { EUR: '900.00', JPY: '30000', USD: '1000.00' },
      costPerRandomized: { EUR: '900.00', JPY: '30000', USD: '1000.00' },
    });
  });

  it("splits a channel's spend over the engagements its starts went to", async () => {
    const rows = await funnel(`${RANGE}&groupBy=engagement`);
    expect(rows.find((r) => r.group === String(f.engagementIds[0]))).toMatchObject({
      started: 3,
      spend: { JPY: '30000', USD: '1600.00' },
      costPerStarted: { JPY: '10000', USD: '533.33' },
    });
    expect(rows.find((r) => r.group === null)).toMatchObject({ started: 0, spend: { EUR: '900.00' } });
    const [one] = await funnel(`${RANGE}&engagementId=${f.engagementIds[0]}`);
    expect(one!.spend).toEqual({ JPY: '30000', USD: '1600.00' });
  });

  it('has no cost figures where spend cannot be told: a site, a day', async () => {
    const [bySite] = await funnel(`${RANGE}&siteLocationId=${f.siteLocationId}`);
    expect(bySite).toMatchObject({ spend: null, costPerStarted: null });
    const days = await funnel(`${RANGE}&groupBy=day`);
    expect(days.every((r) => r.spend === null && r.costPerRandomized === null)).toBe(true);
  });

  it('writes the figures in the CSV', async () => {
    const res = await h.request('GET', `/api/recruitment-funnel?sponsorId=${f.sponsorId}&${RANGE}&groupBy=campaign`, {
      token,
      headers: { Accept: 'text/csv' },
    });
    expect(res.status).toBe(200);
    const [header, ...lines] = parseCsv(await res.text());
    const cell = (line: string[] | undefined, column: string) => line?.[header!.indexOf(column)];
    const june = lines.find((l) => l[0] === 'june-ads');
    expect(cell(june, 'spend')).toBe('USD: 600.00');
    expect(cell(june, 'costPerStarted')).toBe('USD: 300.00');
    expect(
      cell(
        lines.find((l) => cell(l, 'label') === 'No campaign'),
        'costPerRandomized',
      ),
    ).toBe('EUR: 900.00; JPY: 30000; USD: 1000.00');
  });
});
