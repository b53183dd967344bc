/**
 * The step between the identity provider and the admin: the assertion consumer leaves a
 * one-time token in an httpOnly cookie scoped to /api/jwt, and the admin's auto-submitted
 * sign-in exchanges it for the usual access and refresh tokens.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Db } from '../db/open';
import { ssoHandoffs } from '../db/schema';

export const HANDOFF_COOKIE = 'sso_handoff';
const LIFETIME_SECONDS = 120;
const COOKIE_PATH = '/api/jwt';
const hash = (token: string) => createHash('sha256').update(token).digest('hex');

export async function leaveHandoff(c: Context, db: Db, userId: number, service: string, secure: boolean, now: Date): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(ssoHandoffs).values({
    tokenHash: hash(token),
    userId,
    service,
    expiresAt: new Date(now.getTime() + LIFETIME_SECONDS * 1000),
  });
  // Lax: the cookie is set on the identity provider's cross-site POST and read by our own page.
  setCookie(c, HANDOFF_COOKIE, token, { httpOnly: true, secure, sameSite: 'Lax', path: COOKIE_PATH, maxAge: LIFETIME_SECONDS });
}

/** The user the cookie's hand-off names, claimed once; null when absent, used, expired at `now` or of another service. */
export async function claimHandoff(c: Context, db: Db, service: string, now: Date): Promise<number | null> {
  const token = getCookie(c, HANDOFF_COOKIE);
  deleteCookie(c, HANDOFF_COOKIE, { path: COOKIE_PATH });
  if (!token) return null;
  const [claimed] = await db
    .update(ssoHandoffs)
    .set({ usedAt: now })
    .where(and(eq(ssoHandoffs.tokenHash, hash(token)), eq(ssoHandoffs.service, service), isNull(ssoHandoffs.usedAt), gt(ssoHandoffs.expiresAt, now)))
    .returning({ userId: ssoHandoffs.userId });
  return claimed?.userId ?? null;
}
