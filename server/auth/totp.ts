/**
 * TOTP (RFC 6238) through otplib: 30-second steps, 6 digits, one step of drift either way.
 * `verifyTotp` answers the matched time step so the caller can refuse a code used before.
 */
import { authenticator } from 'otplib';

const STEP_SECONDS = 30;
// Our own instance, so these options do not leak into otplib's shared `authenticator`.
const totp = authenticator.clone({ step: STEP_SECONDS, window: 1, digits: 6 });

export const generateTotpSecret = (): string => totp.generateSecret(20);
export const otpauthUri = (username: string, issuer: string, secret: string): string => totp.keyuri(username, issuer, secret);

/** The time step the code belongs to, or null when it matches none within the window. */
export function verifyTotp(code: string, secret: string, now: Date): number | null {
  const delta = totp.clone({ epoch: now.getTime() }).checkDelta(code, secret);
  if (delta === null) return null;
  return Math.floor(now.getTime() / 1000 / STEP_SECONDS) + delta;
}
