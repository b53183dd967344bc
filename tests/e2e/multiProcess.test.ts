/**
 * Several server processes on one PostgreSQL (issue 10): nothing that matters lives in a
 * process's memory. Server A is one process; server B is WORKERS=2 (a cluster primary and two
 * workers on one port). Both start together on a fresh database, so their migrations meet the
 * startup lock. Runs wherever PostgreSQL is reachable (TEST_DATABASE_URL, else the local
 * default), as in CI.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FAILURES } from '../../server/auth/lockout';
import { answerPage, createParticipantFixture, startSubmission, TOKEN_HEADER, type ParticipantFixture } from '../support/participantFixture';
import { E2E_ADMIN_PASSWORD, participantOf, type RunningServer } from './server';
import { postgresReachable } from './postgres';
import { sharedPostgres, type SharedPostgres } from './sharedPostgres';

const postgres = await postgresReachable();

let shared: SharedPostgres;
let a: RunningServer;
let b: RunningServer;
let fixture: ParticipantFixture;

const post = (server: RunningServer, path: string, body: unknown, token?: string) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: {
      'Content-Type': path.startsWith('/api/jwt') ? 'application/json' : 'application/vnd.api+json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
    // A client gives up as a participant's browser would: a connection the cluster's primary had
    // handed to a worker killed before it read it is never answered, and is not acknowledged.
    signal: AbortSignal.timeout(10_000),
  });

const login = async (server: RunningServer, password = E2E_ADMIN_PASSWORD, username = 'admin') =>
  post(server, '/api/jwt/login', { data: { username, password } });

const participant = participantOf;

async function withDatabase(read: (db: pg.Client) => Promise<void>) {
  const db = new pg.Client({ connectionString: shared.url });
  await db.connect();
  try {
    await read(db);
  } finally {
    await db.end();
  }
}

describe.skipIf(!postgres)('two servers on one PostgreSQL', () => {
  beforeAll(async () => {
    // Both start together on a fresh database, so their migrations meet the startup lock.
    shared = await sharedPostgres('multiproc');
    [a, b] = await Promise.all([
      shared.start(),
      // info: the workers' "listening" lines name their pids.
      shared.start({ WORKERS: '2', LOG_LEVEL: 'info' }),
    ]);
    await shared.write(async (db) => {
      fixture = await createParticipantFixture(db);
    });
  });

  afterAll(async () => {
    await shared?.close();
  });

  it('refuses on one server a refresh token already rotated on the other, and ends that session everywhere', async () => {
    const signIn = (await (await login(a)).json()) as { refresh: string };
    const rotated = await post(a, '/api/jwt/refresh', { refresh_token: signIn.refresh });
    expect(rotated.status).toBe(200);
    const { refresh: next } = (await rotated.json()) as { refresh: string };

    const reused = await post(b, '/api/jwt/refresh', { refresh_token: signIn.refresh });
    expect(reused.status).toBe(401);
    // Reuse revokes the whole family: the newer token is refused too, on either server.
    expect((await post(b, '/api/jwt/refresh', { refresh_token: next })).status).toBe(401);
    expect((await post(a, '/api/jwt/refresh', { refresh_token: next })).status).toBe(401);
  });

  it('counts failed sign-ins across servers: the lockout holds on both', async () => {
    const username = 'someone-else';
    for (let i = 0; i < MAX_FAILURES; i++) {
      const res = await login(i % 2 === 0 ? a : b, 'wrong password', username);
      expect(res.status, `attempt ${i + 1}`).toBe(401);
    }
    for (const server of [a, b]) {
      const locked = await login(server, 'wrong password', username);
      expect(locked.status).toBe(429);
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('completes a participant run whose calls alternate between the servers', async () => {
    const [onA, onB] = [participant(a), participant(b)];
    const { submissionId, token, firstEntryId } = await startSubmission(onA, fixture);
    const p1 = await answerPage(onB, token, firstEntryId, { q_choice: 'yes' });
    expect(p1).toMatchObject({ status: 200, meta: { nextContainerIdentity: 'p2' } });
    const p2 = await answerPage(onA, token, p1.meta.nextContainerEntryId!, { q_dob: '1980-06-15', q_text: 'hello' });
    expect(p2).toMatchObject({ status: 200, meta: { nextContainerIdentity: 'p3' } });
    const p3 = await answerPage(onB, token, p2.meta.nextContainerEntryId!, { q_zip: '10001', q_conditions: ['a'] });
    expect(p3).toMatchObject({ status: 200, meta: { nextContainerIdentity: null } });

    const headers = { [TOKEN_HEADER]: token };
    const qualification = await onB.request('GET', `/api/o-forms/o-form-submission-qualification/${submissionId}`, { headers });
    expect(qualification.status).toBe(200);
    expect(((await qualification.json()) as { meta: { isQualified: boolean } }).meta.isQualified).toBe(true);
    const contact = await onB.request('POST', `/api/o-forms/o-form-submission-contact/${submissionId}`, {
      headers,
      body: {
        data: {
          attributes: {
            engagementSiteLocationId: fixture.engagementSiteLocationId,
            values: { first_name: 'Ada', email: 'ada@example.com', phone: '555-123-4567' },
            acceptTerms: true,
          },
        },
      },
    });
    expect(contact.status, await contact.text()).toBe(201);

    await withDatabase(async (db) => {
      const { rows } = await db.query<{ status: string; answers: number; contacts: number }>(
        `select s.status,
                (select count(*)::int from o_form_field_entries f join o_form_container_entries e on e.id = f.container_entry_id where e.submission_id = s.id) as answers,
                (select count(*)::int from contacts c where c.submission_id = s.id) as contacts
         from o_form_submissions s where s.id = $1`,
        [Number(submissionId)],
      );
      expect(rows).toEqual([{ status: 'completed', answers: 5, contacts: 1 }]);
    });
  });

  it('loses no acknowledged page answer when a process is killed -9 in the middle of participant runs', async () => {
    // A third process of its own, so the servers the other tests use stay up.
    const c = await shared.start();
    try {
      const servers = [c, b].map(participant);
      const pages: [keyof ParticipantFixture['pages'], Record<string, unknown>][] = [
        ['p1', { q_choice: 'yes' }],
        ['p2', { q_dob: '1980-06-15', q_text: 'hello' }],
        ['p3', { q_zip: '10001', q_conditions: ['a'] }],
      ];
      /** Page entry id → the field identities its 2xx answer stored. */
      const acknowledged = new Map<number, string[]>();
      const statuses: number[] = [];
      let attempts = 0;
      let refused = 0;
      let killed = false;
      let acknowledgedAfterKill = 0;

      // Four participants at a time; each call goes to the other server than the one before, until
      // C is found dead: then to B only, as a load balancer would after a failed health check.
      let cDown = false;
      const client = async (n: number) => {
        for (let run = 0; attempts < 120; run++) {
          let turn = n + run;
          const next = () => (cDown ? servers[1]! : servers[turn++ % 2]!);
          try {
            const start = await startSubmission(next(), fixture);
            let entryId: string | null | undefined = start.firstEntryId;
            for (const [, answers] of pages) {
              attempts++;
              const server = next();
              const saving = answerPage(server, start.token, entryId!, answers);
              if (attempts >= 30 && !killed && server === servers[0]) {
                // While this answer (and maybe others) is on its way to C.
                killed = true;
                process.kill(c.pid, 'SIGKILL');
              }
              const saved = await saving;
              if (saved.status !== 200) statuses.push(saved.status);
              else {
                acknowledged.set(Number(entryId), Object.keys(answers));
                if (killed) acknowledgedAfterKill++;
              }
              entryId = saved.meta.nextContainerEntryId;
            }
          } catch {
            // Refused or reset by the killed process: not acknowledged, so nothing is owed; the
            // participant starts again.
            refused++;
            if (killed) cDown = true;
          }
        }
      };
      await Promise.all([0, 1, 2, 3].map(client));

      expect(await c.exited).toBeNull();
      expect(statuses).toEqual([]);
      expect(refused).toBeGreaterThanOrEqual(1);
      expect(acknowledgedAfterKill).toBeGreaterThanOrEqual(30);
      expect(acknowledged.size).toBeGreaterThanOrEqual(40);

      await withDatabase(async (db) => {
        const { rows } = await db.query<{ entry: number; identity: string }>(
          `select f.container_entry_id as entry, q.identity from o_form_field_entries f join o_form_fields q on q.id = f.field_id
           where f.container_entry_id = any($1::int[])`,
          [[...acknowledged.keys()]],
        );
        const stored = new Map<number, string[]>();
        for (const row of rows) stored.set(row.entry, [...(stored.get(row.entry) ?? []), row.identity].sort());
        for (const [entry, identities] of acknowledged) expect(stored.get(entry), `page entry ${entry}`).toEqual([...identities].sort());
      });
    } finally {
      await c.stop();
    }
  });

  it('loses no acknowledged write when a process is killed -9 in the middle of a load', async () => {
    const { access } = (await (await login(a)).json()) as { access: string };
    const acknowledged = new Map<string, string>();
    let attempts = 0;
    let failures = 0;
    let killed = false;
    let acknowledgedByBAfterKill = 0;
    /** Answers other than 201: none expected; a dead process refuses the connection instead. */
    const statuses: number[] = [];
    const workerPids = [...b.output().matchAll(/"pid":(\d+),"msg":"listening"[^\n]*"worker":\d+/g)].map((m) => Number(m[1]));
    expect(workerPids).toHaveLength(2);

    // Four clients, each alternating between the servers, until 80 writes were tried.
    const client = async (n: number) => {
      for (let i = 0; attempts < 80; i++) {
        const identification = `MP-${n}-${i}`;
        attempts++;
        try {
          const res = await post(
            i % 2 === 0 ? a : b,
            '/api/sponsors',
            { data: { type: 'sponsors', attributes: { name: `Sponsor ${identification}`, identification } } },
            access,
          );
          if (res.status !== 201) statuses.push(res.status);
          else {
            acknowledged.set(identification, ((await res.json()) as { data: { id: string } }).data.id);
            if (killed && i % 2 === 1) acknowledgedByBAfterKill++;
          }
        } catch {
          // The connection was refused or reset: not acknowledged, so nothing is owed.
          failures++;
        }
        if (attempts >= 20 && !killed) {
          killed = true;
          process.kill(a.pid, 'SIGKILL');
          process.kill(workerPids[0]!, 'SIGKILL');
        }
      }
    };
    await Promise.all([0, 1, 2, 3].map(client));

    expect(await a.exited).toBeNull();
    // Every write after the kill that went to A failed; B's other worker kept answering.
    expect(statuses).toEqual([]);
    expect(failures).toBeGreaterThanOrEqual(20);
    expect(acknowledgedByBAfterKill).toBeGreaterThanOrEqual(10);
    expect(acknowledged.size).toBeGreaterThanOrEqual(30);

    const db = new pg.Client({ connectionString: shared.url });
    await db.connect();
    try {
      const { rows } = await db.query<{ id: number; identification: string }>(`select id, identification from sponsors where identification like 'MP-%'`);
      const stored = new Map(rows.map((r) => [r.identification, String(r.id)]));
      for (const [identification, id] of acknowledged) expect(stored.get(identification), identification).toBe(id);
    } finally {
      await db.end();
    }

    // B's primary replaced the killed worker, and B answers throughout.
    await expect.poll(() => b.output(), { timeout: 30_000 }).toMatch(new RegExp(`"msg":"worker exited; starting another","workerPid":${workerPids[0]}`));
    expect((await fetch(`${b.url}/api/health`)).status).toBe(200);
  });
});
