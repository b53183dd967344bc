/**
 * The recruiters' daily digest, on the real database with a real SMTP server (smtp-server on
 * 127.0.0.1, parsed with mailparser) and an injected clock: nothing before MESSAGE_DIGEST_HOUR;
 * from it one mail per recruiter a day, however often it is written, counting the referrals made
 * in the last day and those overdue (the work queue's rule) by site, with no participant in it;
 * nothing for an engagement with the digest off; the server's message loop writes and sends it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { seedDemoRun } from '../../../server/demo';
import { engagementMessageSettings, engagements, engagementSiteLocations, messages, referrals, sponsors, users } from '../../../server/db/schema';
import { enqueueDigests } from '../../../server/messages/digest';
import { messageContextOf } from '../../../server/messages';
import { messageOptionsOf, sendDue, startMessageWorker } from '../../../server/messages/worker';
import { createHarness, type Harness } from '../harness';
import { mailEnv, useMessageReceiver } from './messageReceiver';
import { startSmtpReceiver, type SmtpReceiver } from '../../support/smtpReceiver';

const HOUR = 3600_000;
const T0 = new Date('2031-05-06T07:00:00.000Z');
const RECRUITER_EMAIL = 'digest.recruiter@northwind.example';
const silentLog = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

let smtp: SmtpReceiver;
let h: Harness;
let engagementId: number;
let links: number[];

const deps = () => ({ db: h.db, config: h.config, jwtSecret: h.jwtSecret, log: silentLog, phi: h.phi, clock: h.clock });
const digestAt = (at: Date) => {
  h.clock.set(at);
  return enqueueDigests(h.db, messageContextOf(deps()), at, 7);
};
const refer = (link: number, created: Date, extra: Partial<typeof referrals.$inferInsert> = {}) =>
  h.db.insert(referrals).values({ engagementId, engagementSiteLocationId: link, created, ...extra });

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  h = await createHarness(mailEnv(smtp, { MESSAGE_DIGEST_HOUR: '7' }));
  await seedDemoRun(h.db, T0);
  const [engagement] = await h.db.select().from(engagements).where(eq(engagements.identification, 'DEMO-HEART'));
  engagementId = engagement!.id;
  links = (
    await h.db.select().from(engagementSiteLocations).where(eq(engagementSiteLocations.engagementId, engagementId)).orderBy(engagementSiteLocations.id)
  ).map((l) => l.id);
  const [sponsor] = await h.db.select().from(sponsors).where(eq(sponsors.identification, 'NWT'));
  const recruiter = await h.createUser({ username: 'digest.recruiter', roles: ['User'], sponsorIds: [sponsor!.id] });
  await h.db.update(users).set({ email: RECRUITER_EMAIL }).where(eq(users.id, recruiter));
  // New in the last day at the first site; overdue (made 72 h ago, first contact due in 48) at the second; one reached long ago counts for nothing.
  await refer(links[0]!, new Date(T0.getTime() - 2 * HOUR));
  await refer(links[0]!, new Date(T0.getTime() - 5 * HOUR));
  await refer(links[1]!, new Date(T0.getTime() - 72 * HOUR));
  await refer(links[1]!, new Date(T0.getTime() - 72 * HOUR), { status: 'contacted', firstContactAt: new Date(T0.getTime() - 70 * HOUR) });
});

useMessageReceiver(() => ({ h, receiver: smtp }));

describe('the daily digest', () => {
  it('waits for its hour, then goes once to each recruiter with the counts by site and nobody in it', async () => {
    expect(await digestAt(new Date(T0.getTime() - 60_000))).toBe(0);
    expect(await digestAt(T0)).toBe(1);
    // Written again (another pass, another process): still one.
    expect(await digestAt(new Date(T0.getTime() + 10 * 60_000))).toBe(0);
    await sendDue(messageOptionsOf(deps()));
    const mine = smtp.received.filter((m) => m.to.includes(RECRUITER_EMAIL));
    expect(mine).toHaveLength(1);
    const mail = mine[0]!;
    expect(mail.parsed.subject).toBe('Referrals on 2031-05-06: 2 new, 1 overdue');
    expect(mail.parsed.text).toContain('Midtown Heart Center: 2 new, 0 overdue');
    expect(mail.parsed.text).toMatch(/: 0 new, 1 overdue/);
    expect(mail.parsed.text).toContain('https://recruit.example/referrals');
    expect(mail.parsed.messageId).toMatch(/^<digest\.\d+\.2031-05-06@recruit\.example>$/);
    expect(mail.raw).not.toMatch(/List-Unsubscribe/i);
    // Only recruiters: the demo's site coordinator gets none.
    expect(smtp.received.filter((m) => m.to.includes('coordinator@midtown-heart.example'))).toHaveLength(0);
  });

  it('comes again the next day, and not for an engagement with the digest off', async () => {
    expect(await digestAt(new Date(T0.getTime() + 24 * HOUR + 30 * 60_000))).toBe(1);
    await h.db
      .update(engagementMessageSettings)
      .set({ isEnabled: false })
      .where(and(eq(engagementMessageSettings.engagementId, engagementId), eq(engagementMessageSettings.kind, 'recruiterDigest')));
    expect(await digestAt(new Date(T0.getTime() + 48 * HOUR))).toBe(0);
    const digests = await h.db.select().from(messages).where(eq(messages.kind, 'recruiterDigest'));
    expect(digests.map((d) => d.recipientLabel)).toEqual(['digest.recruiter', 'digest.recruiter']);
  });

  it("is written and sent by the server's message loop once the hour has come", async () => {
    await h.db
      .update(engagementMessageSettings)
      .set({ isEnabled: true })
      .where(and(eq(engagementMessageSettings.engagementId, engagementId), eq(engagementMessageSettings.kind, 'recruiterDigest')));
    const day3 = new Date(T0.getTime() + 72 * HOUR);
    await refer(links[0]!, new Date(day3.getTime() - HOUR));
    h.clock.set(day3);
    const worker = startMessageWorker(messageOptionsOf(deps()), 50);
    try {
      await expect.poll(() => smtp.received.filter((m) => m.parsed.messageId?.includes('.2031-05-09@')).length, { timeout: 10_000 }).toBe(1);
    } finally {
      await worker.stop();
    }
    expect(smtp.received.find((m) => m.parsed.messageId?.includes('.2031-05-09@'))!.parsed.subject).toBe('Referrals on 2031-05-09: 1 new, 3 overdue');
  });
});
