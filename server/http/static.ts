/**
 * Serves the built bundles: the admin SPA (with history-mode fallback to index.html), the
 * widget at /widget.js. Hashed assets are cached for a year; index.html and widget.js are
 * revalidated, since their names never change.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from 'hono';

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

export function sendFile(
  c: Context,
  file: string,
  cache: 'immutable' | 'revalidate',
  headers: Record<string, string> = {},
): Response {
  const body = fs.readFileSync(file);
  return c.body(body, 200, {
    'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    'Cache-Control': cache === 'immutable' ? 'public, max-age=31536000, immutable' : 'no-cache',
    ...headers,
  });
}

export const notBuilt = (c: Context, what: string) =>
  c.text(`The ${what} is not built. Run "npm run build" (npm start builds it when missing).`, 503);
