/**
 * Self-diagnosis of a partner's snippet: each cause answers the participant start with its own
 * error code and a one-line detail readable by the partner's page (CORS), follows the participant
 * contract, and is recorded per channel, page origin and cause (counted, dated by the server's
 * clock, bounded), listed for staff on the channel in their sponsor scope.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { EMBED_PROBLEMS_KEPT } from '@core/model/embedProblem';
import { checkParticipantAnswer } from '@core/participant/responses';
import { embedProblems, mediaChannels } from '../../../server/db/schema';
import { createParticipantFixture, type ParticipantFixture } from '../../support/participantFixture';
import { useAdminHarness, json, type Harness } from '../harness';

let h: Harness;
let admin: string;

useAdminHarness((server) => ({ h, admin } = server));
afterEach(() => h.clock.release());

const start = async (query: string, origin?: string) => {
  const res = await h.request('GET', `/api/o-forms/participant-start?${query}`, { headers: origin ? { Origin: origin } : {} });
  const body = await json(res);
  checkParticipantAnswer('start', res.status, body);
  return { res, body };
};
const problemsOf = async (channelId: number, token = admin) => {
  const res = await h.request('GET', `/api/media-channels/${channelId}/embed-problems`, { token });
  return { res, body: await json(res) };
};

describe('embed problems', () => {
  let f: ParticipantFixture;
  beforeAll(async () => {
    f = await createParticipantFixture(h.db, { domain: 'partner.example' });
  });
  /** The start from a page of `origin` refused: 403 `code`, readable by that page, naming the channel's domain. Answers the error. */
  const refused = async (origin: string, code: string) => {
    const { res, body } = await start(`mediaChannelId=${f.mediaChannelId}&screenerId=${f.screenerId}`, origin);
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(body.errors[0]).toMatchObject({ code, meta: { domain: 'partner.example' } });
    return body.errors[0];
  };

  it('a page of another origin: 403 origin-not-allowed, readable there, naming the allowed domain; recorded and counted', async () => {
    h.clock.set('2027-03-01T10:00:00Z');
    const error = await refused('https://wrong.example', 'origin-not-allowed');
    expect(error.detail).toContain('https://wrong.example');
    expect(error.detail).toContain('partner.example');
    h.clock.set('2027-03-02T08:30:00Z');
    // Any participant call from there is refused the same way (and counted).
    const page = await h.request('GET', `/api/o-forms/o-form-containers?oFormId=${f.oFormId}&type=firstContainerPerForm&mediaChannelId=${f.mediaChannelId}`, {
      headers: { Origin: 'https://wrong.example:8443' },
    });
    expect(page.status).toBe(403);
    await start(`mediaChannelId=${f.mediaChannelId}&screenerId=${f.screenerId}`, 'https://wrong.example');
    const rows = await h.db.select().from(embedProblems).where(eq(embedProblems.mediaChannelId, f.mediaChannelId));
    expect(rows.map((r) => [r.origin, r.cause, r.count, r.firstSeen.toISOString(), r.lastSeen.toISOString()]).sort()).toEqual([
      ['https://wrong.example', 'origin-not-allowed', 2, '2027-03-01T10:00:00.000Z', '2027-03-02T08:30:00.000Z'],
      ['https://wrong.example:8443', 'origin-not-allowed', 1, '2027-03-02T08:30:00.000Z', '2027-03-02T08:30:00.000Z'],
    ]);
    // The channel's own domain still runs.
    expect((await start(`mediaChannelId=${f.mediaChannelId}&screenerId=${f.screenerId}`, 'https://partner.example')).body.meta.runnable).toBe(true);
  });

  it('a page without an origin (sandboxed iframe: Origin null): 403 origin-opaque saying why, recorded', async () => {
    h.clock.set('2027-03-03T09:00:00Z');
    expect((await refused('null', 'origin-opaque')).detail).toContain('allow-same-origin');
    const rows = await h.db
      .select()
      .from(embedProblems)
      .where(and(eq(embedProblems.mediaChannelId, f.mediaChannelId), eq(embedProblems.cause, 'origin-opaque')));
    expect(rows.map((r) => [r.origin, r.count, r.lastSeen.toISOString()])).toEqual([['null', 1, '2027-03-03T09:00:00.000Z']]);
  });

  it('an unknown channel: 404 channel-unknown, readable from any page, recorded nowhere', async () => {
    const before = (await h.db.select().from(embedProblems)).length;
    for (const origin of ['https://partner.example', undefined]) {
      const { res, body } = await start('mediaChannelId=987654&screenerId=1', origin);
      expect(res.status).toBe(404);
      expect(body.errors[0].code).toBe('channel-unknown');
      expect(body.errors[0].detail).toContain('987654');
      if (origin) expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    }
    expect((await h.db.select().from(embedProblems)).length).toBe(before);
  });

  it('a screener that is not the channel’s: 409 screener-mismatch naming the right one; recorded', async () => {
    const { res, body } = await start(`mediaChannelId=${f.mediaChannelId}&screenerId=${f.screenerId + 1000}`, 'https://partner.example');
    expect(res.status).toBe(409);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://partner.example');
    expect(body.errors[0]).toMatchObject({ code: 'screener-mismatch', meta: { screenerId: String(f.screenerId) } });
    expect(body.errors[0].detail).toContain(`data-screener-id="${f.screenerId}"`);
    const listed = (await problemsOf(f.mediaChannelId)).body.data.map((r: any) => r.attributes);
    expect(listed).toContainEqual(expect.objectContaining({ origin: 'https://partner.example', cause: 'screener-mismatch', count: 1 }));
  });

  it('a channel switched off: notActive for the participant, the problem for the console; recorded from a partner page only', async () => {
    const off = await createParticipantFixture(h.db, { domain: 'off.example', channelActive: false });
    const { res, body } = await start(`mediaChannelId=${off.mediaChannelId}&screenerId=${off.screenerId}`, 'https://off.example');
    expect(res.status).toBe(200);
    expect(body.meta).toMatchObject({ runnable: false, outcome: 'notActive', problem: { code: 'channel-inactive' } });
    // Without an Origin (the product's own page, a script): answered, not recorded.
    await start(`mediaChannelId=${off.mediaChannelId}&screenerId=${off.screenerId}`);
    const listed = (await problemsOf(off.mediaChannelId)).body.data.map((r: any) => r.attributes);
    expect(listed).toEqual([
      expect.objectContaining({ mediaChannelId: off.mediaChannelId, origin: 'https://off.example', cause: 'channel-inactive', count: 1 }),
    ]);
    // A survey switched off is not the webmaster's problem: no problem named.
    const formOff = await createParticipantFixture(h.db, { formActive: false });
    expect(
      (await start(`mediaChannelId=${formOff.mediaChannelId}&screenerId=${formOff.screenerId}`, 'https://partner.example')).body.meta.problem,
    ).toBeUndefined();
  });

  it('lists the last distinct problems, most recent first, bounded per channel; staff in scope only', async () => {
    const g = await createParticipantFixture(h.db, { domain: 'bounded.example' });
    for (let i = 0; i < EMBED_PROBLEMS_KEPT + 5; i++) {
      h.clock.set(new Date(Date.UTC(2027, 4, 1, 0, i)).toISOString());
      await start(`mediaChannelId=${g.mediaChannelId}`, `https://site${i}.example`);
    }
    // Staff read it now (their sign-in is dated by the real clock).
    h.clock.release();
    const { res, body } = await problemsOf(g.mediaChannelId);
    expect(res.status).toBe(200);
    expect(body.meta.total).toBe(EMBED_PROBLEMS_KEPT);
    expect(body.data[0]).toMatchObject({
      type: 'embed-problems',
      attributes: { origin: `https://site${EMBED_PROBLEMS_KEPT + 4}.example`, lastSeen: '2027-05-01T00:24:00.000Z' },
    });
    expect(body.data.map((r: any) => r.attributes.origin)).not.toContain('https://site4.example');
    expect(body.data.map((r: any) => r.attributes.origin)).toContain('https://site5.example');

    await h.createUser({ username: 'embed-other', roles: ['User'], sponsorIds: [f.sponsorId] });
    const other = await h.token('embed-other', 'a-good-password');
    expect((await problemsOf(g.mediaChannelId, other)).res.status).toBe(404);
    expect((await problemsOf(f.mediaChannelId, other)).res.status).toBe(200);
    expect((await h.request('GET', `/api/media-channels/${g.mediaChannelId}/embed-problems`)).status).toBe(401);
    // A deleted channel takes its problems with it.
    await h.db.delete(mediaChannels).where(eq(mediaChannels.id, g.mediaChannelId));
    expect(await h.db.select().from(embedProblems).where(eq(embedProblems.mediaChannelId, g.mediaChannelId))).toEqual([]);
  });
});
