/**
 * Property tests over every registered API route: random query strings to every read and
 * random JSON bodies to every write, sent by a Super User so the role layer lets them through
 * to the input checks. Never a 500; and a write that is refused changes no table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { createHarness, type Harness } from '../server/harness';

let h: Harness;
let token: string;
let tables: string[] = [];

// Tables that legitimately change on a refused request: sign-in attempts (lockout), the audit
// trail of sign-ins, rate-limit counters, SSO request ids.
const BOOKKEEPING = new Set(['login_attempts', 'audit_events', 'rate_limits', 'sso_requests', 'refresh_tokens', '__drizzle_migrations']);

const PARAMS = ['page', 'limit', 'sort', 'include', 'fields', 'searchQuery', 'isActive', 'sponsorId', 'engagementId', 'screenerId', 'uniqueIdentification', 'identity', 'fields[sponsors]', 'filter'];
const text = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('-1', '0', '1', '1000', '99999999999', 'true', 'name', '-name', '%', "' or 1=1 --", '../', '\u0000'));
const query = fc.dictionary(fc.oneof(fc.constantFrom(...PARAMS), fc.string({ maxLength: 6 })), text, { maxKeys: 4 });
const attributes = fc.dictionary(
  fc.oneof(fc.constantFrom('name', 'title', 'identification', 'isActive', 'countryId', 'sponsorId', 'engagementId', 'type', 'configuration', 'translations', 'styles', 'email', 'isoCode', 'domain'), fc.string({ maxLength: 8 })),
  fc.jsonValue({ maxDepth: 2 }),
  { maxKeys: 5 },
);
const body = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  attributes.map((a) => ({ data: { type: 'x', attributes: a } })),
  fc.record({ data: fc.record({ type: fc.constantFrom('sponsors', 'engagements', 'screeners', 'users'), attributes, relationships: fc.jsonValue({ maxDepth: 2 }) }) }),
);

function routes(method: 'GET' | 'WRITE'): string[] {
  const out = new Set<string>();
  for (const r of h.app.routes) {
    if (r.method === 'ALL' || r.path.includes('*') || !r.path.startsWith('/api/')) continue;
    if ((method === 'GET') === (r.method === 'GET')) out.add(`${r.method} ${r.path}`);
  }
  return [...out];
}

const concrete = (path: string, id: string) => path.replace(/:identity\b/g, 'no-such').replace(/:\w+/g, id);

async function rowCounts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of tables) {
    const result = (await h.db.execute(sql.raw(`select count(*)::int as n from "${table}"`))) as unknown as { rows: { n: number }[] };
    out[table] = Number(result.rows[0]?.n ?? 0);
  }
  return out;
}

beforeAll(async () => {
  h = await createHarness();
  token = await h.token();
  // A few real rows so that ids resolve and writes reach their validation.
  await h.request('POST', '/api/sponsors', { token, body: { data: { type: 'sponsors', attributes: { name: 'Fuzz', identification: 'FUZZ' } } } });
  const result = (await h.db.execute(sql`select tablename from pg_tables where schemaname = 'public'`)) as unknown as { rows: { tablename: string }[] };
  tables = result.rows.map((r) => r.tablename).filter((t) => !BOOKKEEPING.has(t));
});
afterAll(async () => {
  await h.close();
});

describe('random input never breaks the server', () => {
  it('reads: random query strings on every GET route answer below 500', async () => {
    const gets = routes('GET');
    expect(gets.length).toBeGreaterThan(50);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...gets), query, fc.constantFrom('1', '999999', 'abc', '-1'), async (route, params, id) => {
        const path = concrete(route.split(' ')[1]!, id);
        const qs = new URLSearchParams(params).toString();
        const res = await h.request('GET', `${path}${qs ? `?${qs}` : ''}`, { token });
        if (res.status >= 500) throw new Error(`${route}?${qs} answered ${res.status}: ${await res.text()}`);
      }),
      { numRuns: 400 },
    );
  });

  it('writes: random bodies on every write route answer below 500, and a refused one changes nothing', async () => {
    const writes = routes('WRITE').filter((r) => !r.includes('/jwt/') && !r.startsWith('DELETE'));
    expect(writes.length).toBeGreaterThan(40);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...writes), body, fc.constantFrom('1', '999999', 'abc'), async (route, payload, id) => {
        const [method, path] = route.split(' ') as [string, string];
        const before = await rowCounts();
        const res = await h.request(method, concrete(path, id), { token, body: payload });
        if (res.status >= 500) throw new Error(`${route} answered ${res.status} to ${JSON.stringify(payload)}: ${await res.text()}`);
        if (res.status >= 400) {
          const after = await rowCounts();
          const changed = Object.keys(after).filter((t) => after[t] !== before[t]);
          if (changed.length) throw new Error(`${route} refused ${JSON.stringify(payload)} (${res.status}) but changed ${changed.join(', ')}`);
        }
      }),
      { numRuns: 300 },
    );
  });
});
