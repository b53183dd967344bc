/**
 * The funnel's counts per group for a request: the submission stages (stages.ts) from the daily
 * rollup where it holds what the request asks (rollup.ts; the days the recount job has not
 * reached yet, recount.ts, from the submissions), or else from the submissions themselves, and
 * the views (views.ts) beside them.
 */
import { sql, type SQL } from 'drizzle-orm';
import { zeroFunnelCounts, type FunnelCounts, type FunnelGroupBy, type FunnelGrouping } from '@core/model/funnel';
import type { Db } from '../db/open';
import { rowsOf } from '../db/rows';
import { uncountedDays } from './recount';
import { refreshFunnelRollup } from './rollup';
import { isStarted, nextDay, ROLLUP_COLUMNS, stageCountColumns, SUBMISSION_FIGURES, submissionsFrom } from './stages';

/** What the funnel is narrowed to (all optional); `from`/`to` are calendar days (UTC), inclusive. */
export interface FunnelFilters {
  sponsorId?: number;
  engagementId?: number;
  screenerId?: number;
  mediaChannelId?: number;
  oFormIdentity?: string;
  siteLocationId?: number;
  from?: string;
  to?: string;
}

export type FunnelRequest = FunnelGroupBy & {
  filters: FunnelFilters;
  /** The sponsors the asking user may see, or null for all. */
  sponsorScope: number[] | null;
};

export interface FunnelGroupCounts {
  /** The group's key, or null (no grouping, or the rows without one). */
  group: string | null;
  counts: FunnelCounts;
}

/**
 * The submissions', the views' and the daily rollup's key per grouping (null: the grouping does
 * not apply to views; no rollup key: the rollup does not keep it, and the submissions are read).
 * `label`: the group's name made from its key, once per group rather than once per row (a day or
 * week is grouped as a timestamp and named as text afterwards).
 */
interface GroupKeys {
  submission: SQL;
  view: SQL;
  rollup?: SQL;
  label?: (key: SQL) => SQL;
}

const dayLabel = (key: SQL): SQL => sql`to_char(${key}, 'YYYY-MM-DD')`;

const GROUP_KEYS: Record<Exclude<FunnelGrouping, 'hiddenField'>, GroupKeys> = {
  none: { submission: sql`null::text`, view: sql`null::text`, rollup: sql`null::text` },
  mediaChannel: { submission: sql`s.media_channel_id::text`, view: sql`v.media_channel_id::text`, rollup: sql`r.media_channel_id::text` },
  source: { submission: sql`nullif(s.utm ->> 'utm_source', '')`, view: sql`v.utm_source` },
  campaign: { submission: sql`nullif(s.utm ->> 'utm_campaign', '')`, view: sql`v.utm_campaign` },
  site: { submission: sql`esl.site_location_id::text`, view: sql`null::text` },
  engagement: { submission: sql`f.engagement_id::text`, view: sql`v.engagement_id::text`, rollup: sql`f.engagement_id::text` },
  language: { submission: sql`s.language`, view: sql`v.language` },
  day: {
    submission: sql`date_trunc('day', s.created at time zone 'UTC')`,
    view: sql`v.day::timestamp`,
    rollup: sql`r.day::timestamp`,
    label: dayLabel,
  },
  week: {
    submission: sql`date_trunc('week', s.created at time zone 'UTC')`,
    view: sql`date_trunc('week', v.day::timestamp)`,
    rollup: sql`date_trunc('week', r.day::timestamp)`,
    label: dayLabel,
  },
};

/** `select <this> as "group", … group by <this'>`: the key grouped by and its label selected. */
const grouped = (keys: GroupKeys, key: SQL) => ({
  select: keys.label ? keys.label(key) : key,
  groupBy: keys.label ? key : sql`1`,
});

/**
 * The keys of the request's grouping. A hidden field's value is read from the submission
 * (stored in clear, like its utm: partner and campaign identifiers, nothing about the person);
 * views carry no hidden fields.
 */
const groupKeys = (grouping: FunnelGroupBy): GroupKeys =>
  grouping.groupBy === 'hiddenField'
    ? { submission: sql`nullif(s.hidden_fields ->> ${grouping.hiddenField}::text, '')`, view: sql`null::text` }
    : GROUP_KEYS[grouping.groupBy];

