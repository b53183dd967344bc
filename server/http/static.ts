/**
 * Serves the built bundles: the admin SPA (with history-mode fallback to index.html), the
 * widget at /widget.js. Hashed assets are cached for a year; index.html and widget.js are
 * revalidated with their ETag, since their names never change (partners' snippets name
 * widget.js).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import { chooseEncoding, compressBytes, isCompressible, MIN_COMPRESS_BYTES, varyOnEncoding, type Encoding } from './compress';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** The file under `root` that `urlPath` names, or null (never a path outside root). */
export function resolveUnder(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const full = path.resolve(root, `.${path.posix.normalize(`/${decoded}`)}`);
  if (full !== root && !full.startsWith(root + path.sep)) return null;
  try {
    return fs.statSync(full).isFile() ? full : null;
  } catch {
    return null;
  }
}

interface CachedFile {
  /** Stands for the file's version: a rebuilt file (new mtime or size) is read again. */
  version: string;
  raw: Buffer;
  hash: string;
  encoded: Partial<Record<Encoding, Promise<Buffer>>>;
}

/** Built files by path; the dist folder is a few megabytes, so every version asked for stays. */
const files = new Map<string, CachedFile>();

function cached(file: string): CachedFile {
  const stat = fs.statSync(file);
  const version = `${stat.mtimeMs}:${stat.size}`;
  const hit = files.get(file);
  if (hit?.version === version) return hit;
  const raw = fs.readFileSync(file);
  const entry: CachedFile = { version, raw, hash: createHash('sha256').update(raw).digest('base64url').slice(0, 22), encoded: {} };
  files.set(file, entry);
  return entry;
}

/** True when an If-None-Match header names `etag` (weak comparison, as RFC 9110 asks for GET). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * Answers a built file: compressed as the client accepts (once per file and process), with an
 * ETag per representation so `revalidate` files cost a 304 when unchanged.
 */
export async function sendFile(c: Context, file: string, cache: 'immutable' | 'revalidate', headers: Record<string, string> = {}): Promise<Response> {
  const entry = cached(file);
  const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
  const encoding = isCompressible(type) && entry.raw.length >= MIN_COMPRESS_BYTES ? chooseEncoding(c.req.header('Accept-Encoding')) : null;
  const etag = `"${entry.hash}${encoding ? `-${encoding}` : ''}"`;
  const out = new Headers({
    'Content-Type': type,
    'Cache-Control': cache === 'immutable' ? 'public, max-age=31536000, immutable' : 'no-cache',
    ETag: etag,
    ...headers,
  });
  if (isCompressible(type)) varyOnEncoding(out);
  if (matches(c.req.header('If-None-Match'), etag)) {
    // The 304 keeps the file's own Content-Type: without one the Node adapter adds text/plain,
    // the browser merges that into its cached copy, and a partner page's cross-origin
    // <script src=widget.js> is then refused (nosniff, ORB) on every reload.
    return new Response(null, { status: 304, headers: out });
  }
  let body: Buffer = entry.raw;
  if (encoding) {
    body = await (entry.encoded[encoding] ??= compressBytes(entry.raw, encoding, 'stored').catch((error: unknown) => {
      // Not kept: the next request tries again rather than failing for the process's lifetime.
      delete entry.encoded[encoding];
      throw error;
    }));
    out.set('Content-Encoding', encoding);
  }
  out.set('Content-Length', String(body.length));
  return new Response(c.req.method === 'HEAD' ? null : (body as Uint8Array<ArrayBuffer>), { status: 200, headers: out });
}

export const notBuilt = (c: Context, what: string) => c.text(`The ${what} is not built. Run "npm run build" (npm start builds it when missing).`, 503);
