/**
 * A test SAML identity provider: reads our AuthnRequest, and builds responses signed with the
 * fixture keys in tests/fixtures/saml (or deliberately broken ones for the attack tests).
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';

const dir = path.resolve(import.meta.dirname, '../fixtures/saml');
export const IDP_CERT = fs.readFileSync(path.join(dir, 'idp.crt'), 'utf8');
export const IDP_KEY = fs.readFileSync(path.join(dir, 'idp.key'), 'utf8');
export const ATTACKER_CERT = fs.readFileSync(path.join(dir, 'attacker.crt'), 'utf8');
export const ATTACKER_KEY = fs.readFileSync(path.join(dir, 'attacker.key'), 'utf8');
export const IDP_ISSUER = 'http://idp.test/metadata';

export interface AuthnRequestInfo {
  id: string;
  acsUrl: string;
  relayState: string | null;
}

/** The AuthnRequest carried by our redirect to the identity provider. */
export function readAuthnRequest(location: string): AuthnRequestInfo {
  const url = new URL(location);
  const encoded = url.searchParams.get('SAMLRequest');
  if (!encoded) throw new Error(`no SAMLRequest in ${location}`);
  const xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
  const id = /\bID="([^"]+)"/.exec(xml)?.[1];
  const acsUrl = /AssertionConsumerServiceURL="([^"]+)"/.exec(xml)?.[1];
  if (!id || !acsUrl) throw new Error(`unexpected AuthnRequest: ${xml}`);
  return { id, acsUrl, relayState: url.searchParams.get('RelayState') };
}

export interface ResponseOptions {
  inResponseTo: string;
  acsUrl: string;
  audience: string;
  email: string;
  issuer?: string;
  recipient?: string;
  /** Seconds from now; negative for an expired assertion. */
  validForSeconds?: number;
  notBeforeSeconds?: number;
  sign?: 'idp' | 'attacker' | 'none';
  assertionId?: string;
  /** Signature wrapping: an unsigned assertion for this e-mail placed before the signed one. */
  wrapWithEmail?: string;
}

const iso = (offsetSeconds: number) => new Date(Date.now() + offsetSeconds * 1000).toISOString();
const rid = () => `_${randomBytes(16).toString('hex')}`;

function assertionXml(o: ResponseOptions, id: string, email: string): string {
  const issuer = o.issuer ?? IDP_ISSUER;
  const until = iso(o.validForSeconds ?? 300);
  return `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${iso(0)}"><saml:Issuer>${issuer}</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${email}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${o.inResponseTo}" NotOnOrAfter="${until}" Recipient="${o.recipient ?? o.acsUrl}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${iso(o.notBeforeSeconds ?? -60)}" NotOnOrAfter="${until}"><saml:AudienceRestriction><saml:Audience>${o.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${iso(0)}" SessionIndex="${rid()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement></saml:Assertion>`;
}

function sign(xml: string, assertionId: string, key: string, cert: string): string {
  const signer = new SignedXml({
    privateKey: key,
    publicCert: cert,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  signer.addReference({
    xpath: `//*[local-name(.)='Assertion' and @ID='${assertionId}']`,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  signer.computeSignature(xml, {
    location: { reference: `//*[local-name(.)='Assertion' and @ID='${assertionId}']/*[local-name(.)='Issuer']`, action: 'after' },
  });
  return signer.getSignedXml();
}

/** A base64 SAMLResponse as the identity provider would post it. */
export function buildResponse(o: ResponseOptions): string {
  const assertionId = o.assertionId ?? rid();
  const issuer = o.issuer ?? IDP_ISSUER;
  const open = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${rid()}" Version="2.0" IssueInstant="${iso(0)}" Destination="${o.acsUrl}" InResponseTo="${o.inResponseTo}"><saml:Issuer>${issuer}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>`;
  let xml = `${open}${assertionXml(o, assertionId, o.email)}</samlp:Response>`;
  const mode = o.sign ?? 'idp';
  if (mode === 'idp') xml = sign(xml, assertionId, IDP_KEY, IDP_CERT);
  if (mode === 'attacker') xml = sign(xml, assertionId, ATTACKER_KEY, ATTACKER_CERT);
  if (o.wrapWithEmail) {
    const evil = assertionXml(o, rid(), o.wrapWithEmail);
    xml = xml.replace('<saml:Assertion ', `${evil}<saml:Assertion `);
  }
  return Buffer.from(xml, 'utf8').toString('base64');
}
