/**
 * When an engagement stops being offered by itself: its target reached (referrals made, or
 * referrals randomized when the engagement counts those), or its media end date or end date
 * passed. Judged at an instant (the server's injected clock), never stored: raising the target
 * or moving a date resumes it at once.
 *
 * A date passes at the end of its day (UTC): an engagement whose end date is 2026-12-03 is
 * offered all of that day and paused from 2026-12-04 00:00 UTC. A target is reached when the
 * target-th referral was made (its creation) or randomized (its last change of status).
 */
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/open';
import { engagementScreeners, engagements, referrals } from '../db/schema';

import type { EngagementPause } from '@core/model/engagement';
import { startOfNextDay } from '@core/time';

export { TARGET_MEASURES, type EngagementPause, type TargetMeasure } from '@core/model/engagement';

export interface PauseFacts {
  targetParticipantCount: number | null;
  targetMeasure: string;
  mediaEndDate: string | null;
  endDate: string | null;
}

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** A target counts when it is a whole number above 0 (none, or 0, is no target). */
const targetOf = (e: PauseFacts): number | null => (e.targetParticipantCount !== null && e.targetParticipantCount > 0 ? e.targetParticipantCount : null);

/**
 * The pause of an engagement at `now`, from its facts and the instant its target was reached
 * (null: not reached); the earliest reason when several apply. Pure.
 */
export function pauseOf(e: PauseFacts, targetReachedAt: Date | null, now: Date): EngagementPause | null {
  const today = dayOf(now);
  const found: EngagementPause[] = [];
  const target = targetOf(e);
  if (target !== null && targetReachedAt !== null && targetReachedAt.getTime() <= now.getTime()) {
    const what = e.targetMeasure === 'randomized' ? 'randomized participants' : 'referrals';
    found.push({ reason: 'target', since: targetReachedAt.toISOString(), text: `paused: target of ${target} ${what} reached on ${dayOf(targetReachedAt)}` });
  }
  for (const [reason, label] of [
    ['mediaEndDate', 'media end date'],
    ['endDate', 'end date'],
  ] as const) {
    const day = e[reason];
    if (day && day < today) found.push({ reason, since: startOfNextDay(day).toISOString(), text: `paused: ${label} ${day} passed` });
  }
  found.sort((a, b) => a.since.localeCompare(b.since));
  return found[0] ?? null;
}

/** The instant the target-th referral counting toward `e`'s target came, or null while fewer have. */
async function targetReachedAt(db: Db, engagementId: number, e: PauseFacts): Promise<Date | null> {
  const target = targetOf(e);
  if (target === null) return null;
  const randomized = e.targetMeasure === 'randomized';
  const at = randomized ? sql<Date>`coalesce(${referrals.statusChanged}, ${referrals.created})` : sql<Date>`${referrals.created}`;
  const [row] = await db
    .select({ ms: sql<number>`(extract(epoch from ${at}) * 1000)::float8`.mapWith(Number) })
    .from(referrals)
    .where(randomized ? and(eq(referrals.engagementId, engagementId), eq(referrals.isRandomized, true)) : eq(referrals.engagementId, engagementId))
    .orderBy(asc(at), asc(referrals.id))
    .offset(target - 1)
    .limit(1);
  return row ? new Date(Math.round(row.ms)) : null;
}

/** The pauses of engagements `ids` at `now`, by id (an engagement offered has none). */
export async function engagementPauses(db: Db, ids: readonly number[], now: Date): Promise<Map<number, EngagementPause>> {
  const out = new Map<number, EngagementPause>();
  if (ids.length === 0) return out;
  const rows = await db
    .select({
      id: engagements.id,
      targetParticipantCount: engagements.targetParticipantCount,
      targetMeasure: engagements.targetMeasure,
      mediaEndDate: engagements.mediaEndDate,
      endDate: engagements.endDate,
    })
    .from(engagements)
    .where(inArray(engagements.id, [...ids]));
  for (const row of rows) {
    const pause = pauseOf(row, await targetReachedAt(db, row.id, row), now);
    if (pause) out.set(row.id, pause);
  }
  return out;
}

/** Of engagements `ids`, those offered at `now` (not paused), in the order given. */
export async function offeredEngagements(db: Db, ids: readonly number[], now: Date): Promise<number[]> {
  const paused = await engagementPauses(db, ids, now);
  return ids.filter((id) => !paused.has(id));
}

export interface ChannelPauses {
  /** Every active engagement of the channel's screener paused: its participants reach notActive. */
  isPaused: boolean;
  /** The paused ones, with why and since when. */
  engagements: ({ engagementId: number; engagementName: string } & EngagementPause)[];
}

/** What pauses a media channel's recruitment at `now`: the pauses of its screener's active engagements. */
export async function screenerPauses(db: Db, screenerId: number, now: Date): Promise<ChannelPauses> {
  const rows = await db
    .select({ id: engagements.id, name: engagements.name })
    .from(engagementScreeners)
    .innerJoin(engagements, eq(engagements.id, engagementScreeners.engagementId))
    .where(and(eq(engagementScreeners.screenerId, screenerId), eq(engagements.isActive, true)))
    .orderBy(asc(engagements.id));
  const pauses = await engagementPauses(
    db,
    rows.map((r) => r.id),
    now,
  );
  const paused = rows.flatMap((r) => {
    const pause = pauses.get(r.id);
    return pause ? [{ engagementId: r.id, engagementName: r.name, ...pause }] : [];
  });
  return { isPaused: rows.length > 0 && paused.length === rows.length, engagements: paused };
}

/**
 * pauseOf's rule in SQL, for a statement that must decide in one round trip (a participant's
 * start): whether the engagement row under `alias` is paused at the timestamptz `now`. The
 * target's count reads at most the target's number of referrals.
 */
export function engagementPausedCondition(alias: string, now: SQL): SQL {
  const e = sql.raw(alias);
  const today = sql`((${now})::timestamptz at time zone 'UTC')::date`;
  return sql`(
    (coalesce(${e}.target_participant_count, 0) > 0 and (
      select count(*) from (
        select 1 from ${referrals} r
        where r.engagement_id = ${e}.id
          and (case when ${e}.target_measure = 'randomized' then r.is_randomized and coalesce(r.status_changed, r.created) <= (${now})::timestamptz else r.created <= (${now})::timestamptz end)
        limit ${e}.target_participant_count) counted
    ) >= ${e}.target_participant_count)
    or (${e}.media_end_date is not null and ${e}.media_end_date < ${today})
    or (${e}.end_date is not null and ${e}.end_date < ${today}))`;
}
