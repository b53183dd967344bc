/**
 * Keyed hashes of a contact's e-mail address and phone number, stored beside the sealed values
 * so the same person can be found again (duplicate referrals) without storing either in clear
 * or decrypting every contact: HMAC-SHA256 under a key of its own (CONTACT_MATCH_KEY, else
 * DATA_DIR/contact-match-key), never the PHI key, so neither key gives away the other's data.
 * Without the key a hash cannot be tested against guessed addresses or numbers.
 */
import { createHmac } from 'node:crypto';
import type { Deps } from '../context';
import { parseKey, resolveKeptKey } from './phi';

export interface ContactMatcher {
  /** The keyed hash of an e-mail address, compared case-insensitively; null when it is none. */
  email(value: unknown): string | null;
  /** The keyed hash of a phone number, compared by its digits (US numbers as 10); null when it is none. */
  phone(value: unknown): string | null;
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

export function contactMatcher(key: Buffer): ContactMatcher {
  const hash = (kind: string, normalized: string | null) =>
    normalized === null ? null : createHmac('sha256', key).update(`${kind}:${normalized}`, 'utf8').digest('base64url');
  return {
    email: (value) => hash('email', normalizeEmail(value)),
    phone: (value) => hash('phone', normalizePhone(value)),
  };
}

/** Parses CONTACT_MATCH_KEY: 32 bytes as base64 or 64 hex characters. */
export const parseContactMatchKey = (raw: string): Buffer => parseKey(raw, 'CONTACT_MATCH_KEY');

const resolved = new WeakMap<object, ContactMatcher>();

/** The server's matcher: the one it was built with, else the configured (or kept) key's. */
export function contactMatcherOf(deps: Pick<Deps, 'contactMatch' | 'config'>): ContactMatcher {
  if (deps.contactMatch) return deps.contactMatch;
  let matcher = resolved.get(deps);
  if (!matcher) {
    matcher = contactMatcher(resolveKeptKey(deps.config.contactMatchKey, deps.config.dataDir, 'contact-match-key', parseContactMatchKey));
    resolved.set(deps, matcher);
  }
  return matcher;
}
