/**
 * Site caps: an engagement site may take so many referrals a week (the week from Monday
 * 00:00 UTC, at the server's clock) and/or so many in all, and may be paused by hand. A site at
 * a cap or paused is not offered; it is offered again when the week turns, the cap is raised or
 * the pause lifted. Nothing is stored about being full: it is counted when asked.
 */
import { and, count, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/open';
import { referrals } from '../db/schema';
import type { SiteFullReason } from '@core/model/engagementSiteLocation';
import { DAY_MS } from '@core/time';

/** The start of `now`'s week: Monday 00:00 UTC. */
export function weekStart(now: Date): Date {
  const day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const sinceMonday = (new Date(day).getUTCDay() + 6) % 7;
  return new Date(day - sinceMonday * DAY_MS);
}

export interface SiteFill {
  /** Referrals to the site in `now`'s week. */
  week: number;
  /** Referrals to the site in all. */
  total: number;
}

export interface SiteCaps {
  weeklyCap: number | null;
  totalCap: number | null;
  isPaused: boolean;
}

/** Whether a site with `caps` and `fill` takes another referral. Pure. */
export const hasRoom = (caps: SiteCaps, fill: SiteFill): boolean =>
  !caps.isPaused && (caps.weeklyCap === null || fill.week < caps.weeklyCap) && (caps.totalCap === null || fill.total < caps.totalCap);

/** Why a site is not offered, for staff ("paused", "weekly cap reached", "total cap reached"), or null. */
export function fullReason(caps: SiteCaps, fill: SiteFill): SiteFullReason | null {
  if (caps.isPaused) return 'paused';
  if (caps.totalCap !== null && fill.total >= caps.totalCap) return 'total cap reached';
  if (caps.weeklyCap !== null && fill.week >= caps.weeklyCap) return 'weekly cap reached';
  return null;
}

/** Referrals made to engagement sites `linkIds` in `now`'s week and in all (up to `now`), by link id. */
export async function siteFills(db: Db, linkIds: readonly number[], now: Date): Promise<Map<number, SiteFill>> {
  const out = new Map<number, SiteFill>(linkIds.map((id) => [id, { week: 0, total: 0 }]));
  if (linkIds.length === 0) return out;
  const from = weekStart(now);
  const rows = await db
    .select({
      id: referrals.engagementSiteLocationId,
      total: count(),
      week: sql<number>`count(*) filter (where ${referrals.created} >= ${from.toISOString()}::timestamptz)`.mapWith(Number),
    })
    .from(referrals)
    .where(and(inArray(referrals.engagementSiteLocationId, [...linkIds]), lt(referrals.created, new Date(now.getTime() + 1))))
    .groupBy(referrals.engagementSiteLocationId);
  for (const row of rows) if (row.id !== null) out.set(row.id, { week: row.week, total: row.total });
  return out;
}

/** Of the links given with their caps, the ids of those that take another referral at `now`. */
export async function linksWithRoom(db: Db, links: readonly ({ id: number } & SiteCaps)[], now: Date): Promise<Set<number>> {
  const capped = links.filter((l) => l.isPaused || l.weeklyCap !== null || l.totalCap !== null);
  const fills = await siteFills(
    db,
    capped.filter((l) => !l.isPaused).map((l) => l.id),
    now,
  );
  const out = new Set(links.map((l) => l.id));
  for (const link of capped) if (!hasRoom(link, fills.get(link.id) ?? { week: 0, total: 0 })) out.delete(link.id);
  return out;
}
