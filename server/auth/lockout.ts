/**
 * Sign-in lockout: five failed attempts for a username within 15 minutes lock it for 15
 * minutes from the last of them; a successful sign-in starts the count again. Attempts are rows
 * in the database, so every server process sees the same count.
 */
import { and, asc, eq, gt, max } from 'drizzle-orm';
import type { Db } from '../db/open';
import { loginAttempts } from '../db/schema';

export const MAX_FAILURES = 5;
export const WINDOW_MS = 15 * 60 * 1000;

const key = (username: string) => username.trim().toLowerCase();

/**
 * When the username is locked at `now`, the time it unlocks; else null. A failure locks when it
 * is the fifth within 15 minutes since the last successful sign-in, and the lock lasts 15
 * minutes from it (attempts refused while locked are not recorded, so they do not extend it).
 */
export async function lockedUntil(db: Db, username: string, now: Date): Promise<Date | null> {
  // A lock still running began less than a window ago, with its first failure less than a window
  // before that: older failures cannot matter.
  const horizon = new Date(now.getTime() - 2 * WINDOW_MS);
  const [lastSuccess] = await db
    .select({ at: max(loginAttempts.created) })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.username, key(username)), eq(loginAttempts.succeeded, true)));
  const from = lastSuccess?.at && lastSuccess.at > horizon ? lastSuccess.at : horizon;
  const failures = await db
    .select({ at: loginAttempts.created })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.username, key(username)), eq(loginAttempts.succeeded, false), gt(loginAttempts.created, from)))
    .orderBy(asc(loginAttempts.created));
  let until: Date | null = null;
  for (let i = MAX_FAILURES - 1; i < failures.length; i++) {
    const at = failures[i]!.at.getTime();
    const firstOfFive = failures[i - MAX_FAILURES + 1]!.at.getTime();
    if (firstOfFive > at - WINDOW_MS && at + WINDOW_MS > now.getTime()) until = new Date(at + WINDOW_MS);
  }
  return until;
}

export async function recordAttempt(db: Db, username: string, succeeded: boolean, clientAddress: string | null, now: Date): Promise<void> {
  await db.insert(loginAttempts).values({ username: key(username), succeeded, clientAddress, created: now });
}
