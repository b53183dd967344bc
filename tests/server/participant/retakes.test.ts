/**
 * One run per participant and channel: a reloaded widget asks GET /o-form-submission-outcome/{id}
 * where its run stands (each outcome, when it was reached, and whether the channel's retake
 * window still holds), and the participant start names the channel's window. The instants are
 * the server clock's, stated by the test.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { checkParticipantAnswer } from '@core/participant/responses';
import { mediaChannels, oFormSubmissions } from '../../../server/db/schema';
import { settleDeliveries } from '../../../server/rms/worker';
import { json, JSON_API, type Harness } from '../harness';
import {
  answerPage,
  createParticipantFixture,
  runQualified,
  startSubmission,
  TOKEN_HEADER,
  type ParticipantFixture,
  type ParticipantRequester,
} from '../../support/participantFixture';
import { contactOf, useParticipantServer } from '../participantServer';

const DAY = 24 * 3600 * 1000;
const T0 = new Date('2031-05-04T09:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

let h: Harness;
let f: ParticipantFixture;

useParticipantServer((server) => ({ h, f } = server));
afterEach(() => h.clock.release());

const outcomeOf = async (submissionId: string, token: string | null, query = '') => {
  const res = await h.request('GET', `/api/o-forms/o-form-submission-outcome/${submissionId}${query}`, {
    headers: token === null ? {} : { [TOKEN_HEADER]: token },
  });
  const body = await json(res);
  checkParticipantAnswer('outcome', res.status, body);
  return { status: res.status, body };
};
const qualification = (submissionId: string, token: string) =>
  h.request('GET', `/api/o-forms/o-form-submission-qualification/${submissionId}`, { headers: { [TOKEN_HEADER]: token } });

/** A run answered to the survey's end with `choice` on page 1 (no: disqualifies), its qualification asked. */
async function runTo(choice: 'yes' | 'no', client: ParticipantRequester = h, fixture: ParticipantFixture = f) {
  const { submissionId, token, firstEntryId } = await startSubmission(client, fixture);
  const p1 = await answerPage(client, token, firstEntryId, { q_choice: choice });
  const p2 = await answerPage(client, token, p1.meta.nextContainerEntryId!, { q_dob: '1980-06-15' });
  await answerPage(client, token, p2.meta.nextContainerEntryId!, { q_zip: '10001' });
  expect((await qualification(submissionId, token)).status).toBe(200);
  return { submissionId, token };
}

/** The participant API as called from the client address `address` (the connection's peer). */
const from = (address: string): ParticipantRequester => ({
  request: async (method, path, options = {}) => {
    const headers: Record<string, string> = { Accept: JSON_API, ...options.headers };
    if (options.body !== undefined) headers['Content-Type'] = JSON_API;
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    return h.app.request(
      path,
      { method, headers, body },
      { incoming: { socket: { remoteAddress: address, remotePort: 5000, remoteFamily: address.includes(':') ? 'IPv6' : 'IPv4' } } },
    );
  },
});

describe('the participant start', () => {
  it("names the channel's events policy for the widget (none without a channel)", async () => {
    const start = async (query: string) => (await json(await h.request('GET', `/api/o-forms/participant-start?${query}`))).meta;
    expect((await start(`mediaChannelId=${f.mediaChannelId}`)).eventsPolicy).toBe('minimal');
    await h.db.update(mediaChannels).set({ eventsPolicy: 'detailed' }).where(eq(mediaChannels.id, f.mediaChannelId));
    expect((await start(`mediaChannelId=${f.mediaChannelId}`)).eventsPolicy).toBe('detailed');
    await h.db.update(mediaChannels).set({ eventsPolicy: 'minimal' }).where(eq(mediaChannels.id, f.mediaChannelId));
    expect((await start(`screenerId=${f.screenerId}`)).eventsPolicy).toBe('none');
  });

  it("names the channel's retake window (0 without a channel)", async () => {
    const start = async (query: string) => (await json(await h.request('GET', `/api/o-forms/participant-start?${query}`))).meta;
    expect((await start(`mediaChannelId=${f.mediaChannelId}`)).retakeWindowDays).toBe(30);
    await h.db.update(mediaChannels).set({ retakeWindowDays: 7 }).where(eq(mediaChannels.id, f.mediaChannelId));
    expect((await start(`mediaChannelId=${f.mediaChannelId}`)).retakeWindowDays).toBe(7);
    await h.db.update(mediaChannels).set({ retakeWindowDays: 30 }).where(eq(mediaChannels.id, f.mediaChannelId));
    expect((await start(`oFormIdentity=${f.oFormIdentity}`)).retakeWindowDays).toBe(0);
  });
});

