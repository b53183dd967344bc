/**
 * One HTTP attempt to a record system and what it came to: whether it succeeded, what the
 * receiver said, and whether trying again can help. A 400, 401, 403, 404 or 422 (and any other
 * answer that is not 408, 425, 429 or 5xx) means "never": retrying stops at once. Timeouts,
 * refused connections and 408/425/429/5xx are retried; a `Retry-After` on a 429 or 503 is
 * honoured. Redirects are not followed: they would carry the contact somewhere nobody set. An
 * endpoint on a private network is not connected to (privateHosts.ts).
 */
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { guardedLookup, mayConnect, PRIVATE_ADDRESS_CODE, PRIVATE_HOST_REFUSED, type PrivateHostAllowance } from '../security/privateHosts';

export interface AttemptResult {
  succeeded: boolean;
  /** The receiver's HTTP status; null when no answer came. */
  status: number | null;
  /** Short outcome for staff: "HTTP 200 OK", "Timed out after 5000 ms.", ... */
  responseMessage: string;
  /** What the receiver answered (truncated), or '' when nothing came back. */
  responseBody: string;
  retryable: boolean;
  /** The receiver asked for at least this long before the next attempt (Retry-After). */
  retryAfterSeconds: number | null;
}

/** What of a record system's answer an audit keeps. */
export const RESPONSE_BODY_LIMIT = 2000;
/** What is read of an answer at all: a misbehaving endpoint cannot make us buffer megabytes. */
const READ_LIMIT = 64 * 1024;

export function truncate(text: string, limit = RESPONSE_BODY_LIMIT): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… [truncated]`;
}

export const failure = (responseMessage: string, retryable: boolean, extra: Partial<AttemptResult> = {}): AttemptResult => ({
  succeeded: false,
  status: null,
  responseMessage,
  responseBody: '',
  retryable,
  retryAfterSeconds: null,
  ...extra,
});

/** Whether another attempt can help after HTTP `status`. */
export const isRetryableStatus = (status: number) => status >= 500 || status === 408 || status === 425 || status === 429;

/** Retry-After as seconds from `now`: a number of seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now: Date): number | null {
  if (!header) return null;
  const text = header.trim();
  if (/^\d{1,9}$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

/** What a record system answered: its status line, headers and (at most READ_LIMIT of) its body. */
interface Answer {
  status: number;
  statusText: string;
  ok: boolean;
  header(name: string): string | null;
  body: string;
}

/**
 * One POST over node:http(s) with `lookup` choosing (and checking) the address connected to,
 * on a connection of its own (no pooled socket the receiver may be closing meanwhile);
 * redirects are never followed (node's client follows none). Rejects on a network failure or
 * when `signal` aborts, which also ends the reading of the body.
 */
function post(url: URL, options: { headers: Record<string, string>; body: string; signal: AbortSignal; lookup: LookupFunction }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const transport = url.protocol === 'https:' ? https : http;
    const request = transport.request(
      url,
      { method: 'POST', headers: options.headers, signal: options.signal, lookup: options.lookup, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          const status = response.statusCode ?? 0;
          const header = (name: string) => {
            const value = response.headers[name.toLowerCase()];
            return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
          };
          resolve({
            status,
            statusText: response.statusMessage ?? '',
            ok: status >= 200 && status < 300,
            header,
            body: Buffer.concat(chunks).subarray(0, READ_LIMIT).toString('utf8'),
          });
        };
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.byteLength;
          // A misbehaving endpoint cannot make us buffer megabytes.
          if (size >= READ_LIMIT) {
            response.destroy();
            done();
          }
        });
        response.on('end', done);
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

function describeError(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `Timed out after ${timeoutMs} ms.`;
  const code = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  const detail = typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
  return `Could not reach the record system (${detail}).`;
}

export interface PostOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  now: Date;
  /** Turns a failed answer's body into a readable message (a FHIR OperationOutcome). */
  describeFailure?: (body: string) => string | null;
  /** Which hosts on private networks the endpoint may reach (RMS_ALLOW_PRIVATE_HOSTS). */
  allowance: PrivateHostAllowance;
}

/** POSTs once and classifies the outcome; never throws. */
export async function postOnce({ url, headers, body, timeoutMs, now, describeFailure, allowance }: PostOptions): Promise<AttemptResult> {
  try {
    const target = new URL(url);
    // An address literal is not looked up: checked here instead.
    const literal = target.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) !== 0 && !mayConnect(allowance, literal, literal)) return failure(PRIVATE_HOST_REFUSED, false);
    const response = await post(target, { headers, body, signal: AbortSignal.timeout(timeoutMs), lookup: guardedLookup(allowance) });
    const full = response.body;
    const text = truncate(full);
    const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
    if (response.ok)
      return { succeeded: true, status: response.status, responseMessage: status, responseBody: text, retryable: false, retryAfterSeconds: null };
    if (response.status >= 300 && response.status < 400) {
      return failure(`${status}: redirects are not followed.`, false, { status: response.status, responseBody: text });
    }
    const described = describeFailure?.(full);
    return failure(described ? `${status}: ${described}` : status, isRetryableStatus(response.status), {
      status: response.status,
      responseBody: text,
      retryAfterSeconds: response.status === 429 || response.status === 503 ? retryAfterSeconds(response.header('retry-after'), now) : null,
    });
  } catch (error) {
    if (error instanceof Error && (error as Error & { code?: unknown }).code === PRIVATE_ADDRESS_CODE) return failure(PRIVATE_HOST_REFUSED, false);
    return failure(describeError(error, timeoutMs), true);
  }
}

export const TEST_UNREACHABLE = 'Could not reach the record system (no answer within its timeout, or the connection failed).';

/**
 * What "Send test" shows of an attempt: whether it succeeded, the HTTP status line, or a
 * classified failure. Never the receiver's body (nor a FHIR OperationOutcome read from it) and
 * never which network error it was, so a test cannot serve to probe other services or ports;
 * failures of the provider's own settings say what to fix.
 */
export function testOutcome(result: AttemptResult): { succeeded: boolean; status: number | null; responseMessage: string } {
  if (result.status !== null) return { succeeded: result.succeeded, status: result.status, responseMessage: `HTTP ${result.status}` };
  // No answer and not worth a retry: the settings or the endpoint's address were refused before sending.
  return { succeeded: result.succeeded, status: null, responseMessage: result.retryable ? TEST_UNREACHABLE : result.responseMessage };
}
