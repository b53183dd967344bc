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

/**
 * An access token names its user and the sign-in (`sid`, the refresh-token family) it belongs
 * to, so signing out with it alone ends that sign-in and its access tokens with it.
 */
export async function issueAccessToken(secret: string, userId: number, sessionId: string, ttlSeconds: number, now: Date): Promise<string> {
  const at = Math.floor(now.getTime() / 1000);
  return sign({ sub: String(userId), sid: sessionId, typ: 'access', iat: at, nbf: at, exp: at + ttlSeconds, jti: randomUUID() }, secret, ALGORITHM);
}

const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

export interface AccessClaims {
  userId: number;
  /** The sign-in the token was issued for; absent only from tokens older than the claim. */
  sessionId: string | null;
}

/**
 * The claims of a valid access token current at `now`, or null. A token without an expiry is
 * no access token: a leaked one would otherwise work for ever.
 */
export async function verifyAccessToken(secret: string, token: string, now: Date): Promise<AccessClaims | null> {
  try {
    // hono/jwt checks the signature; the times are checked here against the server's clock.
    const payload = await verify(token, secret, { alg: ALGORITHM, exp: false, nbf: false, iat: false });
    if (payload.typ !== 'access' || typeof payload.sub !== 'string' || !/^\d+$/.test(payload.sub)) return null;
    const at = Math.floor(now.getTime() / 1000);
    if (!isTime(payload.exp) || payload.exp <= at) return null;
    if (payload.nbf !== undefined && (!isTime(payload.nbf) || payload.nbf > at)) return null;
    if (payload.sid !== undefined && typeof payload.sid !== 'string') return null;
    return { userId: Number(payload.sub), sessionId: payload.sid ?? null };
  } catch {
    return null;
  }
}

/** The user an access token signs in, while its sign-in has not been ended (sign-out, reuse, deactivation). */
export async function accessTokenUser(db: Db, secret: string, token: string, now: Date): Promise<number | null> {
  const claims = await verifyAccessToken(secret, token, now);
  if (!claims) return null;
  if (claims.sessionId !== null && !(await sessionLive(db, claims.sessionId))) return null;
  return claims.userId;
}

/** A sign-in is live while some token of its family is not revoked (rotation marks tokens used, not revoked). */
async function sessionLive(db: Db, familyId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: refreshTokens.id })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)))
    .limit(1);
  return row !== undefined;
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/** How long a sign-in lasts: `idleSeconds` between refreshes, `maxSeconds` in all (ASVS 3.3). */
export interface SessionPolicy {
  idleSeconds: number;
  maxSeconds: number;
}

/** A new sign-in's id, shared by its refresh tokens (their family) and its access tokens (`sid`). */
const newSessionId = (): string => randomUUID();

export async function issueRefreshToken(db: Db, userId: number, policy: SessionPolicy, now: Date, family: { id: string; startedAt: Date }): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const idleEnd = now.getTime() + policy.idleSeconds * 1000;
  const absoluteEnd = family.startedAt.getTime() + policy.maxSeconds * 1000;
  await db.insert(refreshTokens).values({
    userId,
    tokenHash: hash(token),
    familyId: family.id,
    expiresAt: new Date(Math.min(idleEnd, absoluteEnd)),
    // The family's first token's time is the sign-in's: the server's clock, not the database's.
    created: now,
  });
  return token;
}

/** A new sign-in: its first refresh token and an access token, both naming the same session. */
export async function startSession(
  db: Db,
  secret: string,
  policy: { accessTokenTtlSeconds: number; session: SessionPolicy },
  userId: number,
  now: Date,
): Promise<{ access: string; refresh: string }> {
  const sessionId = newSessionId();
  return {
    access: await issueAccessToken(secret, userId, sessionId, policy.accessTokenTtlSeconds, now),
    refresh: await issueRefreshToken(db, userId, policy.session, now, { id: sessionId, startedAt: now }),
  };
}

export type RotateResult = { ok: true; userId: number; sessionId: string; refresh: string } | { ok: false; reason: 'unknown' | 'reused' | 'expired' };

export async function rotateRefreshToken(db: Db, token: string, policy: SessionPolicy, now: Date): Promise<RotateResult> {
  const tokenHash = hash(token);
  // One statement claims the token, so two concurrent refreshes cannot both succeed.
  const [claimed] = await db
    .update(refreshTokens)
    .set({ usedAt: now })
    .where(and(eq(refreshTokens.tokenHash, tokenHash), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt), gt(refreshTokens.expiresAt, now)))
    .returning({ userId: refreshTokens.userId, familyId: refreshTokens.familyId });
  if (claimed) {
    // The family began with the sign-in: its first token's time bounds the whole session.
    const [family] = await db
      .select({ startedAt: min(refreshTokens.created) })
      .from(refreshTokens)
      .where(eq(refreshTokens.familyId, claimed.familyId));
    const startedAt = family?.startedAt ?? now;
    if (startedAt.getTime() + policy.maxSeconds * 1000 <= now.getTime()) return { ok: false, reason: 'expired' };
    return {
      ok: true,
      userId: claimed.userId,
      sessionId: claimed.familyId,
      refresh: await issueRefreshToken(db, claimed.userId, policy, now, { id: claimed.familyId, startedAt }),
    };
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

/** Ends the sign-in the token belongs to; false when the token is not one this server issued. */
export async function revokeRefreshToken(db: Db, token: string): Promise<boolean> {
  const [known] = await db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hash(token)));
  if (known) await revokeFamily(db, known.familyId);
  return known !== undefined;
}

/** Ends every sign-in of a user (deactivation, password change). */
export async function revokeUserTokens(db: Db, userId: number): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}
