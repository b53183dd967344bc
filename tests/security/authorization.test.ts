/**
 * The authorization matrix, generated from the server's own route table: every route is tried
 * as anonymous, a `User`, an Admin and a Super User, and must answer as its access class says.
 * A route registered without a rule here fails the suite, so new routes cannot slip past it.
 * (Sponsor scope within a role — another sponsor's records answering 404 — is generated over
 * the same table in scope.test.ts; the submission token's scope — another submission's id
 * answering 404 — in tests/server/participant/participant.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../server/harness';
import { routeCoverage, RULES, type Access } from './routeRules';

type Principal = 'anonymous' | 'user' | 'admin' | 'super';
const ALLOWED: Record<Access, Principal[]> = {
  public: ['anonymous', 'user', 'admin', 'super'],
  staff: ['user', 'admin', 'super'],
  admin: ['admin', 'super'],
  super: ['super'],
  participant: [],
};
/** A well-formed submission token that opens no submission. */
const NO_SUBMISSION_TOKEN = 'A'.repeat(43);

let h: Harness;
const tokens: Partial<Record<Principal, string>> = {};

/** The routes the server registers: real method and path pairs, not middleware. */
function registeredRoutes(): string[] {
  const out = new Set<string>();
  for (const r of h.app.routes) {
    if (r.method === 'ALL' || r.path.includes('*')) continue;
    out.add(`${r.method} ${r.path}`);
  }
  return [...out];
}

// Ids of nothing: the role layer must decide before any record is looked up or changed.
const concrete = (path: string) =>
  path
    .replace(/:service\b/g, 'duo')
    .replace(/:identity\b/g, 'no-such-survey')
    .replace(/:\w+/g, '999999');

const signIn = async () => {
  tokens.user = await h.token('matrix-user', 'matrix-user-pass');
  tokens.admin = await h.token('matrix-admin', 'matrix-admin-pass');
  tokens.super = await h.token('matrix-super', 'matrix-super-pass');
};
/** Routes that end the sign-in whose token they are called with: the principals sign in again after them. */
const SESSION_ENDING = new Set(['POST /api/jwt/logout']);

beforeAll(async () => {
  h = await createHarness();
  await h.createUser({ username: 'matrix-user', password: 'matrix-user-pass', roles: ['User'] });
  await h.createUser({ username: 'matrix-admin', password: 'matrix-admin-pass', roles: ['Admin'] });
  await h.createUser({ username: 'matrix-super', password: 'matrix-super-pass', roles: ['Super User'] });
  await signIn();
});
afterAll(async () => {
  await h.close();
});

describe('authorization matrix', () => {
  it('has a rule for every registered route, and no rule for a route that is gone', () => {
    const routes = registeredRoutes();
    expect(routes.length).toBeGreaterThan(100);
    // Routes without an authorization rule, and rules of routes that no longer exist.
    expect(routeCoverage(routes, RULES)).toEqual({ withoutCase: [], gone: [] });
  });

  it('answers every route as its access class says, for every principal', async () => {
    const wrong: string[] = [];
    for (const route of registeredRoutes()) {
      const access = RULES[route];
      if (!access) continue;
      const [method, path] = route.split(' ') as [string, string];
      for (const principal of ['anonymous', 'user', 'admin', 'super'] as const) {
        const res = await h.request(method, concrete(path), {
          token: principal === 'anonymous' ? undefined : tokens[principal],
          body: method === 'GET' || method === 'DELETE' ? undefined : {},
        });
        const allowed = ALLOWED[access].includes(principal);
        const denied = res.status === 401 || res.status === 403;
        const unauthenticated = principal === 'anonymous' || access === 'participant';
        const expected = allowed ? 'not 401/403' : unauthenticated ? '401' : '403';
        // The role layer only: whether the rest answers well is the property tests' concern
        // (a static route may answer 503 where no bundle is built).
        const ok = allowed ? !denied : res.status === (unauthenticated ? 401 : 403);
        if (!ok) wrong.push(`${route} as ${principal}: ${res.status}, expected ${expected}`);
      }
      if (SESSION_ENDING.has(route)) await signIn();
      if (access === 'participant') {
        const res = await h.request(method, concrete(path), {
          headers: { 'Survey-Submission-Token': NO_SUBMISSION_TOKEN },
          body:
            method === 'GET' || method === 'DELETE'
              ? undefined
              : {
                  data: {
                    attributes: {
                      oFormSubmissionId: 999999,
                      oFormContainerId: 999999,
                      start: new Date().toISOString(),
                      identity: 'p1',
                      answers: {},
                      pageIds: [],
                    },
                  },
                },
        });
        if (res.status === 401 || res.status === 403) wrong.push(`${route} with a submission token: ${res.status}, expected not 401/403`);
      }
    }
    expect(wrong).toEqual([]);
    // Every route four times over, one after another: it grows with the API and takes a while on a busy machine.
  }, 90_000);
});
