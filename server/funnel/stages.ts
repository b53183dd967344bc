/**
 * The recruitment funnel's stages, defined once (core/model/funnel.ts has their sentences).
 * Every stage but `viewed` counts submissions, each in the stage it reached and in every stage
 * before it: a stage's condition is its own fact and every earlier stage's, so a later stage
 * never exceeds an earlier one.
 *
 *   started       the participant saved a page's answers (o_form_submissions.started_at)
 *   completed     the path reached the survey's end (finished_at; or the run was completed)
 *   qualified     qualified for an engagement (is_qualified; a stored contact implies it)
 *   siteSelected  chose a trial site and went on to the contact form (outcome trialSiteSelected, then completed)
 *   contacted     a contact is stored for the run that is not a duplicate of an earlier one
 *   delivered     its referral is delivered (rms/delivered.ts: the one definition)
 *   screened, randomized  the record system's callback said so (referrals.is_screened, is_randomized)
 *
 * `viewed` counts views (views.ts), which are not submissions: a view is counted when the widget
 * is seen (half of it on screen, once per page load), before anyone answers. A submission is dated by when it was created; a view by its day.
 */
import { sql, type SQL } from 'drizzle-orm';
import { FUNNEL_STAGES, type FunnelCounts, type FunnelGrouping, type FunnelStage } from '../../core/model/funnel';
import type { Db } from '../db/open';
import { rowsOf } from '../db/rows';
import { deliveredJoin, isDeliveredJoined } from '../rms/delivered';
import { uncountedDays } from './recount';
import { refreshFunnelRollup } from './rollup';

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

export interface FunnelRequest {
  filters: FunnelFilters;
  groupBy: FunnelGrouping;
  /** The sponsors the asking user may see, or null for all. */
  sponsorScope: number[] | null;
}

export interface FunnelGroupCounts {
  /** The group's key, or null (no grouping, or the rows without one). */
  group: string | null;
  counts: FunnelCounts;
}

/**
 * Each submission stage's own fact, over the aliases of `submissionsFrom` (s: the submission,
 * ct: its contact, rf: its referral, dl: its delivery when delivered). `viewed` is counted apart.
 */
const STAGE_FACTS: Record<Exclude<FunnelStage, 'viewed'>, SQL> = {
  started: sql`s.started_at is not null`,
  completed: sql`(s.finished_at is not null or s.status = 'completed')`,
  qualified: sql`(s.is_qualified is true or s.status = 'completed')`,
  siteSelected: sql`s.outcome in ('trialSiteSelected', 'completed')`,
  // A duplicate (the same person referred to the same engagement within its window) is kept but never referred.
  contacted: sql`ct.id is not null and ct.duplicate_of is null`,
  delivered: isDeliveredJoined('dl', sql.raw('ct.id')),
  screened: sql`rf.is_screened`,
  randomized: sql`rf.is_randomized`,
};

const SUBMISSION_STAGES = FUNNEL_STAGES.filter((s): s is Exclude<FunnelStage, 'viewed'> => s !== 'viewed');

/** A stage reached: its fact and every earlier one's. */
export function reachedCondition(stage: Exclude<FunnelStage, 'viewed'>): SQL {
  const upTo = SUBMISSION_STAGES.slice(0, SUBMISSION_STAGES.indexOf(stage) + 1);
  return sql.join(
    upTo.map((s) => sql`(${STAGE_FACTS[s]})`),
    sql` and `,
  );
}

/**
 * The submissions', the views' and the daily rollup's key per grouping (null: the grouping does
 * not apply to views; no rollup key: the rollup does not keep it, and the submissions are read).
 */
