/**
 * Every HTML answer the server sends carries its security headers: a Content-Security-Policy
 * that allows scripts from this origin only and no framing, X-Frame-Options for browsers that
 * predate frame-ancestors, and nosniff (which every answer carries). Tried over the server's own
 * route table, as a visitor and as staff, with the bundles built and missing, and single sign-on
 * configured and not, so the error pages are among the answers.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDP_CERT } from '../support/saml-idp';
import { builtDist } from '../support/builtDist';
import { createParticipantFixture } from '../support/participantFixture';
import { createHarness, type Harness } from '../server/harness';

let built: Harness;
let bare: Harness;
let dist: string;
let channelId: number;

beforeAll(async () => {
  dist = builtDist({ 'admin/favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>' });
  built = await createHarness({
    DIST_DIR: dist,
    PUBLIC_URL: 'http://app.test',
    SSO_SERVICES: 'duo',
    SSO_DUO_ENTRY_POINT: 'http://idp.test/sso',
    SSO_DUO_CERT: IDP_CERT,
  });
  bare = await createHarness({ DIST_DIR: path.join(dist, 'missing') });
  channelId = Number((await createParticipantFixture(built.db)).mediaChannelId);
});
afterAll(async () => {
  await built.close();
  await bare.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

/** Every GET and POST route outside /api, with its parameters filled in, and the catch-all's kinds of path. */
function pagePaths(h: Harness): [string, string][] {
  const out = new Map<string, [string, string]>();
  for (const r of h.app.routes) {
    if (r.path.startsWith('/api') || !['GET', 'POST'].includes(r.method) || r.path.includes('*')) continue;
    const filled = r.path
      .replace(/:service\b/g, 'duo')
      .replace(/:mediaChannelId\b/g, '999999')
      .replace(/:\w+/g, 'x');
    out.set(`${r.method} ${filled}`, [r.method, filled]);
  }
  for (const p of [
    '/',
    '/sponsors/view/1',
    '/login',
    '/assets/missing-abc.js',
    '/nowhere.txt',
    '/demo',
    '/jwt/saml?auth_service=duo',
    '/jwt/saml?auth_service=other',
    '/jwt/saml/metadata/other',
    '/jwt/saml/logout?auth_service=duo',
  ]) {
    out.set(`GET ${p}`, ['GET', p]);
  }
  out.set('POST /jwt/saml/acs/other', ['POST', '/jwt/saml/acs/other']);
  if (h === built) out.set('GET /take/channel', ['GET', `/take/${channelId}`]);
  return [...out.values()];
}

describe('security headers', () => {
  it('every HTML answer has a CSP with scripts from this origin only, no framing, and nosniff', async () => {
    const staff = await built.token();
    const html: string[] = [];
    const wrong: string[] = [];
    for (const [name, h] of [
      ['built', built],
      ['bare', bare],
    ] as const) {
      for (const [method, p] of pagePaths(h)) {
        for (const token of [undefined, staff]) {
          const res = await h.request(method, p, {
            token,
            headers: { Accept: 'text/html' },
            ...(method === 'POST' ? { body: 'SAMLResponse=x', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } } : {}),
          });
          const label = `${name}: ${method} ${p.startsWith('/take/') ? '/take/channel' : p}`;
          if (res.headers.get('x-content-type-options') !== 'nosniff') wrong.push(`${label}: no nosniff`);
          if (!(res.headers.get('content-type') ?? '').startsWith('text/html')) continue;
          html.push(`${label} ${res.status}`);
          const csp = res.headers.get('content-security-policy') ?? '';
          if (!/(^|; )script-src 'self'(;|$)/.test(csp)) wrong.push(`${label}: script-src is not 'self' alone: "${csp}"`);
          if (!/(^|; )frame-ancestors 'none'(;|$)/.test(csp)) wrong.push(`${label}: framing allowed: "${csp}"`);
          if (!/(^|; )object-src 'none'(;|$)/.test(csp)) wrong.push(`${label}: plugins allowed: "${csp}"`);
          if (res.headers.get('x-frame-options') !== 'DENY') wrong.push(`${label}: no X-Frame-Options DENY`);
        }
      }
    }
    expect(wrong).toEqual([]);
    // What this covered: the SPA, the participant and demo pages, and the error pages of single sign-on.
    // (The metadata of a service not configured is a JSON:API 404, not a page.)
    expect(html).not.toContain('built: GET /jwt/saml/metadata/other 404');
    for (const page of [
      'built: GET / 200',
      'built: GET /sponsors/view/1 200',
      'built: GET /take/channel 200',
      'built: GET /demo/ 200',
      'bare: GET /demo/ 200',
      'built: GET /jwt/saml?auth_service=other 404',
      'built: POST /jwt/saml/acs/other 404',
      'built: POST /jwt/saml/acs/duo 401',
    ]) {
      expect(html, page).toContain(page);
    }
  });
});
