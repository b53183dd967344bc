/**
 * The referrals resource on a real server and database: the status ladder's moves allowed and
 * refused, the events each writes, contact attempts, service levels at injected instants, the
 * counts and sponsor figures following the ladder, and the scope of a sponsor's User.
 */
import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditEvents, referralEvents, referralReasons, referrals, rmsAudits } from '../../../server/db/schema';
import { doc, json, useAdminHarness, type Harness } from '../harness';
import { clockFrom, HOUR } from '../clockFrom';
import { engagementAtSites, referralsMade } from '../referralRecords';

let h: Harness;
let admin: string;
useAdminHarness((server) => ({ h, admin } = server));

const MADE = '2031-03-02T09:00:00.000Z';
const { at, adminAt } = clockFrom(() => h, MADE);

let serial = 0;
/** A sponsor with one engagement linked to one site, and `n` referrals made at MADE. */
async function world(n = 1, names: { first_name?: string; last_name?: string } = { first_name: 'Ada', last_name: 'Lovelace' }) {
  serial += 1;
  const made = await engagementAtSites(h, `Ladder ${serial}`, `LAD-${serial}`, [`Ladder site ${serial}`]);
  const referralIds = await referralsMade(h, { engagementId: made.engagementId, linkId: made.linkIds[0]! }, n, MADE, names);
  return { sponsorId: made.sponsorId, engagementId: made.engagementId, siteId: made.siteIds[0]!, referralIds };
}

const reasonOf = async (status: string) => {
  const [row] = await h.db.select().from(referralReasons).where(eq(referralReasons.status, status)).limit(1);
  return row!.id;
};

const move = (id: number, attributes: Record<string, unknown>, token = admin) =>
  h.request('PATCH', `/api/referrals/${id}`, { token, body: doc('referrals', attributes, String(id)) });
const attempt = (id: number, attributes: Record<string, unknown>, token = admin) =>
  h.request('POST', `/api/referrals/${id}/contact-attempts`, { token, body: doc('contact-attempts', attributes) });
const read = async (id: number, token = admin) => (await json(await h.request('GET', `/api/referrals/${id}`, { token }))).data.attributes;
const pointers = async (res: Response) => (await json(res)).errors.map((e: { source?: { pointer?: string } }) => e.source?.pointer);

