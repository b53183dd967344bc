/**
 * The authorization matrix, generated from the server's own route table: every route is tried
 * as anonymous, a `User`, an Admin and a Super User, and must answer as its access class says.
 * A route registered without a rule here fails the suite, so new routes cannot slip past it.
 * (Sponsor scope within a role — another sponsor's records answering 404 — is tested per
 * resource in tests/server; the submission token's scope — another submission's id answering
 * 404 — in tests/server/participant.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../server/harness';

/**
 * public: no sign-in; staff: any signed-in staff; admin: Admin or Super User; super: Super User;
 * participant: no sign-in, but the submission's access token (Survey-Submission-Token) — every
 * principal without one is 401 (a staff sign-in does not replace it), and with one that opens
 * nothing the route goes on to answer 404, never 401/403.
 */
type Access = 'public' | 'staff' | 'admin' | 'super' | 'participant';

const RULES: Record<string, Access> = {
  'GET /api/health': 'public',
  'GET /api/about': 'staff',
  'GET /api/about/licences': 'staff',
  'GET /api/openapi.json': 'public',
  'GET /api/docs': 'public',
  'GET /api/docs/redoc.standalone.js': 'public',
  'GET /api/o-forms/o-form-default-messages': 'staff',
  'GET /api/o-forms/o-form-messages': 'staff',
  'POST /api/o-forms/o-form-messages': 'staff',
  'PATCH /api/o-forms/o-form-messages/:id': 'staff',
  'POST /api/jwt/login': 'public',
  'POST /api/jwt/refresh': 'public',
  'POST /api/jwt/logout': 'public',
  'GET /api/users/me': 'staff',
  'POST /api/users/me/password': 'staff',
  'POST /api/users/me/totp': 'staff',
  'POST /api/users/me/totp/verify': 'staff',
  'GET /api/users': 'admin',
  'POST /api/users/validate-email': 'admin',
  'GET /api/users/:id': 'admin',
  'POST /api/users': 'admin',
  'PATCH /api/users/:id': 'admin',
  'DELETE /api/users/:id/totp': 'admin',
  'GET /api/languages': 'admin',
  'GET /api/languages/:id': 'admin',
  'POST /api/languages': 'admin',
  'PATCH /api/languages/:id': 'admin',
  'DELETE /api/languages/:id': 'admin',
  'GET /api/generic-messages': 'admin',
  'GET /api/generic-messages/:id': 'admin',
  'PATCH /api/generic-messages/:id': 'admin',
  'GET /api/contact-fields': 'admin',
  'GET /api/contact-fields/:id': 'admin',
  'POST /api/contact-fields': 'admin',
  'PATCH /api/contact-fields/:id': 'admin',
  'DELETE /api/contact-fields/:id': 'admin',
  'GET /api/sponsors': 'staff',
  'GET /api/sponsors/:id': 'staff',
  'POST /api/sponsors': 'admin',
  'PATCH /api/sponsors/:id': 'staff',
  'DELETE /api/sponsors/:id': 'admin',
  'GET /api/audit-events': 'super',
  'GET /api/audit-events/export': 'super',
  'GET /api/countries': 'staff',
  'GET /api/countries/:id': 'staff',
  'GET /api/engagements': 'staff',
  'GET /api/engagements/:id': 'staff',
  'POST /api/engagements': 'staff',
  'PATCH /api/engagements/:id': 'staff',
  'DELETE /api/engagements/:id': 'staff',
  'GET /api/engagements-o-files': 'staff',
  'POST /api/engagements-o-files/:engagementId': 'staff',
  'GET /api/engagements-o-files/:id': 'staff',
  'GET /api/engagements-o-files/:id/download': 'staff',
  'DELETE /api/engagements-o-files/:id': 'staff',
  'GET /api/engagements-site-locations': 'staff',
  'GET /api/engagements-site-locations/:id': 'staff',
  'POST /api/engagements-site-locations': 'staff',
  'PATCH /api/engagements-site-locations/:id': 'staff',
  'DELETE /api/engagements-site-locations/:id': 'staff',
  'POST /api/engagements-site-locations/upload/:engagementId': 'admin',
  'GET /api/site-locations': 'staff',
  'GET /api/site-locations/:id': 'staff',
  'POST /api/site-locations': 'admin',
  'PATCH /api/site-locations/:id': 'admin',
  'DELETE /api/site-locations/:id': 'admin',
  'GET /api/referrals/counts/:id': 'staff',
  'GET /api/screeners': 'staff',
  'GET /api/screeners/languages-screeners': 'staff',
  'GET /api/screeners/:id': 'staff',
  'POST /api/screeners': 'admin',
  'PATCH /api/screeners/:id': 'admin',
  'DELETE /api/screeners/:id': 'admin',
  'POST /api/screeners/:id/clone': 'admin',
  'DELETE /api/screeners/clone/:id': 'admin',
  'PATCH /api/screeners/update-surveys/:id': 'admin',
  'PATCH /api/screeners/surveys/:id': 'admin',
  'POST /api/engagements-screeners/update/:screenerId': 'admin',
  'GET /api/contact-fields-screeners': 'staff',
  'POST /api/contact-fields-screeners/update/:screenerId': 'admin',
  'GET /api/screener-surveys': 'staff',
  'GET /api/screener-surveys/flow/:id': 'staff',
  'POST /api/screener-surveys': 'admin',
  'PATCH /api/screener-surveys/:id': 'admin',
  'DELETE /api/screener-surveys/:id': 'admin',
  'GET /api/media-channels': 'staff',
  'GET /api/media-channels/:id': 'staff',
  'GET /api/media-channels/:id/served-surveys': 'staff',
  'POST /api/media-channels': 'staff',
  'PATCH /api/media-channels/:id': 'staff',
  'GET /api/media-channel-surveys': 'staff',
  'POST /api/media-channel-surveys': 'staff',
  'PATCH /api/media-channel-surveys/:id': 'staff',
  // Participants follow a transition to another survey without signing in; it answers ids only.
  'GET /api/get-media-channel-for-transition-survey/:identity/:fromId': 'public',
  // The participant run (issue 7): starting, pages and preview are public; the rest needs the submission token.
  'GET /api/o-forms/participant-start': 'public',
  'POST /api/o-forms/participant-views': 'public',
  'POST /api/o-forms/o-form-submissions': 'public',
  'GET /api/o-forms/o-form-containers': 'public',
  'PATCH /api/o-forms/o-form-submission-page-preview/:id': 'public',
  'POST /api/o-forms/o-form-container-entries': 'participant',
  'GET /api/o-forms/o-form-container-entries/:id': 'participant',
  'PATCH /api/o-forms/o-form-submission-page/:id': 'participant',
  'PATCH /api/o-forms/o-form-submission-sanitization/:id': 'participant',
  'GET /api/o-forms/o-form-submission-qualification/:id': 'participant',
  'POST /api/o-forms/o-form-page-metrics': 'participant',
  'GET /api/o-forms/o-form-submission-sites/:submissionId': 'participant',
  'GET /api/o-forms/o-form-submission-contact-fields/:submissionId': 'participant',
  'POST /api/o-forms/o-form-submission-contact/:submissionId': 'participant',
  // Record-system audits are Super User only; the record system's callback is public but signed.
  'GET /api/rms-audits': 'super',
  'POST /api/resend-rms-audit/:contactId': 'super',
  'POST /api/resend-rms-audit': 'super',
  'POST /api/rms-callback': 'public',
  'POST /api/rms-callback/fhir/:providerId': 'public',
  // Providers: everyone signed in reads the picker; Super Users manage and test them.
  'POST /api/rms-providers': 'super',
  'PATCH /api/rms-providers/:id': 'super',
  'DELETE /api/rms-providers/:id': 'super',
  'POST /api/rms-providers/:id/test': 'super',
  'GET /api/campaign-types': 'staff',
  'GET /api/campaign-types/:id': 'staff',
  'GET /api/roles': 'staff',
  'GET /api/roles/:id': 'staff',
  'GET /api/question-categories': 'staff',
  'GET /api/question-categories/:id': 'staff',
  'GET /api/target-groups': 'staff',
  'GET /api/target-groups/:id': 'staff',
  'GET /api/therapeutic-areas': 'staff',
  'GET /api/therapeutic-areas/:id': 'staff',
  'GET /api/rms-providers': 'staff',
  'GET /api/rms-providers/:id': 'staff',
  'GET /api/indications': 'staff',
  'GET /api/indications/:id': 'staff',
  'POST /api/indications': 'staff',
  'GET /api/tags': 'staff',
  'GET /api/tags/:id': 'staff',
  'POST /api/tags': 'staff',
  'GET /api/surveys': 'staff',
  'GET /api/surveys/:id': 'staff',
  'POST /api/surveys': 'staff',
  'PATCH /api/surveys/:id': 'staff',
  'DELETE /api/surveys/:id': 'staff',
  'POST /api/pages': 'staff',
  'PATCH /api/pages/:id': 'staff',
  'DELETE /api/pages/:id': 'staff',
  'POST /api/questions': 'staff',
  'PATCH /api/questions/:id': 'staff',
  'DELETE /api/questions/:id': 'staff',
  'POST /api/options': 'staff',
  'PATCH /api/options/:id': 'staff',
  'DELETE /api/options/:id': 'staff',
  'GET /api/engagements-options': 'staff',
  'POST /api/engagements-options': 'staff',
  'PATCH /api/engagements-options/:id': 'staff',
  'POST /api/update-engagements-options/:optionId': 'staff',
  'GET /api/o-forms/o-form-field-types': 'staff',
  'GET /api/o-forms/o-form-field-categories': 'staff',
  'GET /api/o-forms/o-forms': 'staff',
  'GET /api/o-forms/o-forms/:id': 'staff',
  'POST /api/o-forms/o-forms': 'staff',
  'PATCH /api/o-forms/o-forms/:id': 'staff',
  'DELETE /api/o-forms/o-forms/:id': 'staff',
  'POST /api/o-forms/o-form-copy': 'staff',
  'GET /api/o-forms/o-form-versions/:id': 'staff',
  'PATCH /api/o-forms/o-form-versions/:id': 'staff',
  'GET /api/o-forms/o-form-containers/:id': 'staff',
  'POST /api/o-forms/o-form-containers': 'staff',
  'PATCH /api/o-forms/o-form-containers/:id': 'staff',
  'DELETE /api/o-forms/o-form-containers/:id': 'staff',
  'POST /api/o-forms/o-form-fields': 'staff',
  'GET /api/o-forms/o-form-fields/:id': 'staff',
  'PATCH /api/o-forms/o-form-fields/:id': 'staff',
  'DELETE /api/o-forms/o-form-fields/:id': 'staff',
  'GET /api/o-forms/languages-o-forms': 'staff',
  'GET /api/o-forms/o-forms/:id/missing-translations': 'staff',
  'POST /api/o-forms/export-to-pdf/:id/:showApproved': 'staff',
  'GET /api/o-forms/o-form-exports/:id': 'staff',
  'GET /api/export-survey-metrics/:id': 'staff',
  'GET /api/recruitment-funnel': 'staff',
  'GET /api/survey-page-metrics/:id': 'staff',
  'GET /jwt/saml': 'public',
  'POST /jwt/saml/acs/:service': 'public',
  'GET /jwt/saml/logout': 'public',
  'GET /jwt/saml/metadata/:service': 'public',
  'GET /favicon.ico': 'public',
  'GET /widget.js': 'public',
  'GET /widget/:file{[A-Za-z0-9_-]+\\.js}': 'public',
  'GET /demo': 'public',
  'GET /demo/': 'public',
  'GET /take/:mediaChannelId': 'public',
};

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
  path.replace(/:service\b/g, 'duo').replace(/:identity\b/g, 'no-such-survey').replace(/:\w+/g, '999999');

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
    expect(routes.filter((r) => !(r in RULES)), 'routes without an authorization rule').toEqual([]);
    expect(Object.keys(RULES).filter((r) => !routes.includes(r)), 'rules for routes that no longer exist').toEqual([]);
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
          body: method === 'GET' || method === 'DELETE' ? undefined : { data: { attributes: { oFormSubmissionId: 999999, oFormContainerId: 999999, start: new Date().toISOString(), identity: 'p1', answers: {}, pageIds: [] } } },
        });
        if (res.status === 401 || res.status === 403) wrong.push(`${route} with a submission token: ${res.status}, expected not 401/403`);
      }
    }
    expect(wrong).toEqual([]);
    // Every route four times over, one after another: it grows with the API and takes a while on a busy machine.
  }, 90_000);
});
