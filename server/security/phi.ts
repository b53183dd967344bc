/**
 * Encryption at rest for participants' contact values (HIPAA technical safeguards): AES-256-GCM
 * with a fresh 96-bit IV per value, so a stored value is confidential and any change to it is
 * detected. Stored form: `phi1.<key id>.<iv>.<tag>.<ciphertext>` (base64url), where the key id
 * names the key that sealed it, so a wrong or rotated key is reported rather than misread.
 *
 * Rotation: a cipher holds the current key and any previous ones (PHI_PREVIOUS_KEYS). It seals
 * with the current key and opens with whichever key the stored form names; `npm run phi:reseal`
 * (security/reseal.ts) seals again with the current key what a previous one sealed, after which
 * the previous key can go.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { pooledRandomBytes } from './randomPool';
import fs from 'node:fs';
import path from 'node:path';

const PREFIX = 'phi1';
const KEY_BYTES = 32;

export class PhiError extends Error {
  override name = 'PhiError';
}

export interface PhiCipher {
  /** The current key's id: what seal() writes. */
  keyId: string;
  /** The ids of every key this cipher opens with: the current one first, then the previous ones. */
  keyIds: readonly string[];
  /** How every value sealed with the current key begins (`phi1.<key id>.`). */
  currentPrefix: string;
  seal(plaintext: string): string;
  open(sealed: string): string;
  isSealed(value: string): boolean;
  /** The id of the key a stored form names (null when it is not one). */
  keyIdOf(sealed: string): string | null;
}

/** A key's id: the first 8 characters of its SHA-256 (base64url); names it without giving it away. */
export const phiKeyId = (key: Buffer): string => createHash('sha256').update(key).digest('base64url').slice(0, 8);

/** A cipher sealing with `key`, opening with it or any of `previous` (rotated keys). */
export function phiCipher(key: Buffer, previous: readonly Buffer[] = []): PhiCipher {
  for (const k of [key, ...previous]) if (k.length !== KEY_BYTES) throw new PhiError(`The PHI key must be ${KEY_BYTES} bytes.`);
  const keyId = phiKeyId(key);
  const keys = new Map<string, Buffer>([[keyId, key]]);
  for (const k of previous) if (!keys.has(phiKeyId(k))) keys.set(phiKeyId(k), k);
  const keyIdOf = (sealed: string) => {
    const [prefix, id] = sealed.split('.');
    return prefix === PREFIX && id ? id : null;
  };
  return {
    keyId,
    keyIds: [...keys.keys()],
    currentPrefix: `${PREFIX}.${keyId}.`,
    keyIdOf,
    seal(plaintext) {
      const iv = pooledRandomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [PREFIX, keyId, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    open(sealed) {
      const [prefix, id, iv, tag, body] = sealed.split('.');
      if (prefix !== PREFIX || id === undefined || iv === undefined || tag === undefined || body === undefined) throw new PhiError('Not an encrypted value.');
      const opening = keys.get(id);
      if (!opening) throw new PhiError(`Sealed with another key (${id}); this server holds ${[...keys.keys()].join(', ')}.`);
      try {
        const decipher = createDecipheriv('aes-256-gcm', opening, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        throw new PhiError('The encrypted value was changed or is damaged.');
      }
    },
    isSealed: (value) => value.startsWith(`${PREFIX}.`),
  };
}

/** Parses PHI_ENCRYPTION_KEY: 32 bytes as base64 or 64 hex characters. */
export const parsePhiKey = (raw: string): Buffer => parseKey(raw, 'PHI_ENCRYPTION_KEY');

/** PHI_PREVIOUS_KEYS: keys as PHI_ENCRYPTION_KEY, separated by commas or spaces. */
export const parsePhiKeys = (raw: string): Buffer[] =>
  raw
    .split(/[\s,]+/)
    .filter((k) => k !== '')
    .map((k) => parseKey(k, 'PHI_PREVIOUS_KEYS'));

/** A 32-byte key written as base64 or 64 hex characters; `name` says which in the error. */
export function parseKey(raw: string, name: string): Buffer {
  const text = raw.trim();
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== KEY_BYTES) throw new PhiError(`${name} must be 32 bytes, as base64 or 64 hex characters`);
  return key;
}

/**
 * The configured key, or one generated on first start and kept in DATA_DIR (mode 600). With
 * several servers on one database, configure the key: each would otherwise make its own.
 */
export function resolvePhiKey(configured: Buffer | null, dataDir: string): Buffer {
  return resolveKeptKey(configured, dataDir, 'phi-key', parsePhiKey);
}

/** A 32-byte key: `configured`, else the one kept in DATA_DIR/`file`, else a new one written there (mode 600). */
export function resolveKeptKey(configured: Buffer | null, dataDir: string, file: string, parse: (raw: string) => Buffer): Buffer {
  if (configured) return configured;
  const kept = path.join(dataDir, file);
  try {
    return parse(fs.readFileSync(kept, 'utf8'));
  } catch (error) {
    if (fs.existsSync(kept)) throw error;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(KEY_BYTES);
  fs.writeFileSync(kept, key.toString('base64'), { mode: 0o600 });
  return key;
}

const resolvedCiphers = new WeakMap<object, PhiCipher>();

/**
 * What the server's PHI cipher comes from: the fields of its dependencies and configuration that
 * phiOf reads (server/context.ts Deps has them), named here so this module needs neither.
 */
export interface PhiSource {
  phi?: PhiCipher;
  config: { phiKey: Buffer | null; phiPreviousKeys: Buffer[]; dataDir: string };
}

/** The server's PHI cipher: the one it was built with, else the configured (or kept) key. */
export function phiOf(deps: PhiSource): PhiCipher {
  if (deps.phi) return deps.phi;
  let cipher = resolvedCiphers.get(deps);
  if (!cipher) {
    cipher = phiCipher(resolvePhiKey(deps.config.phiKey, deps.config.dataDir), deps.config.phiPreviousKeys);
    resolvedCiphers.set(deps, cipher);
  }
  return cipher;
}
