/**
 * Reading one uploaded file from a multipart/form-data body (field `file`). Failures are
 * JSON:API errors pointing at `/file`; nothing is stored before this returns.
 */
import type { Context } from 'hono';
import { ApiProblem, badRequest, invalid, uploadTooLarge } from './errors';

export interface Upload {
  filename: string;
  mime: string;
  bytes: Uint8Array;
}

export const FILE_POINTER = '/file';
export const NO_FILE = 'Choose a file to upload.';
export const EMPTY_FILE = 'The file is empty.';

const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i;

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
const UNSAFE_IN_FILENAME = /[\u0000-\u001f\u007f"]/g;

/** A file name safe to store and to put in a header: no folders, no control characters. */
export function cleanFilename(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  const cleaned = base.replace(UNSAFE_IN_FILENAME, '').trim().slice(0, 255);
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'file' : cleaned;
}

export async function readUpload(c: Context, limitBytes: number): Promise<Upload> {
  const type = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(type)) {
    throw new ApiProblem(415, [
      {
        status: '415',
        title: 'Unsupported Media Type',
        detail: 'Send the file as multipart/form-data in a field named "file".',
      },
    ]);
  }
  let body: Record<string, unknown>;
  try {
    body = (await c.req.parseBody({ all: true })) as Record<string, unknown>;
  } catch {
    throw badRequest('The multipart body could not be read.');
  }
  const value = body.file;
  if (Array.isArray(value)) throw invalid([{ pointer: FILE_POINTER, detail: 'Upload one file at a time.' }]);
  if (!(value instanceof File)) throw invalid([{ pointer: FILE_POINTER, detail: NO_FILE }]);
  if (value.size > limitBytes) throw uploadTooLarge(limitBytes);
  if (value.size === 0) throw invalid([{ pointer: FILE_POINTER, detail: EMPTY_FILE }]);
  const mime = MIME.test(value.type) ? value.type.toLowerCase() : 'application/octet-stream';
  return { filename: cleanFilename(value.name), mime, bytes: new Uint8Array(await value.arrayBuffer()) };
}

/** Content-Disposition for a download: an ASCII fallback and the UTF-8 name (RFC 6266). */
export function attachmentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/[\\"]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
