/**
 * SAML 2.0 single sign-on through @node-saml/node-saml, with the checks it leaves to us:
 * the recipient and destination must be our assertion consumer URL, and each assertion is
 * accepted once (replay store in the database, like the ids of the requests we sent).
 */
// Types only: node-saml (with its XML signature and DOM libraries) is imported at the first SSO
// request. Loaded, it holds about 15 MB of the server process's memory; most processes never see one.
import type { CacheProvider, SAML } from '@node-saml/node-saml';
import { and, eq, gt } from 'drizzle-orm';
import { isEmail } from '@core/validation/rules';
import type { SsoServiceConfig } from '../config';
import type { Db } from '../db/open';
import { ssoAssertions, ssoRequests } from '../db/schema';

const REQUEST_LIFETIME_MS = 10 * 60 * 1000;
/** Clock skew allowed between us and the identity provider. */
const CLOCK_SKEW_MS = 60 * 1000;

export class SsoRejected extends Error {
  override name = 'SsoRejected';
}

/**
 * The ids of AuthnRequests we sent live in the database, so every server process knows them.
 * node-saml judges a request's age (and an assertion's validity) against the wall clock itself,
 * so the times kept here are the wall clock's too, not the database's now().
 */
function requestStore(db: Db, service: string): CacheProvider {
  return {
    async saveAsync(key, value) {
      const created = new Date();
      await db.insert(ssoRequests).values({ id: key, service, created }).onConflictDoNothing();
      return { value, createdAt: created.getTime() };
    },
    // node-saml reads the value as the time the request was made.
    async getAsync(key) {
      const [row] = await db
        .select({ created: ssoRequests.created })
        .from(ssoRequests)
        .where(and(eq(ssoRequests.id, key), eq(ssoRequests.service, service), gt(ssoRequests.created, new Date(Date.now() - REQUEST_LIFETIME_MS))));
      return row ? row.created.toISOString() : null;
    },
    async removeAsync(key) {
      if (!key) return null;
      const removed = await db.delete(ssoRequests).where(eq(ssoRequests.id, key)).returning({ id: ssoRequests.id });
      return removed[0]?.id ?? null;
    },
  };
}

export async function samlClient(db: Db, service: SsoServiceConfig): Promise<SAML> {
  const { SAML, ValidateInResponseTo } = await import('@node-saml/node-saml');
  return new SAML({
    entryPoint: service.entryPoint,
    issuer: service.issuer,
    callbackUrl: service.callbackUrl,
    idpCert: service.idpCert,
    idpIssuer: service.idpIssuer ?? undefined,
    audience: service.issuer,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: REQUEST_LIFETIME_MS,
    cacheProvider: requestStore(db, service.name),
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    disableRequestedAuthnContext: true,
  });
}

export interface SsoIdentity {
  email: string;
  nameID: string;
}

const SAML_ASSERTION_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';

/** Validates a posted SAMLResponse and answers who signed in; throws SsoRejected otherwise. */
export async function acceptResponse(db: Db, service: SsoServiceConfig, samlResponse: string): Promise<SsoIdentity> {
  const saml = await samlClient(db, service);
  const { DOMParser } = await import('@xmldom/xmldom');
  const parse = (xml: string) => new DOMParser().parseFromString(xml, 'text/xml');
  let profile: Awaited<ReturnType<typeof saml.validatePostResponseAsync>>['profile'];
  try {
    ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (error) {
    throw new SsoRejected(error instanceof Error ? error.message : String(error));
  }
  if (!profile?.getAssertionXml) throw new SsoRejected('The response carries no assertion.');

  const response = parse(Buffer.from(samlResponse, 'base64').toString('utf8')).documentElement;
  const destination = response?.getAttribute('Destination');
  if (destination && destination !== service.callbackUrl) throw new SsoRejected('The response was sent to another destination.');

  // Read from the assertion node-saml verified, not from the document as posted (signature wrapping).
  const assertion = parse(profile.getAssertionXml()).documentElement;
  const assertionId = assertion?.getAttribute('ID');
  if (!assertion || !assertionId) throw new SsoRejected('The assertion has no ID.');
  const issuer = assertion.getElementsByTagNameNS(SAML_ASSERTION_NS, 'Issuer')[0]?.textContent?.trim();
  if (service.idpIssuer && issuer !== service.idpIssuer) throw new SsoRejected('The assertion comes from another identity provider.');
  const confirmations = Array.from(assertion.getElementsByTagNameNS(SAML_ASSERTION_NS, 'SubjectConfirmationData'));
  if (confirmations.length === 0 || confirmations.some((c) => c.getAttribute('Recipient') !== service.callbackUrl)) {
    throw new SsoRejected('The assertion is meant for another recipient.');
  }

  const fresh = await db.insert(ssoAssertions).values({ id: assertionId, service: service.name }).onConflictDoNothing().returning();
  if (fresh.length === 0) throw new SsoRejected('This assertion was already used.');

  const email = (typeof profile.email === 'string' ? profile.email : (profile.nameID ?? '')).trim().toLowerCase();
  if (!isEmail(email)) throw new SsoRejected('The identity provider sent no e-mail address.');
  return { email, nameID: profile.nameID };
}
