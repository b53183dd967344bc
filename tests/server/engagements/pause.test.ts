/**
 * Targets and dates pause recruitment, on the real server and database at the server's clock:
 * an engagement at its target (referrals, or randomized participants when it counts those) or
 * past its media end date or end date is not offered — the next start through its channel is
 * notActive, a run already under way qualifies for it no more, nothing is referred to it and
 * its contact is kept as a notActive lead —
 * and the engagement and channel views say why and since when. Raising the target or moving
 * the date resumes it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { doc, json, type Harness } from '../harness';
import { leadLeft, leadOf, useParticipantServer } from '../participantServer';
import { answerPage, leaveContact, leaveLead, runQualified, startSubmission, TOKEN_HEADER, type ParticipantFixture } from '../../support/participantFixture';
import { engagements, referrals } from '../../../server/db/schema';
import { pauseOf } from '../../../server/engagements';

let h: Harness;
let f: ParticipantFixture;
let e1: number;

/** Wednesday. */
const T0 = '2031-03-05T10:00:00.000Z';
const VALUES = { first_name: 'Pia', email: 'pia.pause@example.org', phone: '917-555-0190' };

useParticipantServer((server) => ({ h, f } = server), { at: T0 });

beforeAll(async () => {
  e1 = f.engagementIds[0];
  // One engagement on the screener: its pause is the whole channel's.
  await h.db.update(engagements).set({ isActive: false }).where(eq(engagements.id, f.engagementIds[1]));
});

/** Staff calls carry a token of the server clock's current instant. */
const patchEngagement = async (attributes: Record<string, unknown>) =>
  h.request('PATCH', `/api/engagements/${e1}`, { token: await h.token(), body: doc('engagements', attributes, String(e1)) });
const engagementView = async () => (await json(await h.request('GET', `/api/engagements/${e1}`, { token: await h.token() }))).data.attributes;
const channelView = async () => (await json(await h.request('GET', `/api/media-channels/${f.mediaChannelId}`, { token: await h.token() }))).data.attributes;
const referralCount = async () => (await h.db.select().from(referrals).where(eq(referrals.engagementId, e1))).length;

/** A start through the fixture's channel: its status and body. */
async function start() {
  const res = await h.request('POST', '/api/o-forms/o-form-submissions', {
    body: { data: { type: 'o-form-submissions', attributes: { oFormId: f.oFormId, mediaChannelId: f.mediaChannelId, language: 'en' } } },
  });
  return { status: res.status, body: await json(res) };
}

async function widgetStart() {
  return (await json(await h.request('GET', `/api/o-forms/participant-start?mediaChannelId=${f.mediaChannelId}`))).meta;
}

async function refer() {
  const run = await runQualified(h, f);
  const res = await leaveContact(h, f, run, VALUES);
  expect(res.status, await res.clone().text()).toBe(201);
}

describe('the pause rule', () => {
  const facts = { targetParticipantCount: null, targetMeasure: 'referrals', mediaEndDate: null, endDate: null };
  const now = new Date('2026-12-05T12:00:00Z');
  it('pauses from the day after a date, and at the instant the target was reached; the earliest reason wins', () => {
    expect(pauseOf({ ...facts, endDate: '2026-12-05' }, null, now)).toBeNull();
    expect(pauseOf({ ...facts, endDate: '2026-12-04' }, null, now)).toEqual({
      reason: 'endDate',
      since: '2026-12-05T00:00:00.000Z',
      text: 'paused: end date 2026-12-04 passed',
    });
    expect(pauseOf({ ...facts, targetParticipantCount: 120 }, new Date('2026-12-03T15:00:00Z'), now)).toEqual({
      reason: 'target',
      since: '2026-12-03T15:00:00.000Z',
      text: 'paused: target of 120 referrals reached on 2026-12-03',
    });
    expect(pauseOf({ ...facts, targetParticipantCount: 120, mediaEndDate: '2026-12-01' }, new Date('2026-12-03T15:00:00Z'), now)?.reason).toBe('mediaEndDate');
    expect(pauseOf({ ...facts, targetParticipantCount: 0 }, new Date('2026-12-03T15:00:00Z'), now)).toBeNull();
  });
});

