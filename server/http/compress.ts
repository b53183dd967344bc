/**
 * Response compression (brotli or gzip, as the client's Accept-Encoding allows). Built files
 * are compressed once per process and kept (see static.ts); API JSON and other text is
 * compressed per response with cheaper settings, since it is never reused.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { createMiddleware } from 'hono/factory';
import { answeredText } from './responseText';

export type Encoding = 'br' | 'gzip';

/** Text worth compressing; images, fonts, archives and uploads are compressed already or binary. */
const COMPRESSIBLE = /^(text\/|image\/svg\+xml|application\/(json|javascript|xml|[\w.-]+\+json|[\w.-]+\+xml)\b)/i;

/** Below this, the headers cost more than the bytes saved. */
export const MIN_COMPRESS_BYTES = 1024;

export const isCompressible = (contentType: string | null | undefined) => !!contentType && COMPRESSIBLE.test(contentType);

/**
 * The encoding to answer with: the client's most preferred of br and gzip (br on a tie, it is
 * smaller), or null for identity. `q=0` refuses an encoding; `*` stands for any not named.
 */
export function chooseEncoding(acceptEncoding: string | null | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name.trim(), Number.isFinite(value) ? value : 0);
  }
  const weight = (e: Encoding) => q.get(e) ?? (e === 'gzip' ? q.get('x-gzip') : undefined) ?? q.get('*') ?? 0;
  const br = weight('br');
  const gzip = weight('gzip');
  if (br <= 0 && gzip <= 0) return null;
  return br >= gzip ? 'br' : 'gzip';
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * A response body this small is compressed on the event loop: it takes tens of microseconds
 * there, while handing it to the thread pool and back costs about five times that in CPU
 * (measured with brotli 4 and gzip 6 on a 1.4 kB API answer: 20 µs against 110 µs).
 */
export const COMPRESS_INLINE_BYTES = 32 * 1024;

/**
 * `stored`: once per file and kept, so nearly the best ratio (brotli 11 would take seconds on
 * the admin's largest chunk for a few percent). `dynamic`: per response, so fast.
 */
export async function compressBytes(bytes: Uint8Array, encoding: Encoding, use: 'stored' | 'dynamic'): Promise<Buffer> {
  const inline = bytes.length <= COMPRESS_INLINE_BYTES;
  if (encoding === 'br') {
    const options = {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: use === 'stored' ? 9 : 4,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    };
    return inline ? zlib.brotliCompressSync(bytes, options) : brotli(bytes, options);
  }
  const options = { level: use === 'stored' ? 9 : 6 };
  return inline ? zlib.gzipSync(bytes, options) : gzip(bytes, options);
}

/** Adds Accept-Encoding to Vary without dropping what is there. */
export function varyOnEncoding(headers: Headers): void {
  const vary = headers.get('Vary');
  if (!vary) headers.set('Vary', 'Accept-Encoding');
  else if (!/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(vary)) headers.set('Vary', `${vary}, Accept-Encoding`);
}

/** Compresses text responses the handlers built whole (every route answers a buffered body). */
export const compress = () =>
  createMiddleware(async (c, next) => {
    await next();
    const res = c.res;
    // Status and headers first: asking for the body makes the Node adapter build a web Response.
    if (c.req.method === 'HEAD' || res.headers.has('Content-Encoding')) return;
    if (res.status < 200 || res.status === 204 || res.status === 206 || res.status === 304) return;
    if (!isCompressible(res.headers.get('Content-Type')) || /\bno-transform\b/i.test(res.headers.get('Cache-Control') ?? '')) return;
    const encoding = chooseEncoding(c.req.header('Accept-Encoding'));
    // Text an API handler answered is read from where it was kept, not back out of the body.
    const text = answeredText(res);
    const raw = text === undefined ? undefined : Buffer.from(text);
    if (!encoding || (raw && raw.length < MIN_COMPRESS_BYTES)) {
      // Nothing to compress; caches still learn the answer depends on the header.
      try {
        varyOnEncoding(res.headers);
        return;
      } catch {
        // Immutable headers (a Response from fetch): rebuilt below.
      }
    }
    if (!raw && !res.body) return;
    const headers = new Headers(res.headers);
    varyOnEncoding(headers);
    const bytes = raw ?? new Uint8Array(await res.arrayBuffer());
    let body: Uint8Array = bytes;
    if (encoding && bytes.length >= MIN_COMPRESS_BYTES) {
      body = await compressBytes(bytes, encoding, 'dynamic');
      headers.set('Content-Encoding', encoding);
      headers.delete('Content-Length');
    }
    // Cleared first: Hono's setter would otherwise copy the old headers back over these. The
    // status text is read only from a response already turned into a web one.
    c.res = undefined;
    c.res = new Response(body as Uint8Array<ArrayBuffer>, { status: res.status, ...(raw ? {} : { statusText: res.statusText }), headers });
  });
