/**
 * Keyed hashes of a contact's e-mail address and phone number, stored beside the sealed values
 * so the same person can be found again (duplicate referrals) without storing either in clear
 * or decrypting every contact: HMAC-SHA256 under a key of its own (CONTACT_MATCH_KEY, else
 * DATA_DIR/contact-match-key), never the PHI key, so neither key gives away the other's data.
 * Without the key a hash cannot be tested against guessed addresses or numbers.
 *
 * The same key, through a key derived from it for that use alone (HKDF-SHA256, info
 * "client-address"), hashes a run's client address (possible retakes, participant/retakes.ts):
 * the address is never stored, and its hash cannot be compared with a contact's.
 */
import { createHmac, hkdfSync } from 'node:crypto';
import { parseKey, resolveKeptKey } from './phi';

export interface ContactMatcher {
  /** The keyed hash of an e-mail address, compared case-insensitively; null when it is none. */
  email(value: unknown): string | null;
  /** The keyed hash of a phone number, compared by its digits (US numbers as 10); null when it is none. */
  phone(value: unknown): string | null;
  /** The keyed hash of a client (IP) address, under the derived key; null when there is none. */
  clientAddress(value: string | null): string | null;
}

/** An e-mail address as compared: trimmed, lower case; null when it is not one. */
export function normalizeEmail(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim().toLowerCase();
  return /^[^@\s]+@[^@\s]+$/.test(text) ? text : null;
}

/** A phone number as compared: its digits, a US number's leading country code 1 dropped; null with fewer than 7 digits. */
export function normalizePhone(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const digits = String(value).replace(/\D/g, '');
  const national = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  return national.length >= 7 ? national : null;
}

/** An IP address as compared: trimmed, lower case, an IPv4-mapped IPv6 address as its IPv4 form; null when empty. */
export function normalizeAddress(value: string | null): string | null {
  const text = value?.trim().toLowerCase() ?? '';
  if (text === '') return null;
  return text.startsWith('::ffff:') && text.includes('.') ? text.slice(7) : text;
}

export function contactMatcher(key: Buffer): ContactMatcher {
  const addressKey = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'client-address', 32));
  const hmac = (k: Buffer, kind: string, normalized: string | null) =>
    normalized === null ? null : createHmac('sha256', k).update(`${kind}:${normalized}`, 'utf8').digest('base64url');
  return {
    email: (value) => hmac(key, 'email', normalizeEmail(value)),
    phone: (value) => hmac(key, 'phone', normalizePhone(value)),
    clientAddress: (value) => hmac(addressKey, 'address', normalizeAddress(value)),
  };
}

/** Parses CONTACT_MATCH_KEY: 32 bytes as base64 or 64 hex characters. */
export const parseContactMatchKey = (raw: string): Buffer => parseKey(raw, 'CONTACT_MATCH_KEY');

const resolved = new WeakMap<object, ContactMatcher>();

/** What the server's matcher comes from (server/context.ts Deps has these fields), named here so this module needs neither. */
export interface ContactMatchSource {
  contactMatch?: ContactMatcher;
  config: { contactMatchKey: Buffer | null; dataDir: string };
}

/** The server's matcher: the one it was built with, else the configured (or kept) key's. */
export function contactMatcherOf(deps: ContactMatchSource): ContactMatcher {
  if (deps.contactMatch) return deps.contactMatch;
  let matcher = resolved.get(deps);
  if (!matcher) {
    matcher = contactMatcher(resolveKeptKey(deps.config.contactMatchKey, deps.config.dataDir, 'contact-match-key', parseContactMatchKey));
    resolved.set(deps, matcher);
  }
  return matcher;
}
