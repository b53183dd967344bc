/**
 * A contact's values at rest: one JSON object (contact field name to value) sealed with the PHI
 * cipher (./phi.ts). The record system's payload and the referrals queue both open them.
 */
import type { PhiCipher } from './phi';

/** The contact's values, decrypted. Throws PhiError when the stored value cannot be opened. */
export function openContactValues(phi: PhiCipher, sealed: string): Record<string, unknown> {
  const parsed: unknown = JSON.parse(phi.open(sealed));
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
}
