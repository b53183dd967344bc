/**
 * A real server on a real database for API tests: a fresh in-memory PGlite, or (TEST_DB_KIND
 * postgres) a database of its own created on TEST_DATABASE_URL and dropped afterwards, so runs
 * never see each other's rows.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { eq, inArray } from 'drizzle-orm';
import { createApp } from '../../server/app';
import { loadConfig, type Config } from '../../server/config';
import { openDatabase, type Db } from '../../server/db/open';
import { createScratchDatabase } from '../../server/db/scratch';
import { roles, userRoles, userSponsors, users } from '../../server/db/schema';
import { seed } from '../../server/seed';
import { hashPassword } from '../../server/auth/passwords';
import { createLogger } from '../../server/log';
import { phiCipher, type PhiCipher } from '../../server/security/phi';
import { contactMatcher, type ContactMatcher } from '../../server/security/contactMatch';
import type { RoleName } from '@core/model/user';
import type { Clock } from '../../server/context';
import { ADMIN_PASSWORD } from './harness-constants';
import { checkedJsonApiResponse } from '../support/jsonApiDocument';
import { afterAll, beforeAll, inject } from 'vitest';

export { ADMIN_PASSWORD };
export const JSON_API = 'application/vnd.api+json';

/**
 * The server's clock in a test: the wall clock until a test sets an instant; from then on it
 * stands still at that instant until the test moves it or releases it back to the wall clock.
 * A test whose outcome depends on the time sets the instant it means.
 */
export interface TestClock extends Clock {
  set(instant: string | Date): void;
  advance(ms: number): void;
  release(): void;
}

export function testClock(): TestClock {
  let fixed: number | null = null;
  const clock = (() => new Date(fixed ?? Date.now())) as TestClock;
  clock.set = (instant) => {
    const at = new Date(instant).getTime();
    if (Number.isNaN(at)) throw new Error(`not an instant: ${String(instant)}`);
    fixed = at;
  };
  clock.advance = (ms) => {
    if (fixed === null) throw new Error('set the clock before moving it');
    fixed += ms;
  };
  clock.release = () => {
    fixed = null;
  };
  return clock;
}

