/**
 * Standard Webhooks as a receiver would check it, written from the specification alone and on
 * WebCrypto rather than node:crypto, so the tests do not grade the server's signing with its
 * own code: the secret's key is the base64 after `whsec_`, the signed content is
 * `{webhook-id}.{webhook-timestamp}.{body}`, the signature `v1,<base64 HMAC-SHA256>`.
 */
import { randomBytes } from 'node:crypto';

/** A fresh Standard Webhooks secret: whsec_ and 32 random bytes in base64. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

async function hmacBase64(secret: string, content: string): Promise<string> {
  const raw = Uint8Array.from(atob(secret.replace(/^whsec_/, '')), (ch) => ch.charCodeAt(0));
  const key = await crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(content)));
  return btoa(String.fromCharCode(...mac));
}

type HeaderBag = Record<string, string | string[] | undefined>;
const one = (headers: HeaderBag, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * Whether the request's webhook headers sign `body` under `secret`, and its timestamp is within
 * `toleranceSeconds` of `nowSeconds`.
 */
export async function verifyStandardWebhook(secret: string, headers: HeaderBag, body: string, nowSeconds: number, toleranceSeconds = 300): Promise<boolean> {
  const id = one(headers, 'webhook-id');
  const timestamp = one(headers, 'webhook-timestamp');
  const signatures = one(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) return false;
  const expected = await hmacBase64(secret, `${id}.${timestamp}.${body}`);
  return signatures.split(' ').some((s) => s === `v1,${expected}`);
}

/** The headers a record system sends with a signed callback. */
export async function signStandardWebhook(secret: string, id: string, atSeconds: number, body: string): Promise<Record<string, string>> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(atSeconds),
    'webhook-signature': `v1,${await hmacBase64(secret, `${id}.${atSeconds}.${body}`)}`,
  };
}
