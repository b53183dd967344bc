/**
 * Site performance: per site location, the delivered referrals made in a date range (the ones
 * the caller's scope lets them see), how fast the site first reached the person (median hours,
 * and the share reached within the engagement's first-contact hours among those whose window
 * has closed or who were reached), the screen-fail rate (of the screened) and the randomization
 * rate (of all). The same milestones as the funnel and the referral counts (first_contact_at,
 * is_screened, is_randomized, status screen-failed).
 */
import { and, asc, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { SitePerformance, SitePerformanceFilter, SitePerformanceSort } from '@core/model/sitePerformance';
import type { Db } from '../db/open';
import { engagementSiteLocations, engagements, referrals, siteLocations } from '../db/schema';
import { idFilter, type ListFilters } from '../http/filters';
import { dayParam, mapParam } from '../http/params';
import type { ListQuery } from '../http/query';
import { isDeliveredReferral } from './delivered';
import { startOfDay, startOfNextDay } from '@core/time';

const deadline = sql`${referrals.created} + ${engagements.firstContactHours} * interval '1 hour'`;

/** The list's filters as conditions over referrals (joined to their engagement and site): days are whole UTC days. */
export const SITE_PERFORMANCE_LIST_FILTERS = {
  engagementId: idFilter(referrals.engagementId, 'engagement'),
  siteLocationId: idFilter(engagementSiteLocations.siteLocationId, 'site location'),
  from: mapParam(dayParam('from'), (day) => gte(referrals.created, startOfDay(day))),
  to: mapParam(dayParam('to'), (day) => lt(referrals.created, startOfNextDay(day))),
} satisfies ListFilters<SitePerformanceFilter>;

const rate = (part: number, whole: number) => (whole > 0 ? part / whole : null);

/** One row per site with referrals that `where` selects, sorted as asked (site name breaks ties). */
export async function sitePerformance(db: Db, now: Date, q: Pick<ListQuery<SitePerformanceSort>, 'sort' | 'limit' | 'offset'>, where: SQL | undefined) {
  const nowSql = sql`${now.toISOString()}::timestamptz`;
  const measures = {
    referrals: sql<number>`count(*)`.mapWith(Number),
    reached: sql<number>`count(${referrals.firstContactAt})`.mapWith(Number),
    medianHours: sql<
      number | null
    >`percentile_cont(0.5) within group (order by extract(epoch from (${referrals.firstContactAt} - ${referrals.created})) / 3600)`.mapWith((v) =>
      v === null ? null : Number(v),
    ),
    due: sql<number>`count(*) filter (where ${referrals.firstContactAt} is not null or ${deadline} <= ${nowSql})`.mapWith(Number),
    withinServiceLevel: sql<number>`count(*) filter (where ${referrals.firstContactAt} <= ${deadline})`.mapWith(Number),
    screened: sql<number>`count(*) filter (where ${referrals.isScreened})`.mapWith(Number),
    screenFailed: sql<number>`count(*) filter (where ${referrals.status} = 'screen-failed')`.mapWith(Number),
    randomized: sql<number>`count(*) filter (where ${referrals.isRandomized})`.mapWith(Number),
  };
  const sorts: Record<SitePerformanceSort, SQL> = {
    siteName: sql`${siteLocations.name}`,
    referrals: sql`count(*)`,
    medianHoursToFirstContact: sql`coalesce(${measures.medianHours}, 'Infinity'::float8)`,
    withinServiceLevelRate: sql`coalesce(${measures.withinServiceLevel}::float8 / nullif(${measures.due}, 0), -1)`,
    screenFailRate: sql`coalesce(${measures.screenFailed}::float8 / nullif(${measures.screened}, 0), -1)`,
    randomizationRate: sql`count(*) filter (where ${referrals.isRandomized})::float8 / count(*)`,
  };
  const condition = and(where, isDeliveredReferral(referrals.contactId));
  const base = () =>
    db
      .select({ siteLocationId: siteLocations.id, siteName: siteLocations.name, ...measures })
      .from(referrals)
      .innerJoin(engagements, eq(engagements.id, referrals.engagementId))
      .innerJoin(engagementSiteLocations, eq(engagementSiteLocations.id, referrals.engagementSiteLocationId))
      .innerJoin(siteLocations, eq(siteLocations.id, engagementSiteLocations.siteLocationId))
      .where(condition)
      .groupBy(siteLocations.id, siteLocations.name);
  const order = [...q.sort.map((t) => (t.desc ? desc(sorts[t.field]) : asc(sorts[t.field]))), asc(siteLocations.name), asc(siteLocations.id)];
  const [rows, [counted]] = await Promise.all([
    base()
      .orderBy(...order)
      .limit(q.limit)
      .offset(q.offset),
    db
      .select({ n: sql<number>`count(distinct ${engagementSiteLocations.siteLocationId})`.mapWith(Number) })
      .from(referrals)
      .innerJoin(engagements, eq(engagements.id, referrals.engagementId))
      .innerJoin(engagementSiteLocations, eq(engagementSiteLocations.id, referrals.engagementSiteLocationId))
      .where(condition),
  ]);
  const sites: SitePerformance[] = rows.map((r) => ({
    id: String(r.siteLocationId),
    siteName: r.siteName,
    referrals: r.referrals,
    reached: r.reached,
    medianHoursToFirstContact: r.medianHours === null ? null : Math.round(r.medianHours * 10) / 10,
    dueForFirstContact: r.due,
    withinServiceLevel: r.withinServiceLevel,
    withinServiceLevelRate: rate(r.withinServiceLevel, r.due),
    screened: r.screened,
    screenFailed: r.screenFailed,
    screenFailRate: rate(r.screenFailed, r.screened),
    randomized: r.randomized,
    randomizationRate: rate(r.randomized, r.referrals),
  }));
  return { sites, total: counted?.n ?? 0 };
}
