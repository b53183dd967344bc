/**
 * Single sign-on through SAML against a test identity provider signing with a fixture key:
 * the round trip, and each attack the issue names (unsigned, wrong key, signature wrapping,
 * wrong audience, expired, replayed, unsolicited, wrong recipient).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../../../server/db/schema';
import { SSO_MESSAGES } from '../../../server/auth/sso.routes';
import { LOGIN_MESSAGES } from '../../../server/auth/routes';
import { IDP_CERT, IDP_ISSUER, buildResponse, readAuthnRequest, type ResponseOptions } from '../../support/saml-idp';
import { createHarness, json, type Harness } from '../harness';

const PUBLIC = 'http://app.test';
const ACS = `${PUBLIC}/jwt/saml/acs/duo`;
const AUDIENCE = `${PUBLIC}/jwt/saml/metadata/duo`;
let h: Harness;

beforeAll(async () => {
  h = await createHarness({
    PUBLIC_URL: PUBLIC,
    SSO_SERVICES: 'duo',
    SSO_DUO_ENTRY_POINT: 'http://idp.test/sso',
    SSO_DUO_CERT: IDP_CERT,
    SSO_DUO_IDP_ISSUER: IDP_ISSUER,
    SSO_DUO_LOGOUT_URL: 'http://idp.test/logout',
  });
  const id = await h.createUser({ username: 'sso-staff', roles: ['Admin'] });
  await h.db.update(users).set({ email: 'Staff@Example.com' }).where(eq(users.id, id));
  const inactive = await h.createUser({ username: 'sso-gone', isActive: false });
  await h.db.update(users).set({ email: 'gone@example.com' }).where(eq(users.id, inactive));
});
afterAll(async () => {
  await h.close();
});

/** Starts a sign-in as the admin's button does, and answers the AuthnRequest it produced. */
async function start(target = '/login?submit=1&auth_service=duo') {
  const res = await h.app.request(`/jwt/saml?auth_service=duo&auth_target=${encodeURIComponent(target)}`);
  expect(res.status).toBe(302);
  const location = res.headers.get('location')!;
  expect(location.startsWith('http://idp.test/sso?')).toBe(true);
  return readAuthnRequest(location);
}

async function post(samlResponse: string, relayState: string | null = '/login?submit=1&auth_service=duo') {
  const body = new URLSearchParams({ SAMLResponse: samlResponse, ...(relayState ? { RelayState: relayState } : {}) });
  return h.app.request('/jwt/saml/acs/duo', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: body.toString(),
  });
}

const options = (request: { id: string }, extra: Partial<ResponseOptions> = {}): ResponseOptions => ({
  inResponseTo: request.id,
  acsUrl: ACS,
  audience: AUDIENCE,
  email: 'staff@example.com',
  ...extra,
});

async function exchange(cookie: string | null) {
  return h.app.request('/api/jwt/login?t=a&auth_service=duo', {
    method: 'POST',
    headers: { 'Content-Type': 'application/vnd.api+json', ...(cookie ? { Cookie: cookie } : {}) },
    body: JSON.stringify({ data: { username: '', password: '', code: '', lang: 'en' } }),
  });
}

const handoffCookie = (res: Response) => /sso_handoff=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0] ?? null;

describe('GET /api/jwt/sso-services', () => {
  it('names the configured services, so sign-in offers only those', async () => {
    const res = await h.app.request('/api/jwt/sso-services');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ services: ['duo'] });
  });
});

describe('the assertion consumer', () => {
  it('refuses a form over 1 MB with a page saying so, reading no further', async () => {
    const res = await post('a'.repeat(1024 * 1024 + 1));
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain(SSO_MESSAGES.tooLarge);
  });
});

