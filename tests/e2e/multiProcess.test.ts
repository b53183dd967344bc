/**
 * Several server processes on one PostgreSQL (issue 10): nothing that matters lives in a
 * process's memory. Server A is one process; server B is WORKERS=2 (a cluster primary and two
 * workers on one port). Both start together on a fresh database, so their migrations meet the
 * startup lock. Runs wherever PostgreSQL is reachable (TEST_DATABASE_URL, else the local
 * default), as in CI.
 */
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../../server/db/scratch';
import { MAX_FAILURES } from '../../server/auth/lockout';
import { E2E_ADMIN_PASSWORD, startServer, type RunningServer } from './server';
import { postgresReachable, TEST_POSTGRES_URL } from './postgres';

const postgres = await postgresReachable();

let scratch: { url: string; drop: () => Promise<void> };
let a: RunningServer;
let b: RunningServer;

const post = (server: RunningServer, path: string, body: unknown, token?: string) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: {
      'Content-Type': path.startsWith('/api/jwt') ? 'application/json' : 'application/vnd.api+json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });

const login = async (server: RunningServer, password = E2E_ADMIN_PASSWORD, username = 'admin') =>
  post(server, '/api/jwt/login', { data: { username, password } });

describe.skipIf(!postgres)('two servers on one PostgreSQL', () => {
  beforeAll(async () => {
    scratch = await createScratchDatabase(TEST_POSTGRES_URL, 'multiproc');
    const env = {
      DATABASE_URL: scratch.url,
      DEMO_DATA: 'false',
      // Shared by every process behind one load balancer: tokens signed by one verify on another.
      JWT_SECRET: randomBytes(32).toString('hex'),
      PHI_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    };
    [a, b] = await Promise.all([
      startServer({ env }),
      // info: the workers' "listening" lines name their pids.
      startServer({ env: { ...env, WORKERS: '2', LOG_LEVEL: 'info' } }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    for (const server of [a, b]) if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
    await scratch?.drop();
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
          const res = await post(i % 2 === 0 ? a : b, '/api/sponsors', { data: { type: 'sponsors', attributes: { name: `Sponsor ${identification}`, identification } } }, access);
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

    const db = new pg.Client({ connectionString: scratch.url });
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
