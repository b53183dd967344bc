/**
 * The funnel's cost per outcome: the channel spends (channel-spends) of a request's channels,
 * prorated to its range, per group, divided by the group's stage counts (core/model/funnelCosts.ts).
 *
 * Prorating: a spend counts the share of its amount that the days its period overlaps the range
 * (from..to, inclusive, whole UTC days) are of the days of its period; without from or to that
 * side is open. 3000.00 over the 30 days of June, asked for June 11 to 20: 1000.00.
 *
 * Grouping: by media channel, its spends; by campaign, the spends naming that utm_campaign (the
 * rest under "No campaign"); by engagement, each channel's spend split across engagements in
 * proportion to the channel's started submissions in the range (a channel with none there goes
 * under "No engagement"); an engagement filter keeps that engagement's share. A site or survey
 * filter, or any other grouping, has no cost figures: spend is not entered per site or survey.
 */
import { sql, type SQL } from 'drizzle-orm';
import { COST_FIGURES, COST_GROUPINGS, NO_COSTS, type CostFigure, type FunnelCostFigures, type Money } from '@core/model/funnelCosts';
import { formatMinor } from '@core/model/channelSpend';
import type { FunnelCounts } from '@core/model/funnel';
import type { Db } from '../db/open';
import { rowsOf } from '../db/rows';
import { inSponsors, type FunnelRequest } from './counts';
import { isStarted, nextDay } from './stages';

/** Per group key (null: the row without one), per currency: the prorated spend in minor units, not yet rounded. */
export type GroupSpends = Map<string | null, Map<string, number>>;

/** Whether the request can carry cost figures at all. */
export const costsApply = (request: FunnelRequest): boolean =>
  COST_GROUPINGS.includes(request.groupBy) && request.filters.siteLocationId === undefined && request.filters.oFormIdentity === undefined;

interface Piece {
  channel: number;
  campaign: string | null;
  currency: string;
  amount: number;
}

/** The request's spends, each prorated to the range. */
async function pieces(db: Db, request: FunnelRequest): Promise<Piece[]> {
  const { filters: f, sponsorScope } = request;
  const lo = f.from === undefined ? sql`cs.period_start` : sql`greatest(cs.period_start, ${f.from}::date)`;
  const hi = f.to === undefined ? sql`cs.period_end` : sql`least(cs.period_end, ${f.to}::date)`;
  const where: SQL[] = [sql`${hi} >= ${lo}`];
  if (sponsorScope !== null) where.push(inSponsors(sql`sc.sponsor_id`, sponsorScope));
  if (f.sponsorId !== undefined) where.push(sql`sc.sponsor_id = ${f.sponsorId}::int`);
  if (f.screenerId !== undefined) where.push(sql`mc.screener_id = ${f.screenerId}::int`);
  if (f.mediaChannelId !== undefined) where.push(sql`cs.media_channel_id = ${f.mediaChannelId}::int`);
  const rows = rowsOf(
    await db.execute(sql`
    select cs.media_channel_id as channel, cs.campaign, cs.currency,
      cs.amount_minor::float8 * (${hi} - ${lo} + 1) / (cs.period_end - cs.period_start + 1) as amount
    from channel_spends cs
    join media_channels mc on mc.id = cs.media_channel_id
    join screeners sc on sc.id = mc.screener_id
    where ${sql.join(where, sql` and `)}`),
  );
  return rows.map((r) => ({
    channel: Number(r.channel),
    campaign: r.campaign === null ? null : String(r.campaign),
    currency: String(r.currency),
    amount: Number(r.amount),
  }));
}

/** Per channel, each engagement's share of its started submissions in the range. */
async function engagementShares(db: Db, request: FunnelRequest, channels: readonly number[]): Promise<Map<number, Map<string, number>>> {
  const { filters: f } = request;
  const where: SQL[] = [
    isStarted('s'),
    sql`s.media_channel_id in (${sql.join(
      channels.map((id) => sql`${id}::int`),
      sql`, `,
    )})`,
  ];
  if (f.from !== undefined) where.push(sql`s.created >= ${`${f.from}T00:00:00Z`}::timestamptz`);
  if (f.to !== undefined) where.push(sql`s.created < ${`${nextDay(f.to)}T00:00:00Z`}::timestamptz`);
  const rows = rowsOf(
    await db.execute(sql`
    select s.media_channel_id as channel, f.engagement_id as engagement, count(*) as n
    from o_form_submissions s join o_forms f on f.id = s.o_form_id
    where ${sql.join(where, sql` and `)}
    group by 1, 2`),
  );
  const totals = new Map<number, number>();
  for (const r of rows) totals.set(Number(r.channel), (totals.get(Number(r.channel)) ?? 0) + Number(r.n));
  const shares = new Map<number, Map<string, number>>();
  for (const r of rows) {
    const channel = Number(r.channel);
    if (!shares.has(channel)) shares.set(channel, new Map());
    shares.get(channel)!.set(String(r.engagement), Number(r.n) / totals.get(channel)!);
  }
  return shares;
}

/** The prorated spend per group of the request, or null when it carries no cost figures (`costsApply`). */
export async function funnelSpends(db: Db, request: FunnelRequest): Promise<GroupSpends | null> {
  if (!costsApply(request)) return null;
  const spends: GroupSpends = new Map();
  const add = (group: string | null, currency: string, amount: number) => {
    if (!spends.has(group)) spends.set(group, new Map());
    const byCurrency = spends.get(group)!;
    byCurrency.set(currency, (byCurrency.get(currency) ?? 0) + amount);
  };
  const found = await pieces(db, request);
  const byEngagement = request.groupBy === 'engagement' || request.filters.engagementId !== undefined;
  const shares =
    byEngagement && found.length ? await engagementShares(db, request, [...new Set(found.map((p) => p.channel))]) : new Map<number, Map<string, number>>();
  for (const piece of found) {
    const split: [string | null, number][] = byEngagement ? [...(shares.get(piece.channel) ?? new Map<string, number>([]))] : [[null, 1]];
    if (byEngagement && split.length === 0) split.push([null, 1]);
    for (const [engagement, share] of split) {
      if (request.filters.engagementId !== undefined && engagement !== String(request.filters.engagementId)) continue;
      const group =
        request.groupBy === 'mediaChannel'
          ? String(piece.channel)
          : request.groupBy === 'campaign'
            ? piece.campaign
            : request.groupBy === 'engagement'
              ? engagement
              : null;
      add(group, piece.currency, piece.amount * share);
    }
  }
  if (request.groupBy === 'none' && !spends.has(null)) spends.set(null, new Map());
  return spends;
}

/** A row's cost figures: its spend (rounded to the currency's minor unit) and that divided by each stage's count. */
export function costFigures(spends: GroupSpends | null, group: string | null, counts: FunnelCounts): FunnelCostFigures {
  if (spends === null) return NO_COSTS;
  const byCurrency = [...(spends.get(group) ?? new Map<string, number>())].sort(([a], [b]) => a.localeCompare(b));
  const money = (divide: (amount: number) => number | null): Money =>
    Object.fromEntries(
      byCurrency.map(([currency, amount]) => {
        const value = divide(amount);
        return [currency, value === null ? null : formatMinor(Math.round(value), currency)];
      }),
    );
  const figures = Object.fromEntries(
    (Object.entries(COST_FIGURES) as [CostFigure, keyof FunnelCounts][]).map(([figure, stage]) => [
      figure,
      money((amount) => (counts[stage] > 0 ? amount / counts[stage] : null)),
    ]),
  ) as Record<CostFigure, Money>;
  return { spend: money((amount) => amount), ...figures };
}
