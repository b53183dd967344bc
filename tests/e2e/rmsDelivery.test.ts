/**
 * Durable record-system delivery with real server processes (`server/start.mjs`, as `npm start`
 * runs it) and a real local receiver, retries on a shortened RMS_RETRY_SCHEDULE:
 *
 * - a server killed (-9) in the middle of the schedule delivers after its restart, nobody
 *   pressing Resend (embedded PGlite, one DATA_DIR);
 * - two servers on one PostgreSQL make every attempt exactly once: each referral reaches the
 *   receiver twice (the failed first attempt, then the accepted retry), never more.
 */
import fs from 'node:fs';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { openDatabase } from '../../server/db/open';
import { engagements, rmsProviders } from '../../server/db/schema';
import type { Db } from '../../server/db/open';
import { createParticipantFixture, type ParticipantFixture } from '../support/participantFixture';
import { newWebhookSecret, verifyStandardWebhook } from '../support/standardWebhooks';
import { useCleanups } from '../support/cleanups';
import { freePort, prepareDataDir, startServer } from './server';
import { leaveQualifiedContact } from './qualifiedContact';
import { postgresReachable } from './postgres';
import { sharedPostgres } from './sharedPostgres';

const postgres = await postgresReachable();
const SECRET = newWebhookSecret();

interface Hit {
  id: string;
  accepted: boolean;
  verified: boolean;
}

/** A receiver that refuses each referral's first attempt (503) and accepts the ones after. */
async function flakyReceiver() {
  const hits: Hit[] = [];
  const seen = new Set<string>();
  let failAll = false;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      void (async () => {
        const id = String(req.headers['webhook-id']);
        const verified = await verifyStandardWebhook(SECRET, req.headers, body, Date.now() / 1000);
        const accepted = !failAll && seen.has(id);
        seen.add(id);
        hits.push({ id, accepted, verified });
        res.writeHead(accepted ? 200 : 503, { 'Content-Type': 'text/plain' }).end(accepted ? 'ok' : 'busy');
      })();
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    hits,
    endpoint: `http://127.0.0.1:${port}/referrals`,
    setFailAll: (value: boolean) => {
      failAll = value;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function useWebhook(db: Db, fixture: ParticipantFixture, endpoint: string) {
  // Written as staff set it by hand before secrets were sealed: the server seals it on start.
  const [provider] = await db
    .insert(rmsProviders)
    .values({ name: `Receiver ${randomBytes(3).toString('hex')}`, kind: 'webhook', endpointUrl: endpoint, signingSecret: SECRET, timeoutMs: 10_000 })
    .returning();
  await db.update(engagements).set({ rmsProviderId: provider!.id }).where(eq(engagements.id, fixture.engagementIds[0]));
}

const cleanups = useCleanups({ eachTest: true });

describe('durable delivery', () => {
  it('delivers after a restart in the middle of the retry schedule, with nobody pressing Resend', async () => {
    const receiver = await flakyReceiver();
    cleanups.push(receiver.close);
    receiver.setFailAll(true);
    let fixture!: ParticipantFixture;
    const dataDir = fs.mkdtempSync(`${process.env.TMPDIR ?? '/tmp'}/trial-rms-`);
    cleanups.removeDir(dataDir);
    await prepareDataDir(dataDir, async (db) => {
      fixture = await createParticipantFixture(db);
      await useWebhook(db, fixture, receiver.endpoint);
    });
    const env = { RMS_RETRY_SCHEDULE: '3,3,3', PARTICIPANT_SUBMISSIONS_PER_ADDRESS: '0', PARTICIPANT_PAGES_PER_ADDRESS: '0' };
    const first = await startServer({ dataDir, env });
    cleanups.push(first.stop);
    await leaveQualifiedContact(first, fixture, 'lee.restart@example.com');
    await expect.poll(() => receiver.hits.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    // Killed while the retry is scheduled, not yet made: the failed attempt has had time to be
    // recorded (an attempt cut off before that is retried once its lease runs out, a minute on).
    await new Promise((resolve) => setTimeout(resolve, 1000));
    process.kill(first.pid, 'SIGKILL');
    await first.exited;
    receiver.setFailAll(false);

    const second = await startServer({ dataDir, env });
    cleanups.push(second.stop);
    await expect.poll(() => receiver.hits.some((hit) => hit.accepted), { timeout: 20_000, interval: 200 }).toBe(true);
    expect(receiver.hits.every((hit) => hit.verified)).toBe(true);
    expect(new Set(receiver.hits.map((hit) => hit.id)).size).toBe(1);
    expect(receiver.hits.filter((hit) => hit.accepted)).toHaveLength(1);
    await second.stop();

    // The secret written in clear before the first start was sealed by it.
    const database = await openDatabase({ databaseUrl: null, dataDir });
    try {
      const stored = await database.db.select({ secret: rmsProviders.signingSecret }).from(rmsProviders).where(eq(rmsProviders.endpointUrl, receiver.endpoint));
      expect(stored).toHaveLength(1);
      expect(stored[0]!.secret).toMatch(/^phi1\./);
      expect(stored[0]!.secret).not.toContain(SECRET.slice(6));
    } finally {
      await database.close();
    }
  });

  describe.skipIf(!postgres)('two servers on one PostgreSQL', () => {
    it('make each attempt exactly once', async () => {
      const receiver = await flakyReceiver();
      cleanups.push(receiver.close);
      const shared = await sharedPostgres('rmsdeliver', { RMS_RETRY_SCHEDULE: '1,1,1' });
      cleanups.push(shared.close);
      const [a, b] = await Promise.all([shared.start(), shared.start()]);
      let fixture!: ParticipantFixture;
      await shared.write(async (db) => {
        fixture = await createParticipantFixture(db);
        await useWebhook(db, fixture, receiver.endpoint);
      });

      const referrals = 6;
      for (let i = 0; i < referrals; i++) await leaveQualifiedContact(i % 2 === 0 ? a : b, fixture, `lee.${i}@example.com`);
      await expect.poll(() => receiver.hits.filter((hit) => hit.accepted).length, { timeout: 30_000, interval: 250 }).toBe(referrals);
      // A little longer, so a second process's duplicate attempt would have time to arrive.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      const byReferral = new Map<string, Hit[]>();
      for (const hit of receiver.hits) byReferral.set(hit.id, [...(byReferral.get(hit.id) ?? []), hit]);
      expect(byReferral.size).toBe(referrals);
      for (const hits of byReferral.values()) expect(hits.map((hit) => hit.accepted)).toEqual([false, true]);
      expect(receiver.hits.every((hit) => hit.verified)).toBe(true);

      const client = new pg.Client({ connectionString: shared.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ status: string; n: number; audits: number }>(
          `select d.status, count(*)::int as n, sum((select count(*) from rms_audits a where a.contact_id = d.contact_id))::int as audits from rms_deliveries d group by d.status`,
        );
        expect(rows).toEqual([{ status: 'delivered', n: referrals, audits: referrals * 2 }]);
      } finally {
        await client.end();
      }
    });
  });
});