describe('the status ladder', () => {
  it('moves a referral up the ladder, each step an event (who, when, from, to, reason) and an audit event', async () => {
    const w = await world();
    const id = w.referralIds[0]!;
    admin = await adminAt(2 * HOUR);
    const res = await move(id, { status: 'contacted' });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await json(res)).data.attributes).toMatchObject({
      status: 'contacted',
      deliveryStatus: 'delivered',
      statusChanged: at(2 * HOUR).toISOString(),
      firstContactAt: at(2 * HOUR).toISOString(),
      initials: 'AL',
    });
    admin = await adminAt(30 * HOUR);
    expect((await move(id, { status: 'in-screening' })).status).toBe(200);
    const failed = await reasonOf('screen-failed');
    admin = await adminAt(50 * HOUR);
    const res2 = await move(id, { status: 'screen-failed', reasonId: failed, reasonNote: 'HbA1c 9.1, above the limit' });
    expect(res2.status).toBe(200);
    expect((await json(res2)).data.attributes).toMatchObject({
      status: 'screen-failed',
      reasonId: failed,
      reasonNote: 'HbA1c 9.1, above the limit',
      allowedStatuses: [],
    });

    const events = await h.db.select().from(referralEvents).where(eq(referralEvents.referralId, id)).orderBy(referralEvents.id);
    expect(events.map((e) => [e.fromStatus, e.toStatus, e.actorName, e.occurredAt.toISOString()])).toEqual([
      ['new', 'contacted', 'admin', at(2 * HOUR).toISOString()],
      ['contacted', 'in-screening', 'admin', at(30 * HOUR).toISOString()],
      ['in-screening', 'screen-failed', 'admin', at(50 * HOUR).toISOString()],
    ]);
    expect(events[2]!.reasonId).toBe(failed);
    // The note is sealed at rest and never copied into the audit trail.
    expect(events[2]!.noteCiphertext).not.toContain('HbA1c');
    const trail = await h.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entity, 'referrals'), eq(auditEvents.entityId, String(id))));
    expect(trail.map((e) => [e.action, e.meta.from, e.meta.to, e.actorUsername])).toEqual([
      ['status', 'new', 'contacted', 'admin'],
      ['status', 'contacted', 'in-screening', 'admin'],
      ['status', 'in-screening', 'screen-failed', 'admin'],
    ]);
    expect(JSON.stringify(trail)).not.toContain('HbA1c');

    const timeline = (await json(await h.request('GET', `/api/referrals/${id}/timeline`, { token: admin }))).data;
    expect(timeline.map((e: { attributes: { kind: string; toStatus: string } }) => [e.attributes.kind, e.attributes.toStatus])).toEqual([
      ['made', 'new'],
      ['status', 'contacted'],
      ['status', 'in-screening'],
      ['status', 'screen-failed'],
    ]);

    // Delivery attempts to the record system join the timeline in their place: provider and outcome only.
    const [row] = await h.db.select({ contactId: referrals.contactId }).from(referrals).where(eq(referrals.id, id));
    await h.db.insert(rmsAudits).values([
      { contactId: row!.contactId!, rmsProviderName: 'Timeline RMS', succeeded: false, attempt: 1, responseMessage: 'HTTP 503', created: at(HOUR / 2) },
      { contactId: row!.contactId!, rmsProviderName: 'Timeline RMS', succeeded: true, attempt: 2, responseMessage: 'HTTP 200', created: at(HOUR) },
    ]);
    const withDeliveries = (await json(await h.request('GET', `/api/referrals/${id}/timeline`, { token: admin }))).data.map(
      (e: { attributes: Record<string, unknown> }) => e.attributes,
    );
    expect(withDeliveries.map((e: Record<string, unknown>) => [e.kind, e.actorName === 'Timeline RMS' ? e.result : e.toStatus])).toEqual([
      ['made', 'new'],
      ['delivery', 'failed'],
      ['delivery', 'delivered'],
      ['status', 'contacted'],
      ['status', 'in-screening'],
      ['status', 'screen-failed'],
    ]);
  });

  it('refuses a step down, a move out of a closed status, a missing or foreign reason and a bad body with 422 and a pointer, writing nothing', async () => {
    const w = await world();
    const id = w.referralIds[0]!;
    admin = await adminAt(HOUR);
    expect((await move(id, { status: 'scheduled' })).status).toBe(200);
    const refused = async (attributes: Record<string, unknown>, pointer: string) => {
      const res = await move(id, attributes);
      expect(res.status, JSON.stringify(attributes)).toBe(422);
      expect(await pointers(res)).toEqual([pointer]);
    };
    await refused({ status: 'new' }, '/data/attributes/status');
    await refused({ status: 'contacted' }, '/data/attributes/status');
    await refused({ status: 'scheduled' }, '/data/attributes/status');
    await refused({ status: 'screen-failed' }, '/data/attributes/reasonId');
    await refused({ status: 'withdrawn', reasonId: await reasonOf('screen-failed') }, '/data/attributes/reasonId');
    await refused({ status: 'eligible', reasonId: await reasonOf('withdrawn') }, '/data/attributes/reasonId');
    await refused({ status: 'randomized' }, '/data/attributes/status');
    await refused({ status: 'eligible', colour: 'red' }, '/data/attributes/colour');
    expect((await read(id)).status).toBe('scheduled');
    expect(await h.db.select().from(referralEvents).where(eq(referralEvents.referralId, id))).toHaveLength(1);

    expect((await move(id, { status: 'not-reachable', reasonId: await reasonOf('not-reachable') })).status).toBe(200);
    await refused({ status: 'contacted' }, '/data/attributes/status');
    await refused({ status: 'withdrawn', reasonId: await reasonOf('withdrawn') }, '/data/attributes/status');
    expect((await h.request('PATCH', '/api/referrals/999999', { token: admin, body: doc('referrals', { status: 'contacted' }, '999999') })).status).toBe(404);
  });

  it('lets an enrolled participant withdraw, and keeps them counted as randomized', async () => {
    const w = await world(2);
    const [a, b] = w.referralIds as [number, number];
    admin = await adminAt(HOUR);
    for (const status of ['in-screening', 'eligible', 'enrolled']) expect((await move(a, { status })).status).toBe(200);
    expect((await move(b, { status: 'in-screening' })).status).toBe(200);
    const counts = async () => (await json(await h.request('GET', `/api/referrals/counts/${w.engagementId}`, { token: admin }))).data.attributes;
    expect(await counts()).toMatchObject({ total: 2, screened: 2, randomized: 1 });
    expect((await move(a, { status: 'withdrawn', reasonId: await reasonOf('withdrawn') })).status).toBe(200);
    expect((await move(b, { status: 'withdrawn', reasonId: await reasonOf('withdrawn') })).status).toBe(200);
    expect(await counts()).toMatchObject({ total: 2, screened: 2, randomized: 1 });
    const sponsor = (await json(await h.request('GET', `/api/sponsors/${w.sponsorId}`, { token: admin }))).data.attributes;
    expect(sponsor).toMatchObject({ totalReferrals: 2, totalScreenedReferrals: 2, totalRandomizedReferrals: 1 });
  });
});

