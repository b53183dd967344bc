/**
 * The signed-in user's own account: changing their password (which ends their other sessions)
 * and enrolling an authenticator app for two-factor sign-in.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { ChangePasswordInput } from '@core/model/user';
import type { AuthUser } from '../context';
import type { Db } from '../db/open';
import { users } from '../db/schema';
import { lockedUntil, recordAttempt } from '../auth/lockout';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { revokeUserTokens } from '../auth/tokens';
import { generateTotpSecret, verifyTotp } from '../auth/totp';
import { Conflict, Invalid, TooManyAttempts, Unauthenticated } from '../errors';
import { USER_MESSAGES } from './accounts';

/** Replaces the own password after checking the current one; every session of the user ends. */
export async function changeOwnPassword(db: Db, me: AuthUser, attributes: ChangePasswordInput, now: Date): Promise<void> {
  if (await lockedUntil(db, me.username, now)) throw new TooManyAttempts(USER_MESSAGES.locked);
  const [row] = await db.select().from(users).where(eq(users.id, me.id));
  if (!row) throw new Unauthenticated();
  if (!row.passwordHash || !(await verifyPassword(attributes.currentPassword, row.passwordHash))) {
    await recordAttempt(db, me.username, false, null, now);
    throw new Invalid([{ pointer: '/data/attributes/currentPassword', detail: USER_MESSAGES.currentPasswordWrong }]);
  }
  if (attributes.password === attributes.currentPassword) {
    throw new Invalid([{ pointer: '/data/attributes/password', detail: USER_MESSAGES.samePassword }]);
  }
  const passwordHash = await hashPassword(attributes.password);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, mustChangePassword: false, modified: sql`now()` }).where(eq(users.id, me.id));
    await revokeUserTokens(tx, me.id);
  });
}

/** Starts (or restarts) two-factor enrolment: a new, unverified secret, answered once. */
export async function startTwoFactor(db: Db, me: AuthUser): Promise<string> {
  const secret = generateTotpSecret();
  const [updated] = await db
    .update(users)
    .set({ totpSecret: secret, secretVerified: false, totpLastStep: null, modified: sql`now()` })
    .where(and(eq(users.id, me.id), eq(users.secretVerified, false)))
    .returning({ id: users.id });
  if (!updated) throw new Conflict(USER_MESSAGES.totpAlreadyOn);
  return secret;
}

/** Verifies the pending secret with a code from the app: from then on sign-in asks for a code. */
export async function verifyTwoFactor(db: Db, me: AuthUser, code: string, now: Date): Promise<void> {
  const [row] = await db.select().from(users).where(eq(users.id, me.id));
  if (!row) throw new Unauthenticated();
  if (row.secretVerified) throw new Conflict(USER_MESSAGES.totpAlreadyOn);
  if (!row.totpSecret) throw new Conflict(USER_MESSAGES.totpNotStarted);
  const step = verifyTotp(code, row.totpSecret, now);
  if (step === null) throw new Invalid([{ pointer: '/data/attributes/code', detail: USER_MESSAGES.totpCodeInvalid }]);
  // Only the secret that was checked, and only once: a restart in between makes this miss.
  const [verified] = await db
    .update(users)
    .set({ secretVerified: true, totpLastStep: step, modified: sql`now()` })
    .where(and(eq(users.id, me.id), eq(users.totpSecret, row.totpSecret), eq(users.secretVerified, false)))
    .returning({ id: users.id });
  if (!verified) throw new Conflict(USER_MESSAGES.totpNotStarted);
}
