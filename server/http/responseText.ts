/**
 * Answers whose body is text the handler built whole (JSON:API documents, error documents), with
 * that text kept beside the Response: compression (./compress.ts) reads it here instead of the
 * body. Reading a body makes @hono/node-server turn its lightweight Response into a web one
 * (a stream, then bytes again) — measured at most of compression's cost on small API answers.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

const texts = new WeakMap<Response, string>();

export function answerText(c: Context, text: string, status: ContentfulStatusCode, headers: Record<string, string>): Response {
  const res = c.body(text, status, headers);
  texts.set(res, text);
  return res;
}

/** The text `res` was made from by answerText; undefined for any other response. */
export const answeredText = (res: Response): string | undefined => texts.get(res);
