/**
 * The message outbox survives a crash: a server (`server/start.mjs`, as `npm start` runs it,
 * embedded PGlite) is killed (-9) while the mail server holds the answers to its messages; the
 * restarted server sends every message again under its own Message-ID once the dead process's
 * lease has run out, and the mail server (smtp-server on 127.0.0.1) takes each exactly once.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MESSAGE_KINDS } from '@core/model/message';
import { engagementMessageSettings, engagementSiteLocations, roles, userRoles, userSiteLocations, users } from '../../server/db/schema';
import { createParticipantFixture, type ParticipantFixture } from '../support/participantFixture';
import { startSmtpReceiver } from '../support/smtpReceiver';
import { useCleanups } from '../support/cleanups';
import { prepareDataDir, startServer } from './server';
import { leaveQualifiedContact } from './qualifiedContact';

const cleanups = useCleanups();

describe('the message outbox across a crash', () => {
  it('delivers every message exactly once after a kill -9 in the middle of sending', async () => {
    const smtp = await startSmtpReceiver();
    cleanups.push(smtp.close);
    let release!: () => void;
    smtp.hold = new Promise<void>((resolve) => (release = resolve));

    const dataDir = fs.mkdtempSync(`${process.env.TMPDIR ?? '/tmp'}/trial-messages-`);
    cleanups.removeDir(dataDir);
    let fixture!: ParticipantFixture;
    await prepareDataDir(dataDir, async (db) => {
      fixture = await createParticipantFixture(db);
      const engagementId = fixture.engagementIds[0];
      await db.insert(engagementMessageSettings).values(MESSAGE_KINDS.map((kind) => ({ engagementId, kind, isEnabled: true, delayMinutes: 0 })));
      const [link] = await db
        .select()
        .from(engagementSiteLocations)
        .where(eq(engagementSiteLocations.id, Number(fixture.engagementSiteLocationId)));
      const [role] = await db.select().from(roles).where(eq(roles.name, 'Site Coordinator'));
      const [coordinator] = await db.insert(users).values({ username: 'crash.coordinator', email: 'crash.coordinator@site.example' }).returning();
      await db.insert(userRoles).values({ userId: coordinator!.id, roleId: role!.id });
      await db.insert(userSiteLocations).values({ userId: coordinator!.id, siteLocationId: link!.siteLocationId });
    });
    const env = {
      SMTP_URL: smtp.url,
      SMTP_TIMEOUT_SECONDS: '3',
      MESSAGE_RETRY_SCHEDULE: '1,1,1',
      PARTICIPANT_SUBMISSIONS_PER_ADDRESS: '0',
      PARTICIPANT_PAGES_PER_ADDRESS: '0',
    };

    const first = await startServer({ dataDir, env });
    cleanups.push(first.stop);
    const referrals = 3;
    for (let i = 0; i < referrals; i++) await leaveQualifiedContact(first, fixture, `lee.crash${i}@example.com`);
    // Each referral: its coordinator's mail and the participant's confirmation (the reminder is not due).
    const expected = referrals * 2;
    // Killed while the mail server holds the answers: the data was sent, the 250 never came.
    await expect.poll(() => smtp.held, { timeout: 20_000, interval: 100 }).toBeGreaterThanOrEqual(1);
    process.kill(first.pid, 'SIGKILL');
    await first.exited;
    await new Promise((resolve) => setTimeout(resolve, 300));
    smtp.hold = null;
    release();
    expect(smtp.received).toHaveLength(0);

    const second = await startServer({ dataDir, env });
    cleanups.push(second.stop);
    await expect.poll(() => smtp.received.length, { timeout: 60_000, interval: 250 }).toBeGreaterThanOrEqual(expected);
    // A little longer, so a duplicate would have time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(smtp.abandoned).toBeGreaterThanOrEqual(1);
    expect(smtp.received).toHaveLength(expected);
    expect(new Set(smtp.received.map((m) => m.parsed.messageId)).size).toBe(expected);
    expect(smtp.received.filter((m) => m.to.includes('crash.coordinator@site.example'))).toHaveLength(referrals);
    await second.stop();
  }, 180_000);
});
