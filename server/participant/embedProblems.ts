/**
 * Recording embed problems (core/participant/embedProblems.ts) seen on partner pages: upserted
 * per channel, page origin and cause (count and last seen), and trimmed to the channel's
 * EMBED_PROBLEMS_KEPT most recently seen, so no caller can grow the table without bound. Only
 * a page origin is kept (what the browser's Origin header carries: scheme, host and port).
 */
import { desc, eq, sql } from 'drizzle-orm';
import { EMBED_ORIGIN_MAX_LENGTH, EMBED_PROBLEMS_KEPT, type EmbedProblemCode } from '../../core/participant/embedProblems';
import type { Db } from '../db/open';
import { embedProblems } from '../db/schema';
import { pgErrorCode } from '../http/sql';

/** The Origin header as an origin (no path, query or credentials can pass), or null when it is not one. */
export function pageOrigin(header: string | undefined): string | null {
  if (!header) return null;
  try {
    const url = new URL(header);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.origin.slice(0, EMBED_ORIGIN_MAX_LENGTH);
  } catch {
    return null;
  }
}

/** Counts one problem of `mediaChannelId` seen from `origin` at `at`. */
export async function recordEmbedProblem(db: Db, problem: { mediaChannelId: number; origin: string; cause: EmbedProblemCode; at: Date }): Promise<void> {
  try {
    const [row] = await db
      .insert(embedProblems)
      .values({ mediaChannelId: problem.mediaChannelId, origin: problem.origin, cause: problem.cause, firstSeen: problem.at, lastSeen: problem.at })
      .onConflictDoUpdate({
        target: [embedProblems.mediaChannelId, embedProblems.origin, embedProblems.cause],
        set: { count: sql`${embedProblems.count} + 1`, lastSeen: sql`greatest(${embedProblems.lastSeen}, excluded.last_seen)` },
      })
      .returning({ count: embedProblems.count });
    // A new row: the channel keeps its most recently seen problems only.
    if (row?.count === 1) {
      await db.execute(sql`
        delete from ${embedProblems} where media_channel_id = ${problem.mediaChannelId} and (origin, cause) not in (
          select origin, cause from ${embedProblems} where media_channel_id = ${problem.mediaChannelId}
          order by last_seen desc, origin, cause limit ${EMBED_PROBLEMS_KEPT})`);
    }
  } catch (error) {
    // The channel was deleted meanwhile: nothing to record it under.
    if (pgErrorCode(error).code !== '23503') throw error;
  }
}

/** The channel's recorded problems, most recently seen first. */
export async function embedProblemsOf(db: Db, mediaChannelId: number) {
  return db
    .select()
    .from(embedProblems)
    .where(eq(embedProblems.mediaChannelId, mediaChannelId))
    .orderBy(desc(embedProblems.lastSeen), embedProblems.origin, embedProblems.cause);
}
