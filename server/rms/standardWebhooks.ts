/**
 * Standard Webhooks (standardwebhooks.com, v1 symmetric): the signed content is
 * `{webhook-id}.{webhook-timestamp}.{body}`, signed with HMAC-SHA256 under the secret's key
 * bytes (the base64 after `whsec_`) and sent as `webhook-signature: v1,<base64>`. Receivers
 * can verify with any Standard Webhooks library; the record system's callbacks are verified
 * the same way, with a five-minute tolerance on the timestamp against replays.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { secretKeyBytes } from '@core/model/rmsProvider';

export const WEBHOOK_ID = 'webhook-id';
export const WEBHOOK_TIMESTAMP = 'webhook-timestamp';
export const WEBHOOK_SIGNATURE = 'webhook-signature';
/** How far a callback's timestamp may be from our clock (the specification's libraries use 5 minutes). */
export const TOLERANCE_SECONDS = 5 * 60;

export interface WebhookHeaders {
  [WEBHOOK_ID]: string;
  [WEBHOOK_TIMESTAMP]: string;
  [WEBHOOK_SIGNATURE]: string;
}

function keyOf(secret: string): Buffer {
  const bytes = secretKeyBytes(secret);
  if (!bytes) throw new Error('Not a Standard Webhooks secret (whsec_ and 24 to 64 bytes in base64).');
  return Buffer.from(bytes);
}

const signature = (key: Buffer, id: string, seconds: number, body: string) =>
  createHmac('sha256', key).update(`${id}.${seconds}.${body}`, 'utf8').digest('base64');

/** The three headers of a message `id` sent at `at` with exactly these body bytes. */
export function signMessage(secret: string, id: string, at: Date, body: string): WebhookHeaders {
  // A '.' in the id would let one signed content pass for another.
  if (id.includes('.')) throw new Error('A webhook id must not contain "."');
  const seconds = Math.floor(at.getTime() / 1000);
  return { [WEBHOOK_ID]: id, [WEBHOOK_TIMESTAMP]: String(seconds), [WEBHOOK_SIGNATURE]: `v1,${signature(keyOf(secret), id, seconds, body)}` };
}

/**
 * Whether `headers` sign exactly these body bytes under `secret`, at a timestamp within the
 * tolerance of `now`. Any of the space-separated `v1` signatures may match (constant-time).
 */
export function verifyMessage(secret: string, headers: (name: string) => string | undefined, body: string, now: Date): boolean {
  const id = headers(WEBHOOK_ID);
  const timestamp = headers(WEBHOOK_TIMESTAMP);
  const signatures = headers(WEBHOOK_SIGNATURE);
  if (!id || !timestamp || !signatures || id.includes('.') || !/^\d{1,12}$/.test(timestamp)) return false;
  const seconds = Number(timestamp);
  if (Math.abs(now.getTime() / 1000 - seconds) > TOLERANCE_SECONDS) return false;
  let key: Buffer;
  try {
    key = keyOf(secret);
  } catch {
    return false;
  }
  const expected = Buffer.from(signature(key, id, seconds, body));
  return signatures.split(' ').some((entry) => {
    const [version, given] = entry.split(',', 2);
    if (version !== 'v1' || !given) return false;
    const bytes = Buffer.from(given);
    return bytes.length === expected.length && timingSafeEqual(bytes, expected);
  });
}
