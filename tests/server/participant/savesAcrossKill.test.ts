/**
 * A start and a page save are acknowledged only once they are committed, batched or not
 * (server/participant/batchedStarts.ts, batchedSaves.ts): the real server process
 * (server/start.mjs, as `npm start` runs it) on this project's database takes many participants'
 * starts and saves at once and is killed (-9) in the middle of them; every start it had answered
 * 201 is in the database afterwards with the first page's entry it named, and every save it had
 * answered 200 — the answers, the page marked answered and the next page's entry it named.
 */
import { describe, expect, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import { openDatabase, type Db } from '../../../server/db/open';
import { createScratchDatabase } from '../../../server/db/scratch';
import { oFormContainerEntries, oFormFieldEntries, oFormSubmissions } from '../../../server/db/schema';
import { seed } from '../../../server/seed';
import { phiCipher, resolvePhiKey } from '../../../server/security/phi';
import { openAnswer } from '../../../server/security/sealedAnswer';
import { answerPage, createParticipantFixture, startSubmission, type ParticipantFixture } from '../../support/participantFixture';
import { useCleanups } from '../../support/cleanups';
import { E2E_ADMIN_PASSWORD, participantOf, prepareDataDir, startServer, tempDataDir } from '../../e2e/server';

const kind = process.env.TEST_DB_KIND === 'postgres' ? 'postgres' : 'pglite';
const CLIENTS = 24;
/** Saves acknowledged before the kill. */
const ENOUGH = 60;

const cleanups = useCleanups();

/** A database for the server with the participant fixture in it: PGlite in DATA_DIR, or a scratch PostgreSQL database. */
async function prepare(dataDir: string): Promise<{ fixture: ParticipantFixture; databaseUrl: string | null }> {
  let fixture!: ParticipantFixture;
  if (kind === 'pglite') {
    await prepareDataDir(dataDir, async (db) => {
      fixture = await createParticipantFixture(db);
    });
    return { fixture, databaseUrl: null };
  }
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const scratch = await createScratchDatabase(base, 'kill');
  cleanups.push(scratch.drop);
  const database = await openDatabase({ databaseUrl: scratch.url, dataDir: null });
  try {
    await database.migrate();
    await seed(database.db, { adminUsername: 'admin', adminPassword: E2E_ADMIN_PASSWORD, demoData: false });
    fixture = await createParticipantFixture(database.db);
  } finally {
    await database.close();
  }
  return { fixture, databaseUrl: scratch.url };
}

interface Acknowledged {
  entryId: number;
  nextEntryId: number;
  answers: Record<string, string>;
}

describe(`page saves across a kill -9 (${kind})`, () => {
  it('keeps every save the server acknowledged', async () => {
    const dataDir = tempDataDir();
    cleanups.removeDir(dataDir);
    const { fixture: f, databaseUrl } = await prepare(dataDir);
    const server = await startServer({
      dataDir,
      env: {
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        PARTICIPANT_SUBMISSIONS_PER_ADDRESS: '0',
        PARTICIPANT_SUBMISSIONS_PER_CHANNEL: '0',
        PARTICIPANT_PAGES_PER_ADDRESS: '0',
        PARTICIPANT_PAGES_PER_CHANNEL: '0',
      },
    });
    cleanups.push(server.stop);
    const on = participantOf(server);

    const acknowledged: Acknowledged[] = [];
    const started: { submissionId: number; firstEntryId: number }[] = [];
    let killed = false;
    // Each client runs the survey's first two pages again and again, until its server is gone.
    const client = async (c: number) => {
      for (let i = 0; !killed; i++) {
        try {
          const run = await startSubmission(on, f, { withFirstPage: true });
          started.push({ submissionId: Number(run.submissionId), firstEntryId: Number(run.firstEntryId) });
          const p1 = await answerPage(on, run.token, run.firstEntryId, { q_choice: 'yes' });
          if (p1.status !== 200) throw new Error(`p1 answered ${p1.status}`);
          acknowledged.push({ entryId: Number(run.firstEntryId), nextEntryId: Number(p1.meta.nextContainerEntryId), answers: { q_choice: 'yes' } });
          const text = `c${c} i${i}`;
          const p2 = await answerPage(on, run.token, p1.meta.nextContainerEntryId!, { q_dob: '1980-06-15', q_text: text });
          if (p2.status !== 200) throw new Error(`p2 answered ${p2.status}`);
          acknowledged.push({
            entryId: Number(p1.meta.nextContainerEntryId),
            nextEntryId: Number(p2.meta.nextContainerEntryId),
            answers: { q_dob: '1980-06-15', q_text: text },
          });
        } catch (error) {
          // Refused by a dead server: expected once it is killed, a failure before.
          if (!killed) throw error;
        }
      }
    };
    const failures: unknown[] = [];
    const clients = Array.from({ length: CLIENTS }, (_, c) => client(c).catch((error: unknown) => failures.push(error)));
    // Killed in the thick of it: saves in flight, batches gathering.
    await expect.poll(() => acknowledged.length + (failures.length > 0 ? Infinity : 0), { timeout: 90_000, interval: 20 }).toBeGreaterThanOrEqual(ENOUGH);
    killed = true;
    process.kill(server.pid, 'SIGKILL');
    await server.exited;
    await Promise.all(clients);
    expect(failures).toEqual([]);
    const answered = [...acknowledged];

    const database = await openDatabase({ databaseUrl, dataDir: databaseUrl ? null : dataDir });
    try {
      const db: Db = database.db;
      const phi = phiCipher(resolvePhiKey(null, dataDir));
      const ids = answered.flatMap((a) => [a.entryId, a.nextEntryId]);
      const entries = new Map((await db.select().from(oFormContainerEntries).where(inArray(oFormContainerEntries.id, ids))).map((e) => [e.id, e]));
      const stored = await db
        .select({
          entryId: oFormFieldEntries.containerEntryId,
          fieldId: oFormFieldEntries.fieldId,
          value: oFormFieldEntries.fieldValue,
          sealed: oFormFieldEntries.sealedValue,
        })
        .from(oFormFieldEntries)
        .where(
          inArray(
            oFormFieldEntries.containerEntryId,
            answered.map((a) => a.entryId),
          ),
        );
      const identityOf = new Map(Object.values(f.fields).map((field) => [field.id, field.identity]));
      const missing = answered.filter((a) => {
        const page = entries.get(a.entryId);
        const given = stored.filter((s) => s.entryId === a.entryId).map((s) => `${identityOf.get(s.fieldId)}=${String(openAnswer(phi, s))}`);
        const sent = Object.entries(a.answers).map(([identity, value]) => `${identity}=${value}`);
        return !page?.answeredAt || !entries.has(a.nextEntryId) || given.sort().join('&') !== sent.sort().join('&');
      });
      expect(missing).toEqual([]);
      expect(answered.length).toBeGreaterThanOrEqual(ENOUGH);
      const runIds = started.map((s) => s.submissionId);
      const firstPageIds = started.map((s) => s.firstEntryId);
      const runs = new Set((await db.select({ id: oFormSubmissions.id }).from(oFormSubmissions).where(inArray(oFormSubmissions.id, runIds))).map((r) => r.id));
      const firstPages = await db
        .select({ id: oFormContainerEntries.id, submissionId: oFormContainerEntries.submissionId })
        .from(oFormContainerEntries)
        .where(inArray(oFormContainerEntries.id, firstPageIds));
      const firstPageOf = new Map(firstPages.map((e) => [e.id, e.submissionId]));
      expect(started.filter((s) => !runs.has(s.submissionId) || firstPageOf.get(s.firstEntryId) !== s.submissionId)).toEqual([]);
      expect(started.length).toBeGreaterThanOrEqual(ENOUGH / 2);
    } finally {
      await database.close();
    }
  }, 240_000);
});
