/**
 * The `leads` resource on the real server and database: the list with its filters and CSV, one
 * lead, the contact values only on a reveal that leaves an audit event, erasure (Admin, audited,
 * nothing of the lead copied into the trail), a User's sponsor scope, and retention at the clock's day 366
 * (the purge itself and the daily job main.ts starts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createHarness, json, type Harness } from '../harness';
import { type ParticipantFixture, runNotQualified } from '../../support/participantFixture';
import { leadLeft, twoSponsors } from '../participantServer';
import { auditEvents, leads } from '../../../server/db/schema';
import { deleteExpiredLeads } from '../../../server/leads';
import { createLogger } from '../../../server/log';
import { startRetentionJob } from '../../../server/retention';
import { parseCsv } from '../../support/csv';
import { DAY_MS } from '@core/time';

let h: Harness;
let a: ParticipantFixture;
let b: ParticipantFixture;
let admin: string;
let userA: string;
const T0 = new Date('2032-01-15T08:00:00Z');

async function leaveLead(f: ParticipantFixture, email: string, zip = '10001'): Promise<number> {
  const run = await runNotQualified(h, f, { zip });
  return (await leadLeft(h, run, { values: { first_name: 'Orla', email, phone: '646-555-0111' }, acceptTerms: true, zip })).id;
}

let leadA: number;
let leadB: number;

beforeAll(async () => {
  h = await createHarness();
  h.clock.set(T0);
  ({ a, b, admin, userA } = await twoSponsors(h, 'leads-user-a'));
  leadA = await leaveLead(a, 'orla.a@example.org');
  leadB = await leaveLead(b, 'orla.b@example.org', '60601');
});
afterAll(async () => {
  await h.close();
});

describe('GET /api/leads', () => {
  it('lists leads with kind, engagements, language, ZIP, distance and consent, no contact value', async () => {
    const res = await h.request('GET', `/api/leads?engagementId=${a.engagementIds[0]}`, { token: admin });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.meta.total).toBe(1);
    expect(body.data[0]).toMatchObject({
      type: 'leads',
      id: String(leadA),
      attributes: {
        kind: 'notQualified',
        engagementIds: a.engagementIds,
        screenerId: a.screenerId,
        mediaChannelId: a.mediaChannelId,
        language: 'en',
        zipCode: '10001',
        consentedAt: T0.toISOString(),
        consentText: 'May we contact you about other studies?',
      },
    });
    expect(JSON.stringify(body)).not.toContain('orla.a@example.org');
  });

  it('filters by kind, screener, channel and dates, and answers 400 for a bad filter', async () => {
    const count = async (q: string) => (await json(await h.request('GET', `/api/leads?${q}`, { token: admin }))).meta.total;
    expect(await count(`kind=notQualified&screenerId=${b.screenerId}`)).toBe(1);
    expect(await count(`kind=noTrialSites&screenerId=${b.screenerId}`)).toBe(0);
    expect(await count(`mediaChannelId=${a.mediaChannelId}`)).toBe(1);
    expect(await count(`from=2032-01-16&screenerId=${a.screenerId}`)).toBe(0);
    expect(await count(`to=2032-01-15&screenerId=${a.screenerId}`)).toBe(1);
    for (const q of ['kind=referral', 'engagementId=x', 'from=yesterday', 'sort=email', 'colour=red']) {
      const res = await h.request('GET', `/api/leads?${q}`, { token: admin });
      expect(res.status, q).toBe(400);
    }
  });

  it("keeps a User to their sponsors: B's lead is neither listed nor readable nor revealed", async () => {
    const listed = await json(await h.request('GET', '/api/leads', { token: userA }));
    expect(listed.data.map((d: { id: string }) => d.id)).toEqual([String(leadA)]);
    expect((await h.request('GET', `/api/leads/${leadB}`, { token: userA })).status).toBe(404);
    expect((await h.request('POST', `/api/leads/${leadB}/reveal`, { token: userA })).status).toBe(404);
    expect((await h.request('GET', `/api/leads/${leadA}`, { token: userA })).status).toBe(200);
  });

  it('exports CSV with the scope of the list', async () => {
    const res = await h.request('GET', '/api/leads?fields[leads]=kind,zipCode,consentedAt', { token: userA, headers: { Accept: 'text/csv' } });
    expect(res.status).toBe(200);
    const csv = await res.text();
    expect(csv.split(/\r?\n/).filter(Boolean)).toEqual(['id,kind,zipCode,consentedAt', `${leadA},notQualified,10001,${T0.toISOString()}`]);
  });
});

describe('the CSV of leads', () => {
  it('escapes a cell a spreadsheet would run as a formula', async () => {
    // A consent message is staff's text: one that starts a formula is written as text.
    const lead = await leaveLead(b, 'formula.lead@example.org', '94110');
    await h.db.update(leads).set({ consentText: '=HYPERLINK("http://evil.example","click")' }).where(eq(leads.id, lead));
    try {
      const res = await h.request('GET', `/api/leads?fields[leads]=kind,consentText&engagementId=${b.engagementIds[0]}&sort=created`, {
        token: admin,
        headers: { Accept: 'text/csv' },
      });
      expect(res.status).toBe(200);
      const rows = parseCsv(await res.text());
      expect(rows.find((r) => r[0] === String(lead))).toEqual([String(lead), 'notQualified', `'=HYPERLINK("http://evil.example","click")`]);
    } finally {
      await h.db.delete(leads).where(eq(leads.id, lead));
    }
  });
});

describe('reveal and erase', () => {
  it('reveals the contact values only on request, with an audit event that holds none of them', async () => {
    const res = await h.request('POST', `/api/leads/${leadA}/reveal`, { token: userA });
    expect(res.status).toBe(200);
    expect((await json(res)).meta.values).toEqual({ first_name: 'Orla', email: 'orla.a@example.org', phone: '646-555-0111' });
    const events = await h.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entity, 'leads'), eq(auditEvents.action, 'reveal')));
    expect(events.map((e) => [e.entityId, e.actorUsername])).toEqual([[String(leadA), 'leads-user-a']]);
    expect(JSON.stringify(events)).not.toContain('orla.a@example.org');
  });

  it('erases a lead for an Admin, audited without its ZIP; a User may not', async () => {
    const other = await leaveLead(b, 'erase.me@example.org', '94110');
    expect((await h.request('DELETE', `/api/leads/${other}`, { token: userA })).status).toBe(403);
    expect((await h.request('DELETE', `/api/leads/${other}`, { token: admin })).status).toBe(204);
    expect(await h.db.select().from(leads).where(eq(leads.id, other))).toEqual([]);
    expect((await h.request('DELETE', `/api/leads/${other}`, { token: admin })).status).toBe(404);
    const events = await h.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entity, 'leads'), eq(auditEvents.action, 'erase')));
    expect(events.map((e) => e.entityId)).toEqual([String(other)]);
    expect(JSON.stringify(events)).not.toContain('94110');
  });
});

describe('retention', () => {
  it("deletes a lead at the clock's day 366 with the default 365 days, and keeps it with 0", async () => {
    const kept = async () => (await h.db.select({ id: leads.id }).from(leads)).map((r) => r.id).sort();
    expect(h.config.leadRetentionDays).toBe(365);
    expect(await deleteExpiredLeads(h.db, new Date(T0.getTime() + 365 * DAY_MS), 365)).toBe(0);
    expect(await kept()).toEqual([leadA, leadB].sort());
    expect(await deleteExpiredLeads(h.db, new Date(T0.getTime() + 366 * DAY_MS), 0)).toBe(0);
    expect(await deleteExpiredLeads(h.db, new Date(T0.getTime() + 366 * DAY_MS), 365)).toBe(2);
    expect(await kept()).toEqual([]);
  });

  it("is the daily retention job's too: with the configured days, on the clock's day 365 it keeps a lead, on day 366 it deletes it", async () => {
    h.clock.set(T0);
    const lead = await leaveLead(a, 'kept.a.year@example.org');
    const present = async () => (await h.db.select({ id: leads.id }).from(leads).where(eq(leads.id, lead))).length;
    const log = createLogger('silent');
    // As main.ts starts it (answers kept: only the leads' purge runs), on the server's clock.
    const runOn = async (day: number) => {
      h.clock.set(new Date(T0.getTime() + day * DAY_MS));
      const job = startRetentionJob({ db: h.db, clock: h.clock, days: 0, leadDays: h.config.leadRetentionDays, log });
      for (let i = 0; i < 100 && (await present()) > 0 && day > 365; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      // Give a day-365 run the time to have done its pass, had it deleted anything.
      if (day <= 365) await new Promise((resolve) => setTimeout(resolve, 300));
      await job.stop();
    };
    await runOn(365);
    expect(await present()).toBe(1);
    await runOn(366);
    expect(await present()).toBe(0);
    h.clock.set(T0);
  });
});