describe('a target of referrals', () => {
  it('pauses the engagement once reached: the next start is notActive, a run under way refers nothing, the views say why', async () => {
    expect((await patchEngagement({ targetParticipantCount: 2 })).status).toBe(200);
    expect((await engagementView()).pause).toBeNull();
    await refer();

    // A run under way before the target is reached...
    const late = await startSubmission(h, f);
    const p1 = await answerPage(h, late.token, late.firstEntryId, { q_choice: 'yes' });
    const p2 = await answerPage(h, late.token, p1.meta.nextContainerEntryId!, { q_dob: '1980-06-15' });

    h.clock.set('2031-03-05T11:00:00.000Z');
    await refer();
    expect(await referralCount()).toBe(2);

    const view = await engagementView();
    expect(view.targetMeasure).toBe('referrals');
    expect(view.pause).toEqual({ reason: 'target', since: '2031-03-05T11:00:00.000Z', text: 'paused: target of 2 referrals reached on 2031-03-05' });
    const channel = await channelView();
    expect(channel.recruitmentPause).toMatchObject({
      isPaused: true,
      engagements: [{ engagementId: e1, reason: 'target', since: '2031-03-05T11:00:00.000Z' }],
    });

    const next = await start();
    expect(next.status).toBe(200);
    expect(next.body.data).toBeNull();
    expect(next.body.meta.outcome).toBe('notActive');
    expect((await widgetStart()).outcome).toBe('notActive');

    // ...finishes as notActive and cannot leave a referral.
    await answerPage(h, late.token, p2.meta.nextContainerEntryId!, { q_zip: '10001', q_conditions: ['a'] });
    const judged = await json(
      await h.request('GET', `/api/o-forms/o-form-submission-qualification/${late.submissionId}`, { headers: { [TOKEN_HEADER]: late.token } }),
    );
    expect(judged.meta).toMatchObject({ isQualified: false, outcome: 'notActive', engagementIds: [] });
    const refused = await leaveContact(h, f, late, VALUES);
    expect(refused.status).toBe(409);
    expect(await referralCount()).toBe(2);
    // Its outcome offers notActive's lead form instead: kept as a lead of that kind, never a referral.
    const form = await json(
      await h.request('GET', `/api/o-forms/o-form-submission-lead-fields/${late.submissionId}`, { headers: { [TOKEN_HEADER]: late.token } }),
    );
    expect(form.meta.outcome).toBe('notActive');
    const kept = await leaveLead(h, late, { values: VALUES, acceptTerms: true });
    expect(kept.status, await kept.clone().text()).toBe(201);
    expect(await leadOf(h, late)).toMatchObject({ kind: 'notActive', engagementIds: f.engagementIds, consentText: form.meta.messages.consent });
    expect(await referralCount()).toBe(2);
  });

  it("offers the notActive lead to a participant who starts while paused, for the screener's engagements, counted as no start", async () => {
    const startedBefore = (await channelView()).submissionsStarted;
    const res = await h.request('GET', `/api/o-forms/participant-start?mediaChannelId=${f.mediaChannelId}`);
    const meta = (await json(res)).meta;
    expect(meta).toMatchObject({ runnable: false, outcome: 'notActive' });
    const run = { submissionId: meta.submissionId as string, token: res.headers.get(TOKEN_HEADER)! };
    const lead = await leadLeft(h, run, { values: { ...VALUES, email: 'pia.paused@example.org', phone: '917-555-0191' }, acceptTerms: true });
    // Kept for the screener's engagements, the paused one among them (its target is what paused it).
    expect(lead).toMatchObject({ kind: 'notActive', engagementIds: f.engagementIds, mediaChannelId: f.mediaChannelId });
    expect((await channelView()).submissionsStarted).toBe(startedBefore);
    // "No thanks": a second participant's start sends nothing more, and no lead is kept for it.
    const declined = await h.request('GET', `/api/o-forms/participant-start?mediaChannelId=${f.mediaChannelId}`);
    expect(await leadOf(h, { submissionId: (await json(declined)).meta.submissionId })).toBeUndefined();
  });

  it('resumes when the target is raised', async () => {
    expect((await patchEngagement({ targetParticipantCount: 3 })).status).toBe(200);
    expect((await engagementView()).pause).toBeNull();
    expect((await channelView()).recruitmentPause).toEqual({ isPaused: false, engagements: [] });
    expect((await start()).status).toBe(201);
    expect((await widgetStart()).runnable).toBe(true);
  });

  it('refuses a measure it does not know, writing nothing', async () => {
    const res = await patchEngagement({ targetMeasure: 'enrolled', targetParticipantCount: 1 });
    expect(res.status).toBe(422);
    expect((await json(res)).errors[0].source.pointer).toBe('/data/attributes/targetMeasure');
    const [row] = await h.db.select().from(engagements).where(eq(engagements.id, e1));
    expect(row).toMatchObject({ targetMeasure: 'referrals', targetParticipantCount: 3 });
  });
});