/** `column` is one of the sponsors the user may see (none: false). */
export const inSponsors = (column: SQL, scope: readonly number[]): SQL =>
  scope.length
    ? sql`${column} in (${sql.join(
        scope.map((id) => sql`${id}::int`),
        sql`, `,
      )})`
    : sql`false`;

/**
 * The conditions on the submissions (aliases of `submissionsFrom`), or on the daily rollup
 * (r: funnel_day_counts, f, e, mc) for the filters it keeps: not the site, which the rollup
 * does not split by (`usesRollup`).
 */
function submissionConditions(request: FunnelRequest, source: 'submissions' | 'rollup' = 'submissions'): SQL[] {
  const { filters: f, sponsorScope } = request;
  const rollup = source === 'rollup';
  const out: SQL[] = [rollup ? sql`true` : isStarted('s')];
  if (sponsorScope !== null) out.push(inSponsors(sql`e.sponsor_id`, sponsorScope));
  if (f.sponsorId !== undefined) out.push(sql`e.sponsor_id = ${f.sponsorId}::int`);
  if (f.engagementId !== undefined) out.push(sql`f.engagement_id = ${f.engagementId}::int`);
  if (f.screenerId !== undefined) out.push(sql`mc.screener_id = ${f.screenerId}::int`);
  if (f.mediaChannelId !== undefined)
    out.push(rollup ? sql`r.media_channel_id = ${f.mediaChannelId}::int` : sql`s.media_channel_id = ${f.mediaChannelId}::int`);
  if (f.oFormIdentity !== undefined) out.push(sql`f.identity = ${f.oFormIdentity}`);
  if (f.siteLocationId !== undefined) out.push(sql`esl.site_location_id = ${f.siteLocationId}::int`);
  if (f.from !== undefined) out.push(rollup ? sql`r.day >= ${f.from}::date` : sql`s.created >= ${`${f.from}T00:00:00Z`}::timestamptz`);
  if (f.to !== undefined) out.push(rollup ? sql`r.day <= ${f.to}::date` : sql`s.created < ${`${nextDay(f.to)}T00:00:00Z`}::timestamptz`);
  return out;
}

/** The views that match, or null when none can (a site is not known for a view). */
function viewConditions(request: FunnelRequest): SQL[] | null {
  const { filters: f, sponsorScope } = request;
  if (f.siteLocationId !== undefined) return null;
  const out: SQL[] = [sql`true`];
  if (sponsorScope !== null) out.push(inSponsors(sql`v.sponsor_id`, sponsorScope));
  if (f.sponsorId !== undefined) out.push(sql`v.sponsor_id = ${f.sponsorId}::int`);
  if (f.engagementId !== undefined) out.push(sql`v.engagement_id = ${f.engagementId}::int`);
  if (f.screenerId !== undefined) out.push(sql`v.screener_id = ${f.screenerId}::int`);
  if (f.mediaChannelId !== undefined) out.push(sql`v.media_channel_id = ${f.mediaChannelId}::int`);
  if (f.oFormIdentity !== undefined) out.push(sql`v.o_form_identity = ${f.oFormIdentity}`);
  if (f.from !== undefined) out.push(sql`v.day >= ${f.from}::date`);
  if (f.to !== undefined) out.push(sql`v.day <= ${f.to}::date`);
  return out;
}

/** Whether the daily rollup holds what the request asks: its grouping and filters are by day, survey version, channel or what those belong to. */
export const usesRollup = (request: FunnelRequest): boolean => groupKeys(request).rollup !== undefined && request.filters.siteLocationId === undefined;