describe('contact attempts and service levels', () => {
  it('is due 48 hours after it was made, overdue after that, and due at the planned attempt once one is logged', async () => {
    const w = await world();
    const id = w.referralIds[0]!;
    admin = await adminAt(47 * HOUR);
    expect(await read(id)).toMatchObject({ status: 'new', due: at(48 * HOUR).toISOString(), overdue: false, stale: false, attempts: 0 });
    const overdueIds = async () =>
      (await json(await h.request('GET', `/api/referrals?engagementId=${w.engagementId}&overdue=true`, { token: admin }))).data.map((r: { id: string }) =>
        Number(r.id),
      );
    expect(await overdueIds()).toEqual([]);
    admin = await adminAt(49 * HOUR);
    expect(await read(id)).toMatchObject({ overdue: true });
    expect(await overdueIds()).toEqual([id]);

    const res = await attempt(id, { channel: 'phone', result: 'no-answer', note: 'left no message', nextAttemptDue: at(73 * HOUR).toISOString() });
    expect(res.status, await res.clone().text()).toBe(201);
    expect((await json(res)).data.attributes).toMatchObject({
      status: 'attempting-contact',
      attempts: 1,
      lastAttemptAt: at(49 * HOUR).toISOString(),
      nextAttemptDue: at(73 * HOUR).toISOString(),
      due: at(73 * HOUR).toISOString(),
      overdue: false,
      firstContactAt: null,
    });
    admin = await adminAt(74 * HOUR);
    expect(await read(id)).toMatchObject({ overdue: true });
    expect((await attempt(id, { channel: 'sms', result: 'reached' })).status).toBe(201);
    expect(await read(id)).toMatchObject({ attempts: 2, firstContactAt: at(74 * HOUR).toISOString(), due: null, overdue: false });
    const timeline = (await json(await h.request('GET', `/api/referrals/${id}/timeline`, { token: admin }))).data.map(
      (e: { attributes: Record<string, unknown> }) => e.attributes,
    );
    expect(timeline.map((e: Record<string, unknown>) => [e.kind, e.toStatus ?? null, e.result ?? null])).toEqual([
      ['made', 'new', null],
      ['status', 'attempting-contact', null],
      ['attempt', null, 'no-answer'],
      ['attempt', null, 'reached'],
    ]);
    expect(timeline[2].note).toBe('left no message');
  });

  it("uses the engagement's own service levels, and calls an untouched open referral stale", async () => {
    const w = await world(2);
    admin = await adminAt(5 * HOUR);
    const setLevels = (attributes: Record<string, unknown>) =>
      h.request('PATCH', `/api/engagements/${w.engagementId}`, { token: admin, body: doc('engagements', attributes, String(w.engagementId)) });
    const bad = await setLevels({ firstContactHours: 0, staleDays: 2.5 });
    expect(bad.status).toBe(422);
    expect((await pointers(bad)).sort()).toEqual(['/data/attributes/firstContactHours', '/data/attributes/staleDays']);
    const set = await setLevels({ firstContactHours: 4, staleDays: 2 });
    expect((await json(set)).data.attributes).toMatchObject({ firstContactHours: 4, staleDays: 2 });
    const [a, b] = w.referralIds as [number, number];
    expect(await read(a)).toMatchObject({ due: at(4 * HOUR).toISOString(), overdue: true, stale: false });
    expect((await move(b, { status: 'contacted' })).status).toBe(200);
    admin = await adminAt(49 * HOUR);
    expect(await read(a)).toMatchObject({ stale: true });
    expect(await read(b)).toMatchObject({ stale: false, due: null });
    const stale = (await json(await h.request('GET', `/api/referrals?engagementId=${w.engagementId}&stale=true`, { token: admin }))).data.map(
      (r: { id: string }) => Number(r.id),
    );
    expect(stale).toEqual([a]);
  });

  it('refuses an attempt in the future, a next attempt before it, a bad channel and an attempt on a closed referral', async () => {
    const w = await world();
    const id = w.referralIds[0]!;
    admin = await adminAt(HOUR);
    const refused = async (attributes: Record<string, unknown>, pointer: string) => {
      const res = await attempt(id, attributes);
      expect(res.status, JSON.stringify(attributes)).toBe(422);
      expect(await pointers(res)).toEqual([pointer]);
    };
    await refused({ channel: 'phone', result: 'reached', attemptedAt: at(2 * HOUR).toISOString() }, '/data/attributes/attemptedAt');
    await refused({ channel: 'phone', result: 'reached', nextAttemptDue: at(0).toISOString() }, '/data/attributes/nextAttemptDue');
    await refused({ channel: 'pigeon', result: 'reached' }, '/data/attributes/channel');
    await refused({ channel: 'phone', result: 'maybe' }, '/data/attributes/result');
    expect(await read(id)).toMatchObject({ status: 'new', attempts: 0 });
    expect((await move(id, { status: 'withdrawn', reasonId: await reasonOf('withdrawn') })).status).toBe(200);
    await refused({ channel: 'phone', result: 'reached' }, '/data');
  });
});