const GROUP_KEYS: Record<FunnelGrouping, { submission: SQL; view: SQL; rollup?: SQL }> = {
  none: { submission: sql`null::text`, view: sql`null::text`, rollup: sql`null::text` },
  mediaChannel: { submission: sql`s.media_channel_id::text`, view: sql`v.media_channel_id::text`, rollup: sql`r.media_channel_id::text` },
  source: { submission: sql`nullif(s.utm ->> 'utm_source', '')`, view: sql`v.utm_source` },
  campaign: { submission: sql`nullif(s.utm ->> 'utm_campaign', '')`, view: sql`v.utm_campaign` },
  site: { submission: sql`esl.site_location_id::text`, view: sql`null::text` },
  engagement: { submission: sql`f.engagement_id::text`, view: sql`v.engagement_id::text`, rollup: sql`f.engagement_id::text` },
  language: { submission: sql`s.language`, view: sql`v.language` },
  day: { submission: sql`to_char(s.created at time zone 'UTC', 'YYYY-MM-DD')`, view: sql`to_char(v.day, 'YYYY-MM-DD')`, rollup: sql`to_char(r.day, 'YYYY-MM-DD')` },
  week: {
    submission: sql`to_char(date_trunc('week', s.created at time zone 'UTC'), 'YYYY-MM-DD')`,
    view: sql`to_char(date_trunc('week', v.day), 'YYYY-MM-DD')`,
    rollup: sql`to_char(date_trunc('week', r.day::timestamp), 'YYYY-MM-DD')`,
  },
};

/** The calendar day after `day` (YYYY-MM-DD). */
export const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 24 * 3600 * 1000).toISOString().slice(0, 10);

/**
 * The conditions on the submissions (aliases of `submissionsFrom`), or on the daily rollup
 * (r: funnel_day_counts, f, e, mc) for the filters it keeps: not the site, which the rollup
 * does not split by (`usesRollup`).
 */
function submissionConditions(request: FunnelRequest, source: 'submissions' | 'rollup' = 'submissions'): SQL[] {
  const { filters: f, sponsorScope } = request;
  const rollup = source === 'rollup';
  const out: SQL[] = [rollup ? sql`true` : sql`s.started_at is not null`];
  if (sponsorScope !== null) out.push(sponsorScope.length ? sql`e.sponsor_id in (${sql.join(sponsorScope.map((id) => sql`${id}::int`), sql`, `)})` : sql`false`);
  if (f.sponsorId !== undefined) out.push(sql`e.sponsor_id = ${f.sponsorId}::int`);
  if (f.engagementId !== undefined) out.push(sql`f.engagement_id = ${f.engagementId}::int`);
  if (f.screenerId !== undefined) out.push(sql`mc.screener_id = ${f.screenerId}::int`);
  if (f.mediaChannelId !== undefined) out.push(rollup ? sql`r.media_channel_id = ${f.mediaChannelId}::int` : sql`s.media_channel_id = ${f.mediaChannelId}::int`);
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
  if (sponsorScope !== null) out.push(sponsorScope.length ? sql`v.sponsor_id in (${sql.join(sponsorScope.map((id) => sql`${id}::int`), sql`, `)})` : sql`false`);
  if (f.sponsorId !== undefined) out.push(sql`v.sponsor_id = ${f.sponsorId}::int`);
  if (f.engagementId !== undefined) out.push(sql`v.engagement_id = ${f.engagementId}::int`);
  if (f.screenerId !== undefined) out.push(sql`v.screener_id = ${f.screenerId}::int`);
  if (f.mediaChannelId !== undefined) out.push(sql`v.media_channel_id = ${f.mediaChannelId}::int`);
  if (f.oFormIdentity !== undefined) out.push(sql`v.o_form_identity = ${f.oFormIdentity}`);
  if (f.from !== undefined) out.push(sql`v.day >= ${f.from}::date`);
  if (f.to !== undefined) out.push(sql`v.day <= ${f.to}::date`);
  return out;
}

const zero = (): FunnelCounts => Object.fromEntries(FUNNEL_STAGES.map((s) => [s, 0])) as FunnelCounts;

/**
 * The submissions with what their stages read: s, its survey version f, engagement e, channel mc,
 * contact ct, its site esl, referral rf and delivery dl (when delivered). `submissions` narrows s to a subquery of
 * o_form_submissions rows (the rollup's buckets), so the joins start from those few.
 */
export const submissionsFrom = (submissions: SQL = sql`o_form_submissions`): SQL => sql`
    from ${submissions} s
    join o_forms f on f.id = s.o_form_id
    join engagements e on e.id = f.engagement_id
    left join media_channels mc on mc.id = s.media_channel_id
    left join contacts ct on ct.submission_id = s.id
    left join engagement_site_locations esl on esl.id = ct.engagement_site_location_id
    left join referrals rf on rf.contact_id = ct.id
    ${deliveredJoin('dl', sql.raw('ct.id'))}`;