describe('a target of randomized participants', () => {
  it('counts only referrals that reached randomization, from when the last one did', async () => {
    expect((await patchEngagement({ targetMeasure: 'randomized', targetParticipantCount: 1 })).status).toBe(200);
    expect((await engagementView()).pause).toBeNull();
    expect((await start()).status).toBe(201);
    const [first] = await h.db.select().from(referrals).where(eq(referrals.engagementId, e1)).orderBy(referrals.id);
    await h.db
      .update(referrals)
      .set({ isRandomized: true, status: 'enrolled', statusChanged: new Date('2031-03-05T12:30:00.000Z') })
      .where(eq(referrals.id, first!.id));
    h.clock.set('2031-03-05T13:00:00.000Z');
    expect((await engagementView()).pause).toEqual({
      reason: 'target',
      since: '2031-03-05T12:30:00.000Z',
      text: 'paused: target of 1 randomized participants reached on 2031-03-05',
    });
    expect((await start()).body.meta.outcome).toBe('notActive');
    expect((await patchEngagement({ targetParticipantCount: null, targetMeasure: 'referrals' })).status).toBe(200);
    expect((await start()).status).toBe(201);
  });
});

describe('dates', () => {
  it('an end date passed at the server clock pauses; moving it later resumes', async () => {
    expect((await patchEngagement({ startDate: '2031-01-01', endDate: '2031-03-10' })).status).toBe(200);
    h.clock.set('2031-03-10T23:59:59.000Z');
    expect((await start()).status).toBe(201);
    h.clock.set('2031-03-11T00:00:00.000Z');
    expect((await start()).body.meta.outcome).toBe('notActive');
    expect((await engagementView()).pause).toEqual({ reason: 'endDate', since: '2031-03-11T00:00:00.000Z', text: 'paused: end date 2031-03-10 passed' });
    expect((await patchEngagement({ endDate: '2031-06-30' })).status).toBe(200);
    expect((await start()).status).toBe(201);
  });

  it('a media end date passed pauses too', async () => {
    expect((await patchEngagement({ mediaLiveDate: '2031-01-01', mediaEndDate: '2031-03-01' })).status).toBe(200);
    const next = await start();
    expect(next.body.meta.outcome).toBe('notActive');
    expect((await channelView()).recruitmentPause.engagements[0]).toMatchObject({
      reason: 'mediaEndDate',
      since: '2031-03-02T00:00:00.000Z',
      text: 'paused: media end date 2031-03-01 passed',
    });
    expect((await patchEngagement({ mediaEndDate: null })).status).toBe(200);
    expect((await start()).status).toBe(201);
  });
});

describe('one engagement of two paused', () => {
  it('is no longer a qualification target; the other still is, and the channel reads partly paused', async () => {
    const e2 = f.engagementIds[1];
    await h.db.update(engagements).set({ isActive: true }).where(eq(engagements.id, e2));
    try {
      expect((await patchEngagement({ endDate: '2031-03-01' })).status).toBe(200);
      expect((await start()).status).toBe(201);
      const run = await runQualified(h, f);
      const judged = await json(
        await h.request('GET', `/api/o-forms/o-form-submission-qualification/${run.submissionId}`, { headers: { [TOKEN_HEADER]: run.token } }),
      );
      expect(judged.meta).toMatchObject({ isQualified: true, outcome: 'qualified', engagementIds: [String(e2)] });
      // Only the paused engagement has a site: none is offered, and nothing can be referred to it.
      const sites = await json(
        await h.request('GET', `/api/o-forms/o-form-submission-sites/${run.submissionId}?zip=10001`, { headers: { [TOKEN_HEADER]: run.token } }),
      );
      expect(sites.meta.outcome).toBe('noTrialSites');
      expect(sites.data).toEqual([]);
      expect((await channelView()).recruitmentPause).toMatchObject({ isPaused: false, engagements: [{ engagementId: e1, reason: 'endDate' }] });
    } finally {
      await h.db.update(engagements).set({ isActive: false }).where(eq(engagements.id, e2));
      await patchEngagement({ endDate: null });
    }
  });
});