/** The stage counts per group (groups with nothing counted are left out; `none` always answers one row). */
export async function funnelCounts(db: Db, request: FunnelRequest): Promise<FunnelGroupCounts[]> {
  const keys = groupKeys(request);
  // Each query answers counts per group; a group's counts are the sum over the queries.
  const submissions: Promise<unknown>[] = [];
  const direct = (extra: SQL[] = []) =>
    db.execute(sql`
    select ${grouped(keys, keys.submission).select} as "group", ${stageCountColumns()}
    ${submissionsFrom()}
    where ${sql.join([...submissionConditions(request), ...extra], sql` and `)}
    group by ${grouped(keys, keys.submission).groupBy}`);
  if (usesRollup(request)) {
    // The buckets a change marked since the last read are recomputed first (rollup.ts).
    await refreshFunnelRollup(db);
    // Days the recount job has not reached yet (recount.ts) are counted from the submissions.
    const uncounted = await uncountedDays(db);
    const sums = sql.join(
      SUBMISSION_FIGURES.map((figure) => sql`sum(r.${sql.identifier(ROLLUP_COLUMNS[figure])}) as ${sql.identifier(figure)}`),
      sql`, `,
    );
    const counted = uncounted ? [sql`r.day not between ${uncounted.firstDay}::date and ${uncounted.lastDay}::date`] : [];
    submissions.push(
      db.execute(sql`
    select ${grouped(keys, keys.rollup!).select} as "group", ${sums}
    from funnel_day_counts r
    join o_forms f on f.id = r.o_form_id
    join engagements e on e.id = f.engagement_id
    left join media_channels mc on mc.id = r.media_channel_id
    where ${sql.join([...submissionConditions(request, 'rollup'), ...counted], sql` and `)}
    group by ${grouped(keys, keys.rollup!).groupBy}`),
    );
    if (uncounted) {
      submissions.push(
        direct([
          sql`s.created >= ${`${uncounted.firstDay}T00:00:00Z`}::timestamptz`,
          sql`s.created < ${`${nextDay(uncounted.lastDay)}T00:00:00Z`}::timestamptz`,
        ]),
      );
    }
  } else {
    submissions.push(direct());
  }
  const viewWhere = viewConditions(request);
  const views = viewWhere
    ? db.execute(
        sql`select ${grouped(keys, keys.view).select} as "group", sum(v.views) as viewed from funnel_views v where ${sql.join(viewWhere, sql` and `)} group by ${grouped(keys, keys.view).groupBy}`,
      )
    : Promise.resolve(null);

  const groups = new Map<string | null, FunnelCounts>();
  const countsOf = (group: string | null) => {
    let counts = groups.get(group);
    if (!counts) groups.set(group, (counts = zeroFunnelCounts()));
    return counts;
  };
  const keyOf = (value: unknown) => (value === null || value === undefined ? null : String(value));
  for (const result of await Promise.all(submissions)) {
    for (const row of rowsOf(result)) {
      const counts = countsOf(keyOf(row.group));
      for (const figure of SUBMISSION_FIGURES) counts[figure] += Number(row[figure] ?? 0);
    }
  }
  const viewed = await views;
  if (viewed) for (const row of rowsOf(viewed)) countsOf(keyOf(row.group)).viewed += Number(row.viewed ?? 0);
  if (request.groupBy === 'none') countsOf(null);
  return [...groups].map(([group, counts]) => ({ group, counts }));
}

/**
 * Whether a media channel the request covers declares the hidden field `name`: one of the user's
 * sponsors' channels, within the request's sponsor, screener and channel filters.
 */
export async function declaresHiddenField(db: Db, request: Pick<FunnelRequest, 'filters' | 'sponsorScope'>, name: string): Promise<boolean> {
  const { filters: f, sponsorScope } = request;
  const where: SQL[] = [sql`mc.hidden_fields @> ${JSON.stringify([{ name }])}::jsonb`];
  if (sponsorScope !== null) where.push(inSponsors(sql`sc.sponsor_id`, sponsorScope));
  if (f.sponsorId !== undefined) where.push(sql`sc.sponsor_id = ${f.sponsorId}::int`);
  if (f.screenerId !== undefined) where.push(sql`mc.screener_id = ${f.screenerId}::int`);
  if (f.mediaChannelId !== undefined) where.push(sql`mc.id = ${f.mediaChannelId}::int`);
  const found = await db.execute(sql`select 1 from media_channels mc join screeners sc on sc.id = mc.screener_id where ${sql.join(where, sql` and `)} limit 1`);
  return rowsOf(found).length > 0;
}
