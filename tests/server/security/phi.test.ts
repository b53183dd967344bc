import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PhiError, parsePhiKey, phiCipher, resolvePhiKey } from '../../../server/security/phi';
import { ConfigError, loadConfig } from '../../../server/config';

describe('PHI encryption at rest', () => {
  const cipher = phiCipher(randomBytes(32));

  it('round-trips, never stores the plaintext, and uses a fresh IV each time', () => {
    const email = 'jane.doe@example.com';
    const a = cipher.seal(email);
    const b = cipher.seal(email);
    expect(a).not.toContain('jane');
    expect(a).not.toBe(b);
    expect(cipher.isSealed(a)).toBe(true);
    expect(cipher.open(a)).toBe(email);
    expect(cipher.open(cipher.seal('José Ñúñez 😀'))).toBe('José Ñúñez 😀');
  });

  it('detects any change to a sealed value', () => {
    const sealed = cipher.seal('555-123-4567');
    const parts = sealed.split('.');
    const body = Buffer.from(parts[4]!, 'base64url');
    body[0] = body[0]! ^ 1;
    parts[4] = body.toString('base64url');
    expect(() => cipher.open(parts.join('.'))).toThrow(PhiError);
    expect(() => cipher.open('plain text')).toThrow('Not an encrypted value.');
  });

  it('names a value sealed with another key instead of misreading it', () => {
    const other = phiCipher(randomBytes(32));
    expect(() => other.open(cipher.seal('x'))).toThrow(/another key/);
  });

  it('takes the key from PHI_ENCRYPTION_KEY (base64 or hex) or generates and keeps one in DATA_DIR', () => {
    const key = randomBytes(32);
    expect(parsePhiKey(key.toString('base64')).equals(key)).toBe(true);
    expect(parsePhiKey(key.toString('hex')).equals(key)).toBe(true);
    expect(loadConfig({ PHI_ENCRYPTION_KEY: key.toString('base64') }).phiKey?.equals(key)).toBe(true);
    expect(() => loadConfig({ PHI_ENCRYPTION_KEY: 'too-short' })).toThrow(ConfigError);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'phi-'));
    const first = resolvePhiKey(null, dir);
    expect(resolvePhiKey(null, dir).equals(first)).toBe(true);
    expect(fs.statSync(path.join(dir, 'phi-key')).mode & 0o777).toBe(0o600);
    expect(resolvePhiKey(key, dir).equals(key)).toBe(true);
    fs.writeFileSync(path.join(dir, 'phi-key'), 'garbage');
    expect(() => resolvePhiKey(null, dir)).toThrow(PhiError);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
