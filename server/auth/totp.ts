/**
 * TOTP (RFC 6238) through otplib: 30-second steps, 6 digits, one step of drift either way.
 * `verifyTotp` answers the matched time step so the caller can refuse a code used before.
 */
import { authenticator } from 'otplib';

const STEP_SECONDS = 30;
authenticator.options = { step: STEP_SECONDS, window: 1, digits: 6 };

export const generateTotpSecret = (): string => authenticator.generateSecret(20);
export const totpCode = (secret: string): string => authenticator.generate(secret);
export const otpauthUri = (username: string, issuer: string, secret: string): string =>
  authenticator.keyuri(username, issuer, secret);

/** The time step the code belongs to, or null when it matches none within the window. */
export function verifyTotp(code: string, secret: string, now = Date.now()): number | null {
  const delta = authenticator.checkDelta(code, secret);
  if (delta === null) return null;
  return Math.floor(now / 1000 / STEP_SECONDS) + delta;
}
