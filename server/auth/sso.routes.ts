/**
 * Single sign-on (SAML) browser routes under /jwt/saml: start, assertion consumer, sign-out and
 * service-provider metadata. The sign-in itself completes at POST /api/jwt/login?auth_service=.
 */
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { html } from 'hono/html';
import * as v from 'valibot';
import { nowOf, type AppEnv, type Deps } from '../context';
import type { SsoServiceConfig } from '../config';
import { findUserByEmail } from './users';
import { acceptResponse, samlClient, SsoRejected } from './saml';
import { leaveHandoff } from './ssoHandoff';
import { ApiProblem } from '../http/errors';
import { describe } from '../openapi/describe';

export const SSO_MESSAGES = {
  notConfigured: (service: string) => `Single sign-on through '${service}' is not configured on this server.`,
  rejected: 'The identity provider’s answer could not be accepted. Try signing in again.',
  tooLarge: 'The identity provider’s answer is too large to be accepted. Try signing in again.',
  noAccount: (email: string) => `No active staff account uses the e-mail address ${email}. Ask an Administrator to create or activate one.`,
} as const;

/** What the identity provider's page posts (SAML 2.0 HTTP-POST binding): the response, and where to go after. */
const AssertionForm = v.object({ SAMLResponse: v.pipe(v.string(), v.minLength(1)), RelayState: v.optional(v.string()) });

/** The media type of SAML metadata (RFC 7303 registration, SAML 2.0 metadata). */
const SAML_METADATA_MEDIA_TYPE = 'application/samlmetadata+xml';

const page = (c: Context, status: 400 | 401 | 404 | 413, message: string) =>
  c.html(
    html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in</title></head>
<body style="font-family:system-ui;background:#000;color:#fff;display:grid;place-items:center;min-height:90vh">
<main style="max-width:32rem"><h1>Single sign-on</h1><p role="alert">${message}</p><p><a style="color:#8ab4ff" href="/login">Back to sign-in</a></p></main></body></html>`,
    status,
  );

export function ssoRoutes(deps: Deps) {
  const { db, config } = deps;
  const app = new Hono<AppEnv>();
  const origin = config.publicUrl ? new URL(config.publicUrl).origin : null;

  const serviceOf = (name: string | undefined): SsoServiceConfig | null => (name ? (config.ssoServices[name.toLowerCase()] ?? null) : null);

  /** Only our own pages may be the target after sign-in (no open redirect). */
  const safeTarget = (target: string | undefined, service: string): string => {
    const fallback = `/login?submit=1&auth_service=${encodeURIComponent(service)}`;
    if (!target) return fallback;
    if (target.startsWith('/') && !target.startsWith('//') && !target.startsWith('/\\')) return target;
    try {
      const url = new URL(target);
      return origin && url.origin === origin ? `${url.pathname}${url.search}` : fallback;
    } catch {
      return fallback;
    }
  };

  app.get(
    '/',
    describe({
      summary: 'Single sign-on: start at the identity provider',
      access: 'public',
      answer: { redirect: true, pages: { '404': 'No single sign-on service of that name is configured.' } },
    }),
    async (c) => {
      const name = c.req.query('auth_service') ?? '';
      const service = serviceOf(name);
      if (!service) return page(c, 404, SSO_MESSAGES.notConfigured(name.slice(0, 40)));
      const relayState = safeTarget(c.req.query('auth_target'), service.name);
      const url = await (await samlClient(db, service)).getAuthorizeUrlAsync(relayState, undefined, {});
      return c.redirect(url, 302);
    },
  );

  // A SAML response is tens of kilobytes; the form is not read past this.
  const acsBody = bodyLimit({ maxSize: 1024 * 1024, onError: (c) => page(c, 413, SSO_MESSAGES.tooLarge) });

  app.post(
    '/acs/:service',
    describe({
      summary: "Single sign-on: the identity provider's answer (SAML assertion consumer)",
      access: 'public',
      body: { form: AssertionForm },
      answer: {
        redirect: true,
        status: 303,
        pages: {
          '400': 'The form carries no SAML response.',
          '401': 'The SAML response could not be accepted, or no active staff account uses its e-mail address.',
          '404': 'No single sign-on service of that name is configured.',
          '413': 'The form is larger than 1 MB.',
        },
      },
    }),
    acsBody,
    async (c) => {
      const service = serviceOf(c.req.param('service'));
      if (!service) return page(c, 404, SSO_MESSAGES.notConfigured(c.req.param('service').slice(0, 40)));
      const form = c.var.body.parse(await c.req.parseBody().catch(() => ({})));
      if (!form.success) return page(c, 400, SSO_MESSAGES.rejected);
      const { SAMLResponse: samlResponse, RelayState: relayState } = form.output;
      let identity: Awaited<ReturnType<typeof acceptResponse>>;
      try {
        identity = await acceptResponse(db, service, samlResponse);
      } catch (error) {
        if (!(error instanceof SsoRejected)) throw error;
        deps.log.warn('sso rejected', { requestId: c.get('requestId'), service: service.name, reason: error.message });
        return page(c, 401, SSO_MESSAGES.rejected);
      }
      // Staff are matched by e-mail; nobody is created here (an Administrator creates staff).
      const user = await findUserByEmail(db, identity.email);
      if (!user || !user.isActive) return page(c, 401, SSO_MESSAGES.noAccount(identity.email));
      await leaveHandoff(c, db, user.id, service.name, config.publicUrl?.startsWith('https:') ?? false, nowOf(deps));
      return c.redirect(safeTarget(relayState, service.name), 303);
    },
  );

  app.get('/logout', describe({ summary: 'Single sign-on: sign out', access: 'public', answer: { redirect: true, pages: {} } }), (c) => {
    const service = serviceOf(c.req.query('auth_service'));
    return c.redirect(service?.logoutUrl ?? '/login', 302);
  });

  app.get(
    '/metadata/:service',
    describe({ summary: "Single sign-on: this service provider's SAML metadata", access: 'public', answer: { media: SAML_METADATA_MEDIA_TYPE } }),
    async (c) => {
      const service = serviceOf(c.req.param('service'));
      // Read by a service provider's tooling, not a browser: refused as every API refusal is, in JSON:API.
      if (!service) throw new ApiProblem(404, [{ status: '404', title: 'Not Found', detail: SSO_MESSAGES.notConfigured(c.req.param('service').slice(0, 40)) }]);
      // Imported here, not at start (auth/saml.ts says why).
      const { generateServiceProviderMetadata } = await import('@node-saml/node-saml');
      const xml = generateServiceProviderMetadata({ issuer: service.issuer, callbackUrl: service.callbackUrl, wantAssertionsSigned: true });
      return c.body(xml, 200, { 'Content-Type': SAML_METADATA_MEDIA_TYPE });
    },
  );

  return app;
}
