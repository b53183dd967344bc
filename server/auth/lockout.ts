/**
 * Sign-in lockout: five failed attempts for a username within 15 minutes lock it for 15
 * minutes from the last of them. Attempts are rows in the database, so every server process
 * sees the same count.
 */
import { and, count, desc, eq, gt, max, sql } from 'drizzle-orm';
import type { Db } from '../db/open';
import { loginAttempts } from '../db/schema';

export const MAX_FAILURES = 5;
export const WINDOW_MS = 15 * 60 * 1000;

const key = (username: string) => username.trim().toLowerCase();

/** When the username is locked, the time it unlocks; else null. */
export async function lockedUntil(db: Db, username: string, now = new Date()): Promise<Date | null> {
  const since = new Date(now.getTime() - WINDOW_MS);
  const [lastSuccess] = await db
    .select({ at: max(loginAttempts.created) })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.username, key(username)), eq(loginAttempts.succeeded, true)));
  const from = lastSuccess?.at && lastSuccess.at > since ? lastSuccess.at : since;
  const [failures] = await db
    .select({ n: count() })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.username, key(username)), eq(loginAttempts.succeeded, false), gt(loginAttempts.created, from)));
  if ((failures?.n ?? 0) < MAX_FAILURES) return null;
  const [latest] = await db
    .select({ at: loginAttempts.created })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.username, key(username)), eq(loginAttempts.succeeded, false)))
    .orderBy(desc(loginAttempts.created))
    .limit(1);
  return latest ? new Date(latest.at.getTime() + WINDOW_MS) : null;
}

export async function recordAttempt(db: Db, username: string, succeeded: boolean, clientAddress: string | null): Promise<void> {
  await db.insert(loginAttempts).values({ username: key(username), succeeded, clientAddress, created: sql`now()` });
}