describe('GET /o-form-submission-outcome/{id}', () => {
  it('answers incomplete for a run without an outcome, outside any window', async () => {
    h.clock.set(T0);
    const { submissionId, token } = await startSubmission(h, f);
    const { status, body } = await outcomeOf(submissionId, token);
    expect(status).toBe(200);
    expect(body.meta).toMatchObject({
      outcome: 'incomplete',
      isQualified: null,
      finishedAt: null,
      retakeWindowDays: 30,
      retakeWindowEnds: null,
      withinRetakeWindow: false,
    });
    expect(body.meta.messages.contactForm).toMatch(/not been answered yet/);
  });

  it('answers notQualified with its instant and the window, again after a reload, until the window ends', async () => {
    h.clock.set(T0);
    const { submissionId, token } = await runTo('no');
    const first = await outcomeOf(submissionId, token);
    expect(first.body.meta).toMatchObject({
      outcome: 'notQualified',
      isQualified: false,
      finishedAt: T0.toISOString(),
      retakeWindowDays: 30,
      retakeWindowEnds: at(30 * DAY).toISOString(),
      withinRetakeWindow: true,
    });
    expect(first.body.meta.messages.contactForm).toContain('Not a match');
    h.clock.set(at(30 * DAY - 1));
    expect((await outcomeOf(submissionId, token)).body.meta.withinRetakeWindow).toBe(true);
    h.clock.set(at(30 * DAY));
    expect((await outcomeOf(submissionId, token)).body.meta).toMatchObject({ outcome: 'notQualified', withinRetakeWindow: false });
  });

  it('answers qualified, noTrialSites and completed as the run goes on, the instant staying the first outcome', async () => {
    h.clock.set(T0);
    const { submissionId, token } = await runQualified(h, f);
    expect((await qualification(submissionId, token)).status).toBe(200);
    expect((await outcomeOf(submissionId, token)).body.meta).toMatchObject({
      outcome: 'qualified',
      isQualified: true,
      finishedAt: T0.toISOString(),
      withinRetakeWindow: true,
    });

    h.clock.set(at(60_000));
    const far = await h.request('GET', `/api/o-forms/o-form-submission-sites/${submissionId}?zip=99501`, { headers: { [TOKEN_HEADER]: token } });
    expect((await json(far)).meta.outcome).toBe('noTrialSites');
    expect((await outcomeOf(submissionId, token)).body.meta).toMatchObject({ outcome: 'noTrialSites', finishedAt: T0.toISOString(), withinRetakeWindow: true });

    const contact = await h.request('POST', `/api/o-forms/o-form-submission-contact/${submissionId}`, {
      headers: { [TOKEN_HEADER]: token },
      body: {
        data: {
          attributes: { engagementId: f.engagementIds[0], values: { first_name: 'Ann', email: 'ann@example.com', phone: '212-555-0100' }, acceptTerms: true },
        },
      },
    });
    expect(contact.status, await contact.clone().text()).toBe(201);
    expect((await outcomeOf(submissionId, token)).body.meta).toMatchObject({
      outcome: 'completed',
      isQualified: true,
      finishedAt: T0.toISOString(),
      withinRetakeWindow: true,
    });
  });

  it('holds no window on a channel set to 0 (retakes allowed)', async () => {
    const testing = await createParticipantFixture(h.db);
    await h.db.update(mediaChannels).set({ retakeWindowDays: 0 }).where(eq(mediaChannels.id, testing.mediaChannelId));
    h.clock.set(T0);
    const { submissionId, token } = await startSubmission(h, testing);
    await h.db
      .update(oFormSubmissions)
      .set({ outcome: 'notQualified', isQualified: false, finishedAt: T0 })
      .where(eq(oFormSubmissions.id, Number(submissionId)));
    expect((await outcomeOf(submissionId, token)).body.meta).toMatchObject({
      outcome: 'notQualified',
      retakeWindowDays: 0,
      retakeWindowEnds: null,
      withinRetakeWindow: false,
    });
  });

  it("refuses without a token (401), with another run's token, an unknown or a malformed id (404), as JSON:API errors", async () => {
    const { submissionId, token } = await startSubmission(h, f);
    const other = await startSubmission(h, f);
    const missing = await outcomeOf(submissionId, null);
    expect(missing.status).toBe(401);
    expect(missing.body.errors[0].detail).toBe('Cannot get page entry data without a submission access token');
    expect((await outcomeOf(submissionId, other.token)).status).toBe(404);
    expect((await outcomeOf(submissionId, 'x'.repeat(43))).status).toBe(404);
    expect((await outcomeOf('2147483000', token)).status).toBe(404);
    for (const bad of ['abc', '0', '-1', '99999999999']) {
      const res = await outcomeOf(bad, token);
      expect(res.status, bad).toBe(404);
      expect(res.body.errors[0].status).toBe('404');
    }
  });
});