export interface Harness {
  app: ReturnType<typeof createApp>;
  db: Db;
  /** The server's clock (see TestClock). */
  clock: TestClock;
  config: Config;
  jwtSecret: string;
  /** The cipher of participants' contact values (a fresh key per harness). */
  phi: PhiCipher;
  request(method: string, path: string, options?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<Response>;
  login(username: string, password: string, code?: string): Promise<{ status: number; body: LoginBody }>;
  token(username?: string, password?: string): Promise<string>;
  createUser(options: { username: string; password?: string; roles?: RoleName[]; sponsorIds?: number[]; isActive?: boolean }): Promise<number>;
  close(): Promise<void>;
  /** The statements sent through the app's database handle since the last call: what a call cost. */
  takeStatements(): string[];
}

export interface LoginBody {
  success: boolean;
  access?: string;
  refresh?: string;
  data?: { message?: string; secret_verified?: boolean; user?: { username: string; roles: { name: string }[] } };
}

/** `phi` and `contactMatch`: the server's keys when a test must hold them itself (key rotation). */
export async function createHarness(
  env: Record<string, string> = {},
  given: { phi?: PhiCipher; contactMatch?: ContactMatcher; csvReadPage?: number } = {},
): Promise<Harness> {
  const kind = process.env.TEST_DB_KIND === 'postgres' ? 'postgres' : 'pglite';
  if (kind === 'postgres' && !process.env.TEST_DATABASE_URL) throw new Error('TEST_DB_KIND=postgres needs TEST_DATABASE_URL');
  const pgDb = kind === 'postgres' ? await createScratchDatabase(process.env.TEST_DATABASE_URL!, 't') : null;
  // The PGlite suite's global setup left a migrated, seeded database to start from.
  const template = kind === 'pglite' ? inject('pgliteTemplate') : undefined;
  const statements: string[] = [];
  const database = await openDatabase({
    databaseUrl: pgDb?.url ?? null,
    dataDir: null,
    loadDataDir: template ? new Blob([new Uint8Array(fs.readFileSync(template))]) : undefined,
    onQuery: (query) => void statements.push(query),
  });
  if (!template) {
    await database.migrate();
    await seed(database.db, { adminUsername: 'admin', adminPassword: ADMIN_PASSWORD, demoData: false });
  }
  // The tests' record systems listen on this machine: an on-premise record system, as far as the server can tell.
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: '/nonexistent-test-data', RMS_ALLOW_PRIVATE_HOSTS: '127.0.0.1', ...env });
  const jwtSecret = randomBytes(32).toString('hex');
  const phi = given.phi ?? phiCipher(randomBytes(32));
  const clock = testClock();
  const app = createApp({
    db: database.db,
    config,
    jwtSecret,
    log: createLogger(config.logLevel),
    phi,
    contactMatch: given.contactMatch ?? contactMatcher(randomBytes(32)),
    clock,
    csvReadPage: given.csvReadPage,
  });

  const request: Harness['request'] = (method, path, options = {}) => {
    const headers: Record<string, string> = { Accept: JSON_API, ...options.headers };
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['Content-Type'] ??= JSON_API;
    }
    return Promise.resolve(app.request(path, { method, headers, body })).then((res) => checkedJsonApiResponse(res, `${method} ${path}`));
  };

  const login: Harness['login'] = async (username, password, code) => {
    const res = await request('POST', '/api/jwt/login?t=a', { body: { data: { username, password, code, lang: 'en' } } });
    return { status: res.status, body: (await res.json()) as LoginBody };
  };

  return {
    app,
    db: database.db,
    clock,
    config,
    jwtSecret,
    phi,
    request,
    login,
    async token(username = 'admin', password = ADMIN_PASSWORD) {
      const { body } = await login(username, password);
      if (!body.access) throw new Error(`login failed for ${username}: ${JSON.stringify(body)}`);
      return body.access;
    },
    async createUser({ username, password = 'a-good-password', roles: roleNames = ['User'], sponsorIds = [], isActive = true }) {
      const [row] = await database.db
        .insert(users)
        .values({ username, passwordHash: await hashPassword(password), isActive })
        .returning({ id: users.id });
      if (!row) throw new Error('no user');
      if (roleNames.length) {
        const found = await database.db.select().from(roles).where(inArray(roles.name, roleNames));
        await database.db.insert(userRoles).values(found.map((r) => ({ userId: row.id, roleId: r.id })));
      }
      if (sponsorIds.length) await database.db.insert(userSponsors).values(sponsorIds.map((sponsorId) => ({ userId: row.id, sponsorId })));
      return row.id;
    },
    takeStatements: () => statements.splice(0),
    async close() {
      await database.close();
      await pgDb?.drop();
    },
  };
}

/**
 * The setup of a file whose tests share one harness: made before them (then handed to `take`,
 * for the file's own variable), closed after them.
 */
export function useHarness(take: (h: Harness) => void | Promise<void>): void {
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await createHarness();
    await take(h);
  });
  afterAll(async () => {
    await h?.close();
  });
}

/** useHarness with the seeded admin's token too. */
export function useAdminHarness(take: (server: { h: Harness; admin: string }) => void): void {
  useHarness(async (h) => take({ h, admin: await h.token() }));
}

/** A JSON:API request body: one resource of `type` with its attributes (and id, relationships where given). */
export const doc = (type: string, attributes: Record<string, unknown>, id?: string, relationships?: Record<string, unknown>) => ({
  data: { type, ...(id ? { id } : {}), attributes, ...(relationships ? { relationships } : {}) },
});

export async function json<T = any>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

export { eq, users };
