/**
 * Access tokens are short-lived HS256 JWTs naming the user; refresh tokens are random strings
 * stored hashed, rotated on every use, and grouped in families so that replaying a used one
 * revokes every token descended from the same sign-in.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, min, sql } from 'drizzle-orm';
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

/** How long a sign-in lasts: `idleSeconds` between refreshes, `maxSeconds` in all (ASVS 3.3). */
export interface SessionPolicy {
  idleSeconds: number;
  maxSeconds: number;
}

export async function issueRefreshToken(
  db: Db,
  userId: number,
  policy: SessionPolicy,
  family: { id: string; startedAt: Date } = { id: randomUUID(), startedAt: new Date() },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const idleEnd = Date.now() + policy.idleSeconds * 1000;
  const absoluteEnd = family.startedAt.getTime() + policy.maxSeconds * 1000;
  await db.insert(refreshTokens).values({
    userId,
    tokenHash: hash(token),
    familyId: family.id,
    expiresAt: new Date(Math.min(idleEnd, absoluteEnd)),
  });
  return token;
}

export type RotateResult = { ok: true; userId: number; refresh: string } | { ok: false; reason: 'unknown' | 'reused' | 'expired' };

export async function rotateRefreshToken(db: Db, token: string, policy: SessionPolicy): Promise<RotateResult> {
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
    // The family began with the sign-in: its first token's time bounds the whole session.
    const [family] = await db
      .select({ startedAt: min(refreshTokens.created) })
      .from(refreshTokens)
      .where(eq(refreshTokens.familyId, claimed.familyId));
    const startedAt = family?.startedAt ?? new Date();
    if (startedAt.getTime() + policy.maxSeconds * 1000 <= Date.now()) return { ok: false, reason: 'expired' };
    return { ok: true, userId: claimed.userId, refresh: await issueRefreshToken(db, claimed.userId, policy, { id: claimed.familyId, startedAt }) };
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
