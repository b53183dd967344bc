/**
 * One call of the participant API, over plain fetch: the JSON:API headers, the submission's
 * access token (answered once by the submission's creation, sent back on every later call), the
 * media channel named in the query of every call (the server's CORS answer depends on it), and
 * the answer read as the contract's document (./responses.ts) or, for a 422, as field problems.
 * A call with a body sends it as text/plain with the token in its `meta` (./wire.ts): a POST
 * then needs no CORS preflight, so a Next on a partner's page is one request on the wire. Every
 * call about a submission has a body (reads POST one with only the token), so none sends a
 * header that would cost a preflight.
 * The start of a run (./start.ts) and the rest of the transport (./transport.ts) share one caller,
 * so the widget can load the second while the first question is on screen.
 */
import { JSON_API_MEDIA_TYPE } from '../jsonapi';
import type { FieldErrors } from '../survey/runner';
import { HttpError } from './httpError';
import { jsonText } from './jsonText';
import type { ErrorDocument, ParticipantAnswer, ParticipantAnswerName } from './responses';
import { SIMPLE_BODY_TYPE, SUBMISSION_TOKEN_HEADER, SUBMISSION_TOKEN_META } from './wire';

export interface ParticipantCallOptions {
  /** The product's origin, e.g. https://recruit.example (the widget takes it from its script's src). */
  apiOrigin: string;
  /** The channel every call names (none in the admin's preview). */
  mediaChannelId?: string | null;
  fetch?: typeof fetch;
  /** Checks each answer against the contract (throwing when it breaks it), e.g. checkParticipantAnswer. */
  check?: (answer: ParticipantAnswerName, status: number, body: unknown) => void;
}

export type Called<K extends ParticipantAnswerName> = { ok: true; body: ParticipantAnswer<K> } | { ok: false; errors: FieldErrors };

export interface ParticipantCaller {
  /**
   * One call under /api/o-forms (or, from `/..`, beside it): a POST with `body`, else a GET;
   * answered by the contract's document for `answer`; a 422 gives its problems; any other failure
   * throws HttpError.
   */
  call<K extends ParticipantAnswerName>(path: string, answer: K, body?: { data?: { type?: string; id?: string; attributes: object } }): Promise<Called<K>>;
  /** The submission's access token once answered (or handed back on a resume). */
  token: string | null;
  /** The channel the calls name. */
  channel: string | null;
}

/** A 422's problems by question identity, contact field name, `zip` or `acceptTerms`: each error's pointer's last part, or its parameter. */
export function fieldErrors({ errors }: ErrorDocument): FieldErrors {
  const out: FieldErrors = {};
  for (const { source, detail, title } of errors) {
    const name = source?.pointer?.split('/').pop() ?? source?.parameter;
    if (name && !(name in out)) out[name] = detail ?? title;
  }
  return out;
}

/** A call's answer that must be one: a refusal (422) of a call whose input is the widget's own, not the participant's, is a failure. */
export function bodyOf<K extends ParticipantAnswerName>(got: Called<K>): ParticipantAnswer<K> {
  if (!got.ok) throw new HttpError(422);
  return got.body;
}

export function createParticipantCaller(options: ParticipantCallOptions): ParticipantCaller {
  const doFetch = options.fetch ?? fetch.bind(globalThis);
  const caller: ParticipantCaller = {
    token: null,
    channel: options.mediaChannelId ?? null,
    async call(path, answer, body) {
      // The token only ever in a body: a call without one (the survey, a page) is about no submission.
      const headers: Record<string, string> = { Accept: JSON_API_MEDIA_TYPE };
      if (body) headers['Content-Type'] = SIMPLE_BODY_TYPE;
      const sent = body && caller.token ? { ...body, meta: { [SUBMISSION_TOKEN_META]: caller.token } } : body;
      const channel = caller.channel;
      const url = `${options.apiOrigin}/api/o-forms${path}${channel === null ? '' : `${path.includes('?') ? '&' : '?'}mediaChannelId=${encodeURIComponent(channel)}`}`;
      const response = await doFetch(url, { method: body ? 'POST' : 'GET', headers, credentials: 'omit', body: sent && jsonText(sent) });
      caller.token = response.headers.get(SUBMISSION_TOKEN_HEADER) ?? caller.token;
      if (!response.ok && response.status !== 422) throw new HttpError(response.status, (await response.json().catch(() => 0))?.errors?.[0]);
      const text = await response.text();
      const doc = JSON.parse(text || '{}');
      options.check?.(answer, response.status, doc);
      return response.status === 422 ? { ok: false, errors: fieldErrors(doc) } : { ok: true, body: doc };
    },
  };
  return caller;
}
