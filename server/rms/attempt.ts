/**
 * One HTTP attempt to a record system and what it came to: whether it succeeded, what the
 * receiver said, and whether trying again can help. A 400, 401, 403, 404 or 422 (and any other
 * answer that is not 408, 425, 429 or 5xx) means "never": retrying stops at once. Timeouts,
 * refused connections and 408/425/429/5xx are retried; a `Retry-After` on a 429 or 503 is
 * honoured. Redirects are not followed: they would carry the contact somewhere nobody set.
 */
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

function describeError(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `Timed out after ${timeoutMs} ms.`;
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  const detail = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
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
}

/** POSTs once and classifies the outcome; never throws. */
export async function postOnce({ url, headers, body, timeoutMs, now, describeFailure }: PostOptions): Promise<AttemptResult> {
  try {
    const response = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    const full = await readLimited(response);
    const text = truncate(full);
    const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
    if (response.ok) return { succeeded: true, status: response.status, responseMessage: status, responseBody: text, retryable: false, retryAfterSeconds: null };
    if (response.status >= 300 && response.status < 400) {
      return failure(`${status}: redirects are not followed.`, false, { status: response.status, responseBody: text });
    }
    const described = describeFailure?.(full);
    return failure(described ? `${status}: ${described}` : status, isRetryableStatus(response.status), {
      status: response.status,
      responseBody: text,
      retryAfterSeconds: response.status === 429 || response.status === 503 ? retryAfterSeconds(response.headers.get('retry-after'), now) : null,
    });
  } catch (error) {
    return failure(describeError(error, timeoutMs), true);
  }
}