/** Each submission stage's count over `submissionsFrom`, as columns named for the stages. */
export const stageCountColumns = (): SQL =>
  sql.join(
    SUBMISSION_STAGES.map((stage) => sql`count(*) filter (where ${reachedCondition(stage)}) as ${sql.identifier(stage)}`),
    sql`, `,
  );

/** funnel_day_counts' column of each submission stage. */
export const ROLLUP_COLUMNS: Record<Exclude<FunnelStage, 'viewed'>, string> = {
  started: 'started',
  completed: 'completed',
  qualified: 'qualified',
  siteSelected: 'site_selected',
  contacted: 'contacted',
  delivered: 'delivered',
  screened: 'screened',
  randomized: 'randomized',
};

/** Whether the daily rollup holds what the request asks: its grouping and filters are by day, survey version, channel or what those belong to. */
export const usesRollup = (request: FunnelRequest): boolean => GROUP_KEYS[request.groupBy].rollup !== undefined && request.filters.siteLocationId === undefined;

/** The stage counts per group (groups with nothing counted are left out; `none` always answers one row). */
export async function funnelCounts(db: Db, request: FunnelRequest): Promise<FunnelGroupCounts[]> {
  const keys = GROUP_KEYS[request.groupBy];
  // Each query answers counts per group; a group's counts are the sum over the queries.
  const submissions: Promise<unknown>[] = [];
  const direct = (extra: SQL[] = []) =>
    db.execute(sql`
    select ${keys.submission} as "group", ${stageCountColumns()}
    ${submissionsFrom()}
    where ${sql.join([...submissionConditions(request), ...extra], sql` and `)}
    group by 1`);
  if (usesRollup(request)) {
    // The buckets a change marked since the last read are recomputed first (rollup.ts).
    await refreshFunnelRollup(db);
    // Days the recount job has not reached yet (recount.ts) are counted from the submissions.
    const uncounted = await uncountedDays(db);
    const sums = sql.join(
      SUBMISSION_STAGES.map((stage) => sql`sum(r.${sql.identifier(ROLLUP_COLUMNS[stage])}) as ${sql.identifier(stage)}`),
      sql`, `,
    );
    const counted = uncounted ? [sql`r.day not between ${uncounted.firstDay}::date and ${uncounted.lastDay}::date`] : [];
    submissions.push(
      db.execute(sql`
    select ${keys.rollup} as "group", ${sums}
    from funnel_day_counts r
    join o_forms f on f.id = r.o_form_id
    join engagements e on e.id = f.engagement_id
    left join media_channels mc on mc.id = r.media_channel_id
    where ${sql.join([...submissionConditions(request, 'rollup'), ...counted], sql` and `)}
    group by 1`),
    );
    if (uncounted) {
      submissions.push(
        direct([sql`s.created >= ${`${uncounted.firstDay}T00:00:00Z`}::timestamptz`, sql`s.created < ${`${nextDay(uncounted.lastDay)}T00:00:00Z`}::timestamptz`]),
      );
    }
  } else {
    submissions.push(direct());
  }
  const viewWhere = viewConditions(request);
  const views = viewWhere
    ? db.execute(sql`select ${keys.view} as "group", sum(v.views) as viewed from funnel_views v where ${sql.join(viewWhere, sql` and `)} group by 1`)
    : Promise.resolve(null);

  const groups = new Map<string | null, FunnelCounts>();
  const countsOf = (group: string | null) => {
    let counts = groups.get(group);
    if (!counts) groups.set(group, (counts = zero()));
    return counts;
  };
  const keyOf = (value: unknown) => (value === null || value === undefined ? null : String(value));
  for (const result of await Promise.all(submissions)) {
    for (const row of rowsOf(result)) {
      const counts = countsOf(keyOf(row.group));
      for (const stage of SUBMISSION_STAGES) counts[stage] += Number(row[stage] ?? 0);
    }
  }
  const viewed = await views;
  if (viewed) for (const row of rowsOf(viewed)) countsOf(keyOf(row.group)).viewed += Number(row.viewed ?? 0);
  if (request.groupBy === 'none') countsOf(null);
  return [...groups].map(([group, counts]) => ({ group, counts }));
}