describe('possible retakes', () => {
  const row = async (submissionId: string) =>
    (
      await h.db
        .select()
        .from(oFormSubmissions)
        .where(eq(oFormSubmissions.id, Number(submissionId)))
    )[0]!;
  const figures = async (channelId: number) =>
    (await json(await h.request('GET', `/api/media-channels/${channelId}`, { token: await h.token() }))).data.attributes as {
      submissionsStarted: number;
      possibleRetakes: number;
    };

  it('flags a run from the same address and channel as a run finished within the window, and counts it apart', async () => {
    const g = await createParticipantFixture(h.db);
    const other = await createParticipantFixture(h.db);
    h.clock.set(T0);
    // Started but never finished: nothing to retake yet.
    const unfinished = await startSubmission(from('203.0.113.7'), g);
    expect((await row(unfinished.submissionId)).possibleRetake).toBe(false);
    expect((await row((await startSubmission(from('203.0.113.7'), g)).submissionId)).possibleRetake).toBe(false);

    const first = await runTo('no', from('203.0.113.7'), g);
    const stored = await row(first.submissionId);
    expect(stored.possibleRetake).toBe(false);
    // Only a keyed hash of the address is kept.
    expect(stored.clientMatch).toMatch(/^[\w-]{43}$/);
    expect(JSON.stringify(stored)).not.toContain('203.0.113.7');
    const before = await figures(g.mediaChannelId);

    h.clock.set(at(10 * DAY));
    const again = await startSubmission(from('203.0.113.7'), g);
    expect((await row(again.submissionId)).possibleRetake).toBe(true);
    // The same address as IPv4-mapped IPv6 is the same client.
    expect((await row((await startSubmission(from('::ffff:203.0.113.7'), g)).submissionId)).possibleRetake).toBe(true);
    // Another address, another channel: no.
    const unflaggedOther = await startSubmission(from('203.0.113.8'), g);
    expect((await row(unflaggedOther.submissionId)).possibleRetake).toBe(false);
    expect((await row((await startSubmission(from('203.0.113.7'), other)).submissionId)).possibleRetake).toBe(false);
    // Many at once: each is counted in both figures once its first page is saved, none lost (both
    // figures of a first save go to one shard row); the four above never saved one.
    const more = await Promise.all(
      Array.from({ length: 14 }, async () => {
        const run = await startSubmission(from('203.0.113.7'), g);
        expect((await answerPage(from('203.0.113.7'), run.token, run.firstEntryId, { q_choice: 'yes' })).status).toBe(200);
        return run;
      }),
    );
    for (const run of more) expect((await row(run.submissionId)).possibleRetake).toBe(true);
    expect(await figures(g.mediaChannelId)).toMatchObject({ submissionsStarted: before.submissionsStarted + 14, possibleRetakes: before.possibleRetakes + 14 });
    expect((await answerPage(from('203.0.113.8'), unflaggedOther.token, unflaggedOther.firstEntryId, { q_choice: 'yes' })).status).toBe(200);
    expect(await figures(g.mediaChannelId)).toMatchObject({ submissionsStarted: before.submissionsStarted + 15, possibleRetakes: before.possibleRetakes + 14 });
    expect((await figures(other.mediaChannelId)).possibleRetakes).toBe(0);

    // The flagged run's own outcome is its own: its participant is shown it like anyone's.
    expect((await outcomeOf(again.submissionId, again.token)).body.meta.outcome).toBe('incomplete');

    // Once the window has ended, a run from that address is an ordinary one.
    h.clock.set(at(30 * DAY + 1));
    expect((await row((await startSubmission(from('203.0.113.7'), g)).submissionId)).possibleRetake).toBe(false);
  });

  it("shows the flag on the contact's RMS audits and in their CSV", async () => {
    const g = await createParticipantFixture(h.db);
    h.clock.set(T0);
    await runTo('no', from('192.0.2.44'), g);
    h.clock.set(at(2 * DAY));
    const leave = async (client: ParticipantRequester, email: string) => {
      const { submissionId, token } = await runTo('yes', client, g);
      const res = await client.request('POST', `/api/o-forms/o-form-submission-contact/${submissionId}`, {
        headers: { [TOKEN_HEADER]: token },
        body: { data: { attributes: { engagementId: g.engagementIds[0], values: { first_name: 'Ann', email, phone: '212-555-0100' }, acceptTerms: true } } },
      });
      expect(res.status, await res.text()).toBe(201);
      return (await contactOf(h, { submissionId }))!.id;
    };
    const retaken = await leave(from('192.0.2.44'), 'again@example.com');
    const fresh = await leave(from('192.0.2.45'), 'fresh@example.com');
    await settleDeliveries();
    const token = await h.token();
    for (const [contactId, flagged] of [
      [retaken, true],
      [fresh, false],
    ] as const) {
      const list = await json(await h.request('GET', `/api/rms-audits?contactId=${contactId}`, { token }));
      expect(list.data.length, `audits of contact ${contactId}`).toBeGreaterThan(0);
      expect(list.data.every((a: { attributes: { possibleRetake: boolean } }) => a.attributes.possibleRetake === flagged)).toBe(true);
    }
    const csv = await h.request('GET', `/api/rms-audits?contactId=${retaken}&fields=contactId,possibleRetake`, { token, headers: { Accept: 'text/csv' } });
    const lines = (await csv.text()).trim().split(/\r\n/);
    expect(lines[0]).toBe('id,contactId,possibleRetake');
    expect(lines[1]!.split(',').slice(1)).toEqual([String(retaken), 'true']);
  });

  it("flags a run started up to the window's last instant, and none from its end on (the channel's own window)", async () => {
    const flaggedAt = async (g: ParticipantFixture, address: string, instant: Date) => {
      h.clock.set(instant);
      return (await row((await startSubmission(from(address), g)).submissionId)).possibleRetake;
    };
    // The default window (30 days) and a channel's own (7), each on both sides of its end.
    const month = await createParticipantFixture(h.db);
    h.clock.set(T0);
    await runTo('no', from('192.0.2.71'), month);
    expect(await flaggedAt(month, '192.0.2.71', at(29 * DAY))).toBe(true);
    expect(await flaggedAt(month, '192.0.2.71', at(30 * DAY - 1000))).toBe(true);
    expect(await flaggedAt(month, '192.0.2.71', at(30 * DAY))).toBe(false);
    const week = await createParticipantFixture(h.db);
    await h.db.update(mediaChannels).set({ retakeWindowDays: 7 }).where(eq(mediaChannels.id, week.mediaChannelId));
    h.clock.set(T0);
    await runTo('no', from('192.0.2.72'), week);
    expect(await flaggedAt(week, '192.0.2.72', at(7 * DAY - 1000))).toBe(true);
    expect(await flaggedAt(week, '192.0.2.72', at(7 * DAY))).toBe(false);
    // A run finished after the start's instant (the clock set back) is no earlier run to retake.
    expect(await flaggedAt(week, '192.0.2.72', at(-1000))).toBe(false);
  });

  it('flags nothing on a channel that allows retakes (window 0)', async () => {
    const testing = await createParticipantFixture(h.db);
    await h.db.update(mediaChannels).set({ retakeWindowDays: 0 }).where(eq(mediaChannels.id, testing.mediaChannelId));
    h.clock.set(T0);
    await runTo('no', from('198.51.100.9'), testing);
    h.clock.set(at(DAY));
    expect((await row((await startSubmission(from('198.51.100.9'), testing)).submissionId)).possibleRetake).toBe(false);
    expect((await figures(testing.mediaChannelId)).possibleRetakes).toBe(0);
  });
});
