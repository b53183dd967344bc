/**
 * /api/channel-spends on the real server and database: entering, reading, changing and deleting
 * what a media channel cost, each write in the audit trail; the 422s of a bad amount, currency
 * or period; the list's filters, sort and CSV; and the sponsor scope of the channel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { createHarness, doc, json, type Harness } from '../harness';
import { createParticipantFixture, type ParticipantFixture } from '../../support/participantFixture';
import { parseCsv } from '../../support/csv';
import { auditEvents } from '../../../server/db/schema';

let h: Harness;
let a: ParticipantFixture;
let b: ParticipantFixture;
let admin: string;
let userOfA: string;

const body = (attributes: Record<string, unknown>, id?: string) => doc('channel-spends', attributes, id);
const post = (attributes: Record<string, unknown>, token = admin) => h.request('POST', '/api/channel-spends', { token, body: body(attributes) });
const june = (mediaChannelId: number, extra: Record<string, unknown> = {}) => ({
  mediaChannelId,
  amountMinor: 150_000,
  currency: 'USD',
  periodStart: '2031-06-01',
  periodEnd: '2031-06-30',
  ...extra,
});

beforeAll(async () => {
  h = await createHarness();
  h.clock.set('2031-06-12T10:00:00.000Z');
  a = await createParticipantFixture(h.db);
  b = await createParticipantFixture(h.db);
  await h.createUser({ username: 'spends-user-a', password: 'spends-user-a', roles: ['User'], sponsorIds: [a.sponsorId] });
  admin = await h.token();
  userOfA = await h.token('spends-user-a', 'spends-user-a');
});

afterAll(async () => {
  await h.close();
});

describe('a channel spend', () => {
  it('is entered, read, changed and deleted, each write audited', async () => {
    const created = await post(june(a.mediaChannelId, { currency: 'usd', campaign: ' june-ads ' }));
    expect(created.status, await created.clone().text()).toBe(201);
    const spend = (await json(created)).data;
    expect(spend.attributes).toMatchObject({
      mediaChannelId: a.mediaChannelId,
      sponsorId: a.sponsorId,
      amountMinor: 150_000,
      currency: 'USD',
      periodStart: '2031-06-01',
      periodEnd: '2031-06-30',
      campaign: 'june-ads',
    });
    expect(spend.attributes.mediaChannelTitle).toEqual(expect.any(String));

    const read = await h.request('GET', `/api/channel-spends/${spend.id}`, { token: userOfA });
    expect(read.status).toBe(200);

    const changed = await h.request('PATCH', `/api/channel-spends/${spend.id}`, {
      token: userOfA,
      body: body({ amountMinor: 120_000, campaign: null }, spend.id),
    });
    expect(changed.status).toBe(200);
    expect((await json(changed)).data.attributes).toMatchObject({ amountMinor: 120_000, campaign: null, periodEnd: '2031-06-30' });

    expect((await h.request('DELETE', `/api/channel-spends/${spend.id}`, { token: admin })).status).toBe(204);
    expect((await h.request('GET', `/api/channel-spends/${spend.id}`, { token: admin })).status).toBe(404);

    const trail = await h.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entity, 'channel-spends'), eq(auditEvents.entityId, spend.id)))
      .orderBy(desc(auditEvents.id));
    expect(trail.map((e) => e.action)).toEqual(['delete', 'update', 'create']);
    expect(trail[1]!.changes.amountMinor).toEqual({ old: 150_000, new: 120_000 });
  });

  it('refuses a bad amount, currency, period or channel with a 422 naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [june(a.mediaChannelId, { amountMinor: 12.5 }), '/data/attributes/amountMinor'],
      [june(a.mediaChannelId, { amountMinor: -1 }), '/data/attributes/amountMinor'],
      [june(a.mediaChannelId, { currency: 'dollars' }), '/data/attributes/currency'],
      [june(a.mediaChannelId, { periodStart: '2031-02-30' }), '/data/attributes/periodStart'],
      [june(a.mediaChannelId, { periodStart: '2031-07-01' }), '/data/attributes/periodEnd'],
      [june(999_999), '/data/attributes/mediaChannelId'],
    ];
    for (const [attributes, pointer] of cases) {
      const res = await post(attributes);
      expect(res.status, JSON.stringify(attributes)).toBe(422);
      expect((await json(res)).errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toContain(pointer);
    }
    const kept = await json(await post(june(a.mediaChannelId)));
    const backwards = await h.request('PATCH', `/api/channel-spends/${kept.data.id}`, {
      token: admin,
      body: body({ periodStart: '2031-07-15' }, kept.data.id),
    });
    expect(backwards.status).toBe(422);
    expect((await json(backwards)).errors[0].source.pointer).toBe('/data/attributes/periodEnd');
    await h.request('DELETE', `/api/channel-spends/${kept.data.id}`, { token: admin });
  });

  it("keeps to the user's sponsors: another sponsor's channel and spends are not theirs", async () => {
    const ofB = await json(await post(june(b.mediaChannelId)));
    const refused = await post(june(b.mediaChannelId), userOfA);
    expect(refused.status).toBe(422);
    expect((await h.request('GET', `/api/channel-spends/${ofB.data.id}`, { token: userOfA })).status).toBe(404);
    expect((await h.request('PATCH', `/api/channel-spends/${ofB.data.id}`, { token: userOfA, body: body({ amountMinor: 1 }, ofB.data.id) })).status).toBe(404);
    expect((await h.request('DELETE', `/api/channel-spends/${ofB.data.id}`, { token: userOfA })).status).toBe(404);
    expect((await json(await h.request('GET', `/api/channel-spends?mediaChannelId=${b.mediaChannelId}`, { token: userOfA }))).meta.total).toBe(0);
    expect((await json(await h.request('GET', `/api/channel-spends?mediaChannelId=${b.mediaChannelId}`, { token: admin }))).meta.total).toBe(1);
  });
});

describe('the list', () => {
  it('filters by channel, campaign and overlap with a range, sorts, and answers CSV', async () => {
    await post(june(a.mediaChannelId, { periodStart: '2031-05-01', periodEnd: '2031-05-31', amountMinor: 100 }));
    await post(june(a.mediaChannelId, { campaign: 'summer', amountMinor: 300 }));
    await post(june(a.mediaChannelId, { periodStart: '2031-07-01', periodEnd: '2031-07-31', amountMinor: 200 }));
    const list = async (query: string) => {
      const res = await h.request('GET', `/api/channel-spends?mediaChannelId=${a.mediaChannelId}&${query}`, { token: admin });
      expect(res.status, await res.clone().text()).toBe(200);
      return (await json(res)).data.map((d: { attributes: { amountMinor: number } }) => d.attributes.amountMinor);
    };
    expect(await list('')).toEqual([200, 300, 100]);
    expect(await list('sort=amountMinor')).toEqual([100, 200, 300]);
    expect(await list('campaign=SUMMER')).toEqual([300]);
    expect(await list('from=2031-06-15&to=2031-07-01')).toEqual([200, 300]);
    expect((await h.request('GET', '/api/channel-spends?from=june', { token: admin })).status).toBe(400);
    expect((await h.request('GET', '/api/channel-spends?sort=amount', { token: admin })).status).toBe(400);

    const csv = await h.request('GET', `/api/channel-spends?mediaChannelId=${a.mediaChannelId}&sort=amountMinor&fields=periodStart,amountMinor,currency`, {
      token: admin,
      headers: { Accept: 'text/csv' },
    });
    expect(csv.status).toBe(200);
    const [header, ...lines] = parseCsv(await csv.text());
    expect(header).toEqual(['id', 'periodStart', 'amountMinor', 'currency']);
    expect(lines.map((l) => l.slice(1))).toEqual([
      ['2031-05-01', '100', 'USD'],
      ['2031-07-01', '200', 'USD'],
      ['2031-06-01', '300', 'USD'],
    ]);
  });
});
