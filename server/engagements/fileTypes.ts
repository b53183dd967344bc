/**
 * The kinds of file staff may attach to an engagement, recognised by their content and their
 * extension together: a file whose bytes do not match its name is refused, and the type we
 * store and serve is the one we detected, never the one the browser declared.
 */
export interface FileKind {
  mime: string;
  extensions: readonly string[];
  label: string;
}

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

interface Signature extends FileKind {
  /** True when the bytes are of this kind. */
  matches: (bytes: Uint8Array) => boolean;
}

const startsWith = (bytes: Uint8Array, prefix: readonly number[]) => prefix.every((b, i) => bytes[i] === b);
const ascii = (text: string) => [...text].map((ch) => ch.charCodeAt(0));

/** Plain text: valid UTF-8 without NUL or other control bytes besides tab, CR, LF and FF. */
function isText(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, 64 * 1024);
  // eslint-disable-next-line no-control-regex
  if (sample.some((b) => b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample.length < bytes.length ? sample.subarray(0, sample.length - 4) : sample);
    return true;
  } catch {
    return false;
  }
}

const SIGNATURES: readonly Signature[] = [
  { mime: 'application/pdf', extensions: ['pdf'], label: 'PDF', matches: (b) => startsWith(b, ascii('%PDF-')) },
  { mime: 'image/png', extensions: ['png'], label: 'PNG', matches: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { mime: 'image/jpeg', extensions: ['jpg', 'jpeg'], label: 'JPEG', matches: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  { mime: 'image/gif', extensions: ['gif'], label: 'GIF', matches: (b) => startsWith(b, ascii('GIF87a')) || startsWith(b, ascii('GIF89a')) },
  { mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', extensions: ['docx'], label: 'Word', matches: (b) => startsWith(b, ZIP) },
  { mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', extensions: ['xlsx'], label: 'Excel', matches: (b) => startsWith(b, ZIP) },
  {
    mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    extensions: ['pptx'],
    label: 'PowerPoint',
    matches: (b) => startsWith(b, ZIP),
  },
  { mime: 'application/msword', extensions: ['doc'], label: 'Word', matches: (b) => startsWith(b, OLE) },
  { mime: 'application/vnd.ms-excel', extensions: ['xls'], label: 'Excel', matches: (b) => startsWith(b, OLE) },
  { mime: 'text/csv', extensions: ['csv'], label: 'CSV', matches: isText },
  { mime: 'text/plain', extensions: ['txt'], label: 'text', matches: isText },
];

export const ACCEPTED_FILES = 'a PDF, Word, Excel, PowerPoint, CSV, text or image (PNG, JPEG, GIF) file';

export type Detection = { ok: true; kind: FileKind } | { ok: false; problem: string };

export function detectFileKind(filename: string, bytes: Uint8Array): Detection {
  const extension = /\.([a-z0-9]{1,8})$/i.exec(filename)?.[1]?.toLowerCase() ?? '';
  const byName = SIGNATURES.find((s) => s.extensions.includes(extension));
  if (!byName) return { ok: false, problem: `Files ending .${extension || '(none)'} are not accepted. Upload ${ACCEPTED_FILES}.` };
  if (!byName.matches(bytes)) return { ok: false, problem: `The file's content is not that of a ${byName.label} file, as its .${extension} name says.` };
  return { ok: true, kind: { mime: byName.mime, extensions: byName.extensions, label: byName.label } };
}
