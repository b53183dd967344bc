/**
 * How large a request body may be: JSON bodies 1 MB, the two upload routes UPLOAD_LIMIT_MB plus
 * the multipart envelope. A declared Content-Length over the limit is refused before anything
 * reads the body; a body without one is read up to the limit (hono's bodyLimit) and refused
 * past it. Either way the rest of the body is never read, so the answer closes its connection
 * (see serve.ts): a kept-alive connection with unread bytes on it would break the next request.
 */
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../context';
import { payloadTooLarge, uploadTooLarge } from './errors';

export const JSON_BODY_LIMIT = 1024 * 1024;
/** Multipart uploads: the file itself is checked against UPLOAD_LIMIT_MB; this is the envelope's slack. */
const MULTIPART_SLACK = 64 * 1024;
const UPLOAD_PATHS = [/^\/api\/engagements-o-files\/[^/]+\/?$/, /^\/api\/engagements-site-locations\/upload\/[^/]+\/?$/];

export function bodyLimits(uploadLimitBytes: number): MiddlewareHandler<AppEnv> {
  const tooLargeJson = () => payloadTooLarge('1 MB');
  const tooLargeUpload = () => uploadTooLarge(uploadLimitBytes);
  const readJson = bodyLimit({
    maxSize: JSON_BODY_LIMIT,
    onError: () => {
      throw tooLargeJson();
    },
  });
  const readUpload = bodyLimit({
    maxSize: uploadLimitBytes + MULTIPART_SLACK,
    onError: () => {
      throw tooLargeUpload();
    },
  });
  return (c, next) => {
    const upload = c.req.method === 'POST' && UPLOAD_PATHS.some((p) => p.test(c.req.path));
    // A declared length decides alone, without asking the request for its body (which makes the
    // Node adapter build a web stream that stops reading the socket once nobody reads it).
    const declared = c.req.header('content-length');
    if (declared !== undefined && c.req.header('transfer-encoding') === undefined && /^\d+$/.test(declared)) {
      if (Number(declared) <= (upload ? uploadLimitBytes + MULTIPART_SLACK : JSON_BODY_LIMIT)) return next();
      throw upload ? tooLargeUpload() : tooLargeJson();
    }
    return upload ? readUpload(c, next) : readJson(c, next);
  };
}
