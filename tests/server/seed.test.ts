import { describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import {
  countries,
  engagements,
  leads,
  mediaChannels,
  oForms,
  referralEvents,
  referrals,
  rmsAudits,
  roles,
  screeners,
  sponsors,
  users,
} from '../../server/db/schema';
import { DEMO_RECORD_SYSTEM } from '../../server/demo';
import { verifyAuditChain } from '../../server/audit/trail';
import { DEMO_SURVEY_IDENTITY, demoChannel } from '../../server/demo';
import { seed } from '../../server/seed';
import { verifyPassword } from '../../server/auth/passwords';
import { useHarness, json, type Harness } from './harness';
import { FUNNEL_STAGES, previousStage } from '@core/model/funnel';
import { REFERRAL_STATUSES } from '@core/model/referral';

let h: Harness;
useHarness((harness) => {
  h = harness;
});

describe('seed', () => {
  it('holds the ISO 3166 country list and the three roles', async () => {
    expect((await h.db.select({ n: count() }).from(countries))[0]?.n).toBe(249);
    const [de] = await h.db.select().from(countries).where(eq(countries.isoCode, 'DE'));
    expect(de?.name).toBe('Germany');
    expect((await h.db.select().from(roles)).map((r) => r.name).sort()).toEqual(['Admin', 'Site Coordinator', 'Super User', 'User']);
  });

  it('is safe to run again, and seeds demo sponsors once only', async () => {
    const again = await seed(h.db, { adminUsername: 'admin', adminPassword: null, demoData: true, phi: h.phi });
    expect(again.adminCreated).toBe(false);
    expect(again.generatedAdminPassword).toBeNull();
    expect(again.demoSeeded).toBe(true);
    const demo = (await h.db.select({ n: count() }).from(sponsors))[0]?.n ?? 0;
    expect(demo).toBeGreaterThanOrEqual(3);
    // The demo participant run: an approved survey on an active channel that /demo/ embeds.
    const channel = await demoChannel(h.db);
    expect(channel).not.toBeNull();
    const [form] = await h.db.select().from(oForms).where(eq(oForms.identity, DEMO_SURVEY_IDENTITY));
    expect(form).toMatchObject({ isApproved: true, isActive: true, containerCount: 3 });
    // Six weeks of generated runs from two sources: the funnel's charts have something to show,
    // every stage within the one before, and the channel's figures count the same runs.
    const token = await h.token();
    const funnel = async (query: string) =>
      (await json(await h.request('GET', `/api/recruitment-funnel?mediaChannelId=${channel!.mediaChannelId}&${query}`, { token }))).data;
    const weeks = await funnel('groupBy=week');
    expect(weeks.length).toBeGreaterThanOrEqual(6);
    const sources = await funnel('groupBy=source');
    expect(sources.map((r: { attributes: { group: string } }) => r.attributes.group).sort()).toEqual(['facebook', 'newsletter']);
    const [all] = await funnel('groupBy=none');
    const counts = FUNNEL_STAGES.map((stage) => all.attributes[stage] as number);
    expect(counts.slice(0, 5).every((n) => n > 0)).toBe(true);
    expect(
      FUNNEL_STAGES.every((stage) => {
        const before = previousStage(stage);
        return before === null || all.attributes[stage] <= all.attributes[before];
      }),
    ).toBe(true);
    // Referrals at every status, worked with attempts and status changes: the funnel reaches randomization.
    for (const stage of ['contactLeft', 'delivered', 'reached', 'screened', 'screenFailed', 'randomized'])
      expect(all.attributes[stage], stage).toBeGreaterThan(0);
    const statuses = (await h.db.selectDistinct({ status: referrals.status }).from(referrals)).map((r) => r.status).sort();
    expect(statuses).toEqual([...REFERRAL_STATUSES].sort());
    expect((await h.db.select({ n: count() }).from(referralEvents))[0]!.n).toBeGreaterThan(0);
    const queueRes = await h.request('GET', '/api/referrals?limit=10', { token });
    expect(queueRes.status, await queueRes.clone().text()).toBe(200);
    const queue = await json(queueRes);
    expect(queue.meta.total).toBeGreaterThan(50);
    expect(queue.data[0].attributes.initials).toMatch(/^[A-Z]{2}$/);
    const figures = (await json(await h.request('GET', `/api/media-channels/${channel!.mediaChannelId}`, { token }))).data.attributes;
    expect([figures.views, figures.submissionsStarted, figures.submissionsQualified]).toEqual([
      all.attributes.viewed,
      all.attributes.started,
      all.attributes.qualified,
    ]);
    // The record system's audits show each referral's push, some only at the second attempt.
    const audits = await json(await h.request('GET', '/api/rms-audits?limit=100', { token }));
    expect(audits.meta.total).toBeGreaterThan(queue.meta.total);
    const rows = audits.data.map(
      (r: { attributes: { rmsProviderName: string; attempt: number; succeeded: boolean; responseMessage: string; deliveryStatus: string } }) => r.attributes,
    );
    expect(
      rows.every((r: { rmsProviderName: string; deliveryStatus: string }) => r.rmsProviderName === DEMO_RECORD_SYSTEM && r.deliveryStatus === 'delivered'),
    ).toBe(true);
    const failed = await json(await h.request('GET', '/api/rms-audits?limit=10&sort=succeeded', { token }));
    expect(failed.data[0].attributes).toMatchObject({
      attempt: 1,
      succeeded: false,
      responseMessage: 'HTTP 503 Service Unavailable',
      deliveryStatus: 'delivered',
    });
    const failedFirst = (await h.db.select({ n: count() }).from(rmsAudits).where(eq(rmsAudits.succeeded, false)))[0]!.n;
    expect(failedFirst).toBeGreaterThan(0);
    // History: the demo engagement was created, then changed, by the installation's admin; the chain holds.
    const [engagement] = await h.db.select({ id: engagements.id }).from(engagements).where(eq(engagements.name, 'Healthy Heart Study'));
    const history = await json(await h.request('GET', `/api/audit-events?entity=engagements&entityId=${engagement!.id}&sort=occurredAt`, { token }));
    const steps = history.data.map(
      (e: { attributes: { action: string; actorUsername: string | null; changes: Record<string, { old: unknown; new: unknown }> } }) => e.attributes,
    );
    expect(steps.map((e: { action: string }) => e.action)).toEqual(['create', 'update', 'update']);
    expect(steps[1].changes).toEqual({ radius: { old: 15, new: 25 } });
    expect(steps[0].actorUsername).toBe('admin');
    expect(await verifyAuditChain(h.db)).toMatchObject({ ok: true });
    // Leads of the runs that did not qualify or found no site: sealed, on the Leads screen's list, counted by the funnel.
    const demoLeads = await h.db.select().from(leads);
    expect(new Set(demoLeads.map((l) => l.kind))).toEqual(new Set(['notQualified', 'noTrialSites']));
    for (const lead of demoLeads.slice(0, 5)) {
      expect(lead.valuesCiphertext).not.toContain('@');
      expect(JSON.parse(h.phi.open(lead.valuesCiphertext)).email).toMatch(/@example\.com$/);
      expect(h.phi.open(lead.zipCiphertext!)).toMatch(/^\d{5}$/);
    }
    expect(demoLeads.filter((l) => l.kind === 'noTrialSites').every((l) => l.nearestSiteMiles! > 25)).toBe(true);
    expect(all.attributes.leadsKept).toBe(demoLeads.length);
    expect(all.attributes.leadsNotQualified + all.attributes.leadsNoTrialSites).toBe(demoLeads.length);
    const leadList = await h.request('GET', '/api/leads', { token });
    expect(leadList.status, await leadList.clone().text()).toBe(200);
    expect((await json(leadList)).meta.total).toBe(demoLeads.length);
    // Staff deleting the demo rows do not see them come back at the next start.
    await h.db.delete(mediaChannels);
    await h.db.delete(screeners);
    await h.db.delete(engagements);
    await h.db.delete(sponsors);
    const third = await seed(h.db, { adminUsername: 'admin', adminPassword: null, demoData: true });
    expect(third.demoSeeded).toBe(false);
    expect((await h.db.select({ n: count() }).from(sponsors))[0]?.n).toBe(0);
    expect((await h.db.select({ n: count() }).from(countries))[0]?.n).toBe(249);
    // The admin, and the demo site's coordinator (messages go to them).
    expect((await h.db.select({ n: count() }).from(users))[0]?.n).toBe(2);
  });

  it('generates an admin password when none is configured, and stores only its hash', async () => {
    await h.db.delete(users);
    const result = await seed(h.db, { adminUsername: 'owner', adminPassword: null, demoData: false });
    expect(result.adminCreated).toBe(true);
    expect(result.generatedAdminPassword).toMatch(/^[\w-]{16}$/);
    const [owner] = await h.db.select().from(users).where(eq(users.username, 'owner'));
    expect(owner?.passwordHash).toMatch(/^scrypt\$/);
    expect(owner?.passwordHash).not.toContain(result.generatedAdminPassword);
    expect(await verifyPassword(result.generatedAdminPassword!, owner!.passwordHash!)).toBe(true);
    const { body } = await h.login('owner', result.generatedAdminPassword!);
    expect(body.data?.user?.roles.map((r) => r.name).sort()).toEqual(['Admin', 'Super User']);
  });
});