describe('the work queue', () => {
  it('filters by site, status and dates, sorts by due, and refuses unknown filters and values with 400', async () => {
    const w = await world(3);
    const [a, b, c] = w.referralIds as [number, number, number];
    admin = await adminAt(HOUR);
    expect((await attempt(b, { channel: 'phone', result: 'voicemail', nextAttemptDue: at(3 * HOUR).toISOString() })).status).toBe(201);
    expect((await move(c, { status: 'contacted' })).status).toBe(200);
    const list = async (query: string) => json(await h.request('GET', `/api/referrals?siteLocationId=${w.siteId}&${query}`, { token: admin }));
    const byDue = await list('sort=due');
    expect(byDue.data.map((r: { id: string }) => Number(r.id))).toEqual([b, a, c]);
    expect(byDue.meta.total).toBe(3);
    expect((await list('status=new,attempting-contact&sort=-due')).data.map((r: { id: string }) => Number(r.id))).toEqual([a, b]);
    expect((await list('createdFrom=2031-03-02&createdTo=2031-03-02')).meta.total).toBe(3);
    expect((await list('createdFrom=2031-03-03')).meta.total).toBe(0);
    for (const query of ['status=lost', 'overdue=maybe', 'createdFrom=yesterday', 'sort=initials', 'siteLocationId=x', 'colour=red']) {
      expect((await h.request('GET', `/api/referrals?${query}`, { token: admin })).status, query).toBe(400);
    }
  });
});

describe('scope', () => {
  it("shows a sponsor's User only that sponsor's referrals: others are 404 to read, move, log or list", async () => {
    const mine = await world();
    const theirs = await world();
    await h.createUser({ username: 'ladder-user', roles: ['User'], sponsorIds: [mine.sponsorId] });
    admin = await adminAt(HOUR);
    const user = await h.token('ladder-user', 'a-good-password');
    const listed = (await json(await h.request('GET', '/api/referrals?limit=1000', { token: user }))).data.map((r: { id: string }) => Number(r.id));
    expect(listed).toEqual(mine.referralIds);
    const other = theirs.referralIds[0]!;
    expect((await h.request('GET', `/api/referrals/${other}`, { token: user })).status).toBe(404);
    expect((await h.request('GET', `/api/referrals/${other}/timeline`, { token: user })).status).toBe(404);
    expect((await move(other, { status: 'contacted' }, user)).status).toBe(404);
    expect((await attempt(other, { channel: 'phone', result: 'reached' }, user)).status).toBe(404);
    expect((await h.request('GET', `/api/referrals?engagementId=${theirs.engagementId}`, { token: user }).then(json)).meta.total).toBe(0);
    expect((await read(other)).status).toBe('new');
    expect((await move(mine.referralIds[0]!, { status: 'contacted' }, user)).status).toBe(200);
  });

  it('lets only Admin and Super User keep the reasons list', async () => {
    admin = await adminAt(HOUR);
    await h.createUser({ username: 'reason-user', roles: ['User'] });
    const user = await h.token('reason-user', 'a-good-password');
    const body = doc('referral-reasons', { name: 'Moved away', status: 'withdrawn' });
    expect((await h.request('POST', '/api/referral-reasons', { token: user, body })).status).toBe(403);
    const created = await h.request('POST', '/api/referral-reasons', { token: admin, body });
    expect(created.status).toBe(201);
    expect((await h.request('POST', '/api/referral-reasons', { token: admin, body })).status).toBe(422);
    expect((await h.request('POST', '/api/referral-reasons', { token: admin, body: doc('referral-reasons', { name: 'x', status: 'contacted' }) })).status).toBe(
      422,
    );
    const listed = await json(await h.request('GET', '/api/referral-reasons?status=withdrawn', { token: user }));
    expect(listed.data.map((r: { attributes: { name: string } }) => r.attributes.name)).toContain('Moved away');
  });
});