describe('SSO round trip', () => {
  it('redirects to the identity provider, accepts its signed answer and exchanges the hand-off once for tokens', async () => {
    const request = await start();
    expect(request.acsUrl).toBe(ACS);
    expect(request.relayState).toBe('/login?submit=1&auth_service=duo');

    const acs = await post(buildResponse(options(request)));
    expect(acs.status).toBe(303);
    expect(acs.headers.get('location')).toBe('/login?submit=1&auth_service=duo');
    const cookie = handoffCookie(acs);
    expect(cookie).toBeTruthy();
    expect(acs.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    expect(acs.headers.get('set-cookie')).toMatch(/Path=\/api\/jwt/);

    const first = await exchange(cookie);
    const body = await json(first);
    expect(first.status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.data.user.username).toBe('sso-staff');
    expect(body.data.user.identityProvider).toBe('duo');
    expect((await h.request('GET', '/api/users/me', { token: body.access })).status).toBe(200);

    const again = await exchange(cookie);
    expect(again.status).toBe(401);
    expect((await json(again)).data.message).toBe(LOGIN_MESSAGES.ssoIncomplete);
  });

  it('refuses the exchange without a hand-off, and for an unknown service', async () => {
    expect((await exchange(null)).status).toBe(401);
    const res = await h.app.request('/api/jwt/login?t=a&auth_service=okta', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"data":{"username":"","password":""}}',
    });
    expect((await json(res)).data.message).toBe(LOGIN_MESSAGES.ssoUnavailable('okta'));
  });

  it('sends nobody to a foreign site after sign-in (no open redirect)', async () => {
    const request = await start('https://evil.example/steal');
    expect(request.relayState).toBe('/login?submit=1&auth_service=duo');
    const acs = await post(buildResponse(options(request)), 'https://evil.example/steal');
    expect(acs.headers.get('location')).toBe('/login?submit=1&auth_service=duo');
  });

  it('refuses a user it cannot match, and an inactive one, with a message', async () => {
    const unknown = await post(buildResponse(options(await start(), { email: 'stranger@example.com' })));
    expect(unknown.status).toBe(401);
    expect(await unknown.text()).toContain(SSO_MESSAGES.noAccount('stranger@example.com'));
    expect(handoffCookie(unknown)).toBeNull();
    const inactive = await post(buildResponse(options(await start(), { email: 'gone@example.com' })));
    expect(inactive.status).toBe(401);
  });

  it('signs out through the identity provider, and publishes metadata', async () => {
    const out = await h.app.request('/jwt/saml/logout?auth_service=duo');
    expect(out.headers.get('location')).toBe('http://idp.test/logout');
    const meta = await h.app.request('/jwt/saml/metadata/duo');
    expect(await meta.text()).toContain(ACS);
  });

  it('refuses the metadata of a service not configured with a JSON:API 404, as the document says', async () => {
    const res = await h.app.request('/jwt/saml/metadata/nowhere');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/vnd\.api\+json/);
    expect((await json(res)).errors).toEqual([{ status: '404', title: 'Not Found', detail: SSO_MESSAGES.notConfigured('nowhere') }]);
    const doc = await json(await h.app.request('/api/openapi.json'));
    expect(doc.paths['/jwt/saml/metadata/{service}'].get.responses['404']).toEqual({ $ref: '#/components/responses/E404' });
    expect(Object.keys(doc.components.responses.E404.content)).toEqual(['application/vnd.api+json']);
  });
});

describe('SSO attacks are refused and sign nobody in', () => {
  const refused = async (samlResponse: string) => {
    const res = await post(samlResponse);
    expect(res.status).toBe(401);
    expect(await res.text()).toContain(SSO_MESSAGES.rejected);
    expect(handoffCookie(res)).toBeNull();
  };

  it('an unsigned assertion', async () => refused(buildResponse(options(await start(), { sign: 'none' }))));
  it('an assertion signed by another key', async () => refused(buildResponse(options(await start(), { sign: 'attacker' }))));
  it('signature wrapping: an unsigned assertion beside the signed one', async () =>
    refused(buildResponse(options(await start(), { wrapWithEmail: 'stranger@example.com' }))));
  it('a wrong audience', async () => refused(buildResponse(options(await start(), { audience: 'http://other-sp.test' }))));
  it('an expired assertion', async () => refused(buildResponse(options(await start(), { validForSeconds: -600, notBeforeSeconds: -1200 }))));
  it('an assertion not yet valid', async () => refused(buildResponse(options(await start(), { notBeforeSeconds: 600 }))));
  it('another recipient', async () => refused(buildResponse(options(await start(), { recipient: 'http://other-sp.test/acs' }))));
  it('an unsolicited response (InResponseTo of no request we sent)', async () => refused(buildResponse(options({ id: '_never-sent-request' }))));
  it('another issuer', async () => refused(buildResponse(options(await start(), { issuer: 'http://evil-idp.test' }))));

  it('a replayed assertion, even for a fresh request', async () => {
    const assertionId = '_replayed-assertion-1';
    const first = await post(buildResponse(options(await start(), { assertionId })));
    expect(first.status).toBe(303);
    await refused(buildResponse(options(await start(), { assertionId })));
  });

  it('a response answering a request twice', async () => {
    const request = await start();
    expect((await post(buildResponse(options(request)))).status).toBe(303);
    await refused(buildResponse(options(request)));
  });
});
