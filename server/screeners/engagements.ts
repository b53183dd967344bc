/**
 * The engagements a screener serves: existing ones of its sponsor, replaced as a whole (on the
 * screener's create and update, and by POST /api/engagements-screeners/update/{screenerId}).
 */
import { eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../db/open';
import { engagementScreeners, engagements } from '../db/schema';
import { Invalid } from '../errors';
import { pgErrorCode } from '../http/sql';

export const ENGAGEMENT_OF_OTHER_SPONSOR = "Choose engagements of the screener's sponsor.";

/** Engagements a screener may serve: existing ones of its sponsor. */
export async function engagementIdsProblem(db: Db, ids: number[], sponsorId: number): Promise<string | null> {
  if (ids.length === 0) return null;
  const found = await db.select({ id: engagements.id, sponsorId: engagements.sponsorId }).from(engagements).where(inArray(engagements.id, ids));
  if (found.length !== ids.length || found.some((e) => e.sponsorId !== sponsorId)) return ENGAGEMENT_OF_OTHER_SPONSOR;
  return null;
}

export async function writeEngagements(tx: Tx, screenerId: number, ids: number[]) {
  await tx.delete(engagementScreeners).where(eq(engagementScreeners.screenerId, screenerId));
  if (ids.length) await tx.insert(engagementScreeners).values(ids.map((engagementId) => ({ screenerId, engagementId })));
}

/** Replaces the engagements the screener serves (422 naming engagementIds for others); answers them by name. */
export async function setScreenerEngagements(db: Db, screener: { id: number; sponsorId: number }, engagementIds: number[]) {
  const ids = [...new Set(engagementIds)];
  const problem = await engagementIdsProblem(db, ids, screener.sponsorId);
  if (problem) throw new Invalid([{ pointer: '/data/attributes/engagementIds', detail: problem }]);
  await db
    .transaction((tx) => writeEngagements(tx, screener.id, ids))
    .catch((error: unknown) => {
      if (pgErrorCode(error).code === '23503')
        throw new Invalid([{ pointer: '/data/attributes/engagementIds', detail: problem ?? 'An engagement no longer exists.' }]);
      throw error;
    });
  return db
    .select({ engagementId: engagements.id, name: engagements.name })
    .from(engagementScreeners)
    .innerJoin(engagements, eq(engagements.id, engagementScreeners.engagementId))
    .where(eq(engagementScreeners.screenerId, screener.id))
    .orderBy(engagements.name, engagements.id);
}
