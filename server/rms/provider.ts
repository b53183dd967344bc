/**
 * Record-system providers behind one interface. A provider makes one delivery attempt; the
 * retries, their backoff and the audit row of every attempt are push.ts's business, so each
 * provider stays a plain "send this once and say what happened".
 *
 * - `none`: nothing leaves the server; the attempt is recorded as succeeded.
 * - `webhook`: HTTP POST of the contact as JSON to the provider's endpoint URL, signed with
 *   HMAC-SHA256 of the body (X-Signature), cut off after the provider's timeout.
 */
import type { rmsProviders } from '../db/schema';
import { SIGNATURE_HEADER, signBody } from './signature';

export type RmsProviderRow = typeof rmsProviders.$inferSelect;

export interface AttemptResult {
  succeeded: boolean;
  /** Short outcome for staff: "HTTP 200 OK", "Timed out after 5000 ms", ... */
  responseMessage: string;
  /** What the record system answered (truncated), or '' when nothing came back. */
  responseBody: string;
  /** False when trying again cannot help (a 4xx answer, missing configuration). */
  retryable: boolean;
}

export interface RmsProvider {
  /** Stored in each audit row, so audits stay readable if the provider row changes or goes. */
  readonly name: string;
  readonly providerId: number | null;
  readonly maxAttempts: number;
  send(body: string, attempt: number): Promise<AttemptResult>;
}

/** What of a record system's answer an audit keeps. */
export const RESPONSE_BODY_LIMIT = 2000;
/** What is read of an answer at all: a misbehaving endpoint cannot make us buffer megabytes. */
const READ_LIMIT = 64 * 1024;
const MAX_ATTEMPTS_CAP = 10;
const TIMEOUT_CAP_MS = 120_000;

export const NONE_PROVIDER_NAME = 'none';
export const NONE_RECORDED_MESSAGE = 'Recorded only: no record system is configured for this engagement.';

export function truncate(text: string, limit = RESPONSE_BODY_LIMIT): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… [truncated]`;
}

export function noneProvider(row: RmsProviderRow | null): RmsProvider {
  return {
    name: row?.name ?? NONE_PROVIDER_NAME,
    providerId: row?.id ?? null,
    maxAttempts: 1,
    send: () => Promise.resolve({ succeeded: true, responseMessage: NONE_RECORDED_MESSAGE, responseBody: '', retryable: false }),
  };
}

async function readLimited(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < READ_LIMIT) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, READ_LIMIT));
}

const failure = (responseMessage: string, retryable: boolean, responseBody = ''): AttemptResult => ({
  succeeded: false,
  responseMessage,
  responseBody,
  retryable,
});

function describeError(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `Timed out after ${timeoutMs} ms.`;
  }
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  const detail = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
  return `Could not reach the record system (${detail}).`;
}

export function webhookProvider(row: RmsProviderRow, options: { fetch?: typeof fetch } = {}): RmsProvider {
  const timeoutMs = Math.min(Math.max(row.timeoutMs, 1), TIMEOUT_CAP_MS);
  const doFetch = options.fetch ?? fetch;
  return {
    name: row.name,
    providerId: row.id,
    maxAttempts: Math.min(Math.max(row.maxAttempts, 1), MAX_ATTEMPTS_CAP),
    async send(body, attempt) {
      if (!row.endpointUrl) return failure('The record system has no endpoint URL configured.', false);
      // Contact details are only sent signed, so the receiver can tell our pushes from forgeries.
      if (!row.signingSecret) return failure('The record system has no signing secret configured.', false);
      let url: URL;
      try {
        url = new URL(row.endpointUrl);
      } catch {
        return failure('The record system endpoint URL is not a valid URL.', false);
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') return failure('The record system endpoint URL must be http or https.', false);

      const signal = AbortSignal.timeout(timeoutMs);
      try {
        const response = await doFetch(url, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Accept: 'application/json, text/plain;q=0.9, */*;q=0.5',
            [SIGNATURE_HEADER]: signBody(body, row.signingSecret),
            'X-Rms-Attempt': String(attempt),
          },
          body,
          // A redirect would carry the contact's details somewhere nobody configured.
          redirect: 'manual',
          signal,
        });
        const text = truncate(await readLimited(response));
        const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
        if (response.ok) return { succeeded: true, responseMessage: status, responseBody: text, retryable: false };
        if (response.status >= 300 && response.status < 400) return failure(`${status}: redirects are not followed.`, false, text);
        const retryable = response.status >= 500 || response.status === 408 || response.status === 429;
        return failure(status, retryable, text);
      } catch (error) {
        return failure(describeError(error, timeoutMs), true);
      }
    },
  };
}

/** The provider a row describes; no row (the engagement has none) records only. */
export function providerFor(row: RmsProviderRow | null, options: { fetch?: typeof fetch } = {}): RmsProvider {
  if (row?.kind === 'webhook') return webhookProvider(row, options);
  return noneProvider(row);
}
