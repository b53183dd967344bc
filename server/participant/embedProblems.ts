/**
 * Recording embed problems (core/model/embedProblem.ts) seen on partner pages: upserted
 * per channel, page origin and cause (count and last seen), and trimmed to the channel's
 * EMBED_PROBLEMS_KEPT most recently seen, so no caller can grow the table without bound. Only
 * a page origin is kept (what the browser's Origin header carries: scheme, host and port).
 */
import { desc, eq, sql } from 'drizzle-orm';
import { httpUrl } from '@core/participant/attribution';
import { EMBED_ORIGIN_MAX_LENGTH, EMBED_PROBLEMS_KEPT, embedProblemDetail, type EmbedProblemCode } from '@core/model/embedProblem';
import type { Db } from '../db/open';
import { embedProblems } from '../db/schema';
import { ApiProblem } from '../http/errors';
import { pgErrorCode } from '../http/sql';

/** The Origin header as an origin (no path, query or credentials can pass), or null when it is not one. */
export const pageOrigin = (header: string | undefined): string | null => (header ? (httpUrl(header)?.origin.slice(0, EMBED_ORIGIN_MAX_LENGTH) ?? null) : null);

// The answers that name a setup problem to the page's webmaster (the widget prints their detail
// in the console; the participant reads a calm message).

/** A partner page whose origin is not the channel's domain: the cause and the domain that is allowed. */
export const originNotAllowed = (origin: string, channelId: number, domain: string) =>
  new ApiProblem(403, [
    { status: '403', title: 'Forbidden', code: 'origin-not-allowed', detail: embedProblemDetail.originNotAllowed(origin, channelId, domain), meta: { domain } },
  ]);

/** A page without an origin (`Origin: null`): nothing to compare with the channel's domain. */
export const originOpaque = (channelId: number, domain: string) =>
  new ApiProblem(403, [
    { status: '403', title: 'Forbidden', code: 'origin-opaque', detail: embedProblemDetail.originOpaque(channelId, domain), meta: { domain } },
  ]);

/** A snippet naming a channel that does not exist. */
export const channelUnknown = (channelId: number) =>
  new ApiProblem(404, [{ status: '404', title: 'Not Found', code: 'channel-unknown', detail: embedProblemDetail.channelUnknown(channelId) }]);

/** A snippet whose screener is not its channel's. */
export const screenerMismatch = (channel: { id: number; screenerId: number }, screenerId: number) =>
  new ApiProblem(409, [
    {
      status: '409',
      title: 'Conflict',
      code: 'screener-mismatch',
      detail: embedProblemDetail.screenerMismatch(channel.id, screenerId, channel.screenerId),
      source: { parameter: 'screenerId' },
      meta: { screenerId: String(channel.screenerId) },
    },
  ]);

/** The `problem` of a start answer for a channel switched off. */
export const channelInactive = (channelId: number) => ({ code: 'channel-inactive' as const, detail: embedProblemDetail.channelInactive(channelId) });

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
