/**
 * The HMAC-SHA256 signature shared by both directions of the record-system link: the webhook
 * signs each push's body with the provider's signing secret, and the record system signs its
 * callbacks the same way. Header form: `X-Signature: sha256=<lower-case hex>`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Signature';
const PREFIX = 'sha256=';
const HEX_DIGEST = /^[0-9a-f]{64}$/;

export function signBody(body: string, secret: string): string {
  return `${PREFIX}${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/** Whether `header` is the signature of exactly these body bytes under `secret` (constant-time). */
export function verifySignature(header: string | null | undefined, body: string, secret: string): boolean {
  const given = header?.trim().toLowerCase() ?? '';
  if (!given.startsWith(PREFIX) || !HEX_DIGEST.test(given.slice(PREFIX.length))) return false;
  const expected = signBody(body, secret);
  return timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}
