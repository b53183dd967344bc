/**
 * Property tests over every registered API route: random query strings to every read and
 * random JSON bodies to every write, sent by a Super User so the role layer lets them through
 * to the input checks (participant routes also get a real submission's token, and its ids among
 * the ids tried). Never a 500; and a write that is refused changes no table — no row added,
 * removed or changed (tests/security/dbState.ts: one statement per snapshot).
 *
 * Every route gets its own runs, so each is hit however many there are; the time allowed grows
 * with the number of routes (a budget per run), not a fixed figure a new route can push past.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createHarness, type Harness } from '../server/harness';
import { createParticipantFixture, startSubmission, TOKEN_HEADER } from '../support/participantFixture';
import { changedTables, dbState, stateQuery, userTables, type DbState } from './dbState';

let h: Harness;
let token: string;
let headers: Record<string, string> = {};
let ids: string[] = ['1', '999999', 'abc', '-1'];
let snapshot: () => Promise<DbState>;

/** Runs per route; the budget of one run (request and snapshot) on an unloaded 2-core machine, with head room for a loaded one. */
const READ_RUNS = 5;
const WRITE_RUNS = 4;
const RUN_BUDGET_MS = 250;
// Routes are counted when the suite is collected, before the harness exists: a generous upper
// bound here, checked against the real count below, keeps the timeout proportional.
const MAX_ROUTES = 200;
const timeoutFor = (runsPerRoute: number) => MAX_ROUTES * runsPerRoute * RUN_BUDGET_MS;

const PARAMS = [
  'page',
  'limit',
  'sort',
  'include',
  'fields',
  'searchQuery',
  'isActive',
  'sponsorId',
  'engagementId',
  'screenerId',
  'uniqueIdentification',
  'identity',
  'fields[sponsors]',
  'filter',
];
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('-1', '0', '1', '1000', '99999999999', 'true', 'name', '-name', '%', "' or 1=1 --", '../', '\u0000'),
);
const query = fc.dictionary(fc.oneof(fc.constantFrom(...PARAMS), fc.string({ maxLength: 6 })), text, { maxKeys: 4 });
const attributes = fc.dictionary(
  fc.oneof(
    fc.constantFrom(
      'name',
      'title',
      'identification',
      'isActive',
      'countryId',
      'sponsorId',
      'engagementId',
      'type',
      'configuration',
      'translations',
      'styles',
      'email',
      'isoCode',
      'domain',
    ),
    fc.string({ maxLength: 8 }),
  ),
  fc.jsonValue({ maxDepth: 2 }),
  { maxKeys: 5 },
);
const body = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  attributes.map((a) => ({ data: { type: 'x', attributes: a } })),
  fc.record({
    data: fc.record({ type: fc.constantFrom('sponsors', 'engagements', 'screeners', 'users'), attributes, relationships: fc.jsonValue({ maxDepth: 2 }) }),
  }),
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

beforeAll(async () => {
  h = await createHarness();
  token = await h.token();
  // A few real rows so that ids resolve and writes reach their validation.
  await h.request('POST', '/api/sponsors', { token, body: { data: { type: 'sponsors', attributes: { name: 'Fuzz', identification: 'FUZZ' } } } });
  // A live submission, so participant routes get past their token to their input checks.
  const fixture = await createParticipantFixture(h.db);
  const run = await startSubmission(h, fixture);
  headers = { [TOKEN_HEADER]: run.token };
  ids = [...ids, run.submissionId, run.firstEntryId, String(fixture.oFormId), String(fixture.pages.p1.id)];
  const query = stateQuery(await userTables(h.db));
  snapshot = () => dbState(h.db, query);
});
afterAll(async () => {
  await h.close();
});

describe('random input never breaks the server', () => {
  it('reads: random query strings on every GET route answer below 500', { timeout: timeoutFor(READ_RUNS) }, async () => {
    const gets = routes('GET');
    expect(gets.length).toBeGreaterThan(50);
    expect(gets.length).toBeLessThanOrEqual(MAX_ROUTES);
    for (const route of gets) {
      await fc.assert(
        fc.asyncProperty(query, fc.constantFrom(...ids), async (params, id) => {
          const path = concrete(route.split(' ')[1]!, id);
          const qs = new URLSearchParams(params).toString();
          const res = await h.request('GET', `${path}${qs ? `?${qs}` : ''}`, { token, headers });
          if (res.status >= 500) throw new Error(`${route}?${qs} answered ${res.status}: ${await res.text()}`);
        }),
        { numRuns: READ_RUNS },
      );
    }
  });

  it('writes: random bodies on every write route answer below 500, and a refused one changes nothing', { timeout: timeoutFor(WRITE_RUNS) }, async () => {
    const writes = routes('WRITE').filter((r) => !r.includes('/jwt/') && !r.startsWith('DELETE'));
    expect(writes.length).toBeGreaterThan(40);
    expect(writes.length).toBeLessThanOrEqual(MAX_ROUTES);
    // Requests run one at a time and nothing writes in the background, so the state after one
    // request is the state before the next: one snapshot per run.
    let before = await snapshot();
    for (const route of writes) {
      const [method, path] = route.split(' ') as [string, string];
      await fc.assert(
        fc.asyncProperty(body, fc.constantFrom(...ids), async (payload, id) => {
          const res = await h.request(method, concrete(path, id), { token, headers, body: payload });
          const after = await snapshot();
          const previous = before;
          before = after;
          if (res.status >= 500) throw new Error(`${route} answered ${res.status} to ${JSON.stringify(payload)}: ${await res.text()}`);
          if (res.status >= 400) {
            const changed = changedTables(previous, after);
            if (changed.length) throw new Error(`${route} refused ${JSON.stringify(payload)} (${res.status}) but changed ${changed.join(', ')}`);
          }
        }),
        { numRuns: WRITE_RUNS },
      );
    }
  });
});
