/**
 * Access tokens are short-lived HS256 JWTs naming the user; refresh tokens are random strings
 * stored hashed, rotated on every use, and grouped in families so that replaying a used one
 * revokes every token descended from the same sign-in.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { sign, verify } from 'hono/jwt';
import type { Db } from '../db/open';
import { refreshTokens } from '../db/schema';

const ALGORITHM = 'HS256';

export async function issueAccessToken(secret: string, userId: number, ttlSeconds: number): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return sign({ sub: String(userId), typ: 'access', iat: now, nbf: now, exp: now + ttlSeconds, jti: randomUUID() }, secret, ALGORITHM);
}

/** The user id an access token names, or null for anything not a valid, current access token. */
export async function verifyAccessToken(secret: string, token: string): Promise<number | null> {
  try {
    const payload = await verify(token, secret, ALGORITHM);
    if (payload.typ !== 'access' || typeof payload.sub !== 'string' || !/^\d+$/.test(payload.sub)) return null;
    return Number(payload.sub);
  } catch {
    return null;
  }
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

export async function issueRefreshToken(db: Db, userId: number, ttlSeconds: number, familyId: string = randomUUID()): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(refreshTokens).values({
    userId,
    tokenHash: hash(token),
    familyId,
    expiresAt: new Date(Date.now() + ttlSeconds * 1000),
  });
  return token;
}

export type RotateResult = { ok: true; userId: number; refresh: string } | { ok: false; reason: 'unknown' | 'reused' | 'expired' };

export async function rotateRefreshToken(db: Db, token: string, ttlSeconds: number): Promise<RotateResult> {
  const tokenHash = hash(token);
  // One statement claims the token, so two concurrent refreshes cannot both succeed.
  const [claimed] = await db
    .update(refreshTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(refreshTokens.tokenHash, tokenHash),
        isNull(refreshTokens.usedAt),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, sql`now()`),
      ),
    )
    .returning({ userId: refreshTokens.userId, familyId: refreshTokens.familyId });
  if (claimed) {
    return { ok: true, userId: claimed.userId, refresh: await issueRefreshToken(db, claimed.userId, ttlSeconds, claimed.familyId) };
  }
  const [known] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash));
  if (!known) return { ok: false, reason: 'unknown' };
  if (known.usedAt || known.revokedAt) {
    await revokeFamily(db, known.familyId);
    return { ok: false, reason: 'reused' };
  }
  return { ok: false, reason: 'expired' };
}

export async function revokeFamily(db: Db, familyId: string): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/** Ends the sign-in the token belongs to. Unknown tokens are ignored. */
export async function revokeRefreshToken(db: Db, token: string): Promise<void> {
  const [known] = await db.select({ familyId: refreshTokens.familyId }).from(refreshTokens).where(eq(refreshTokens.tokenHash, hash(token)));
  if (known) await revokeFamily(db, known.familyId);
}

/** Ends every sign-in of a user (deactivation, password change). */
export async function revokeUserTokens(db: Db, userId: number): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}
