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
 *   contactLeft   a contact is stored for the run that is not a duplicate of an earlier one
 *   delivered     its referral is delivered (referrals/delivered.ts: the one definition)
 *   reached       the site reached the person: first_contact_at (a reached attempt, or the ladder
 *                 at contacted or beyond), or a later milestone a record system reported
 *   screened      the ladder reached in-screening or beyond (referrals.is_screened, kept once reached)
 *   screenFailed  screened, and the referral stands at screen-failed: a branch off the main line,
 *                 so randomized follows screened, not it (FUNNEL_BRANCH_STAGES)
 *   randomized    the ladder reached enrolled (referrals.is_randomized, kept once reached)
 *
 * Beside the stages, the leads kept (core's FUNNEL_LEAD_FIGURES): started submissions with a
 * lead that is not a duplicate of an earlier one, all kinds and each kind. A lead leaves the line
 * wherever the run stopped (a survey stopped mid-run is a notActive lead before completion), so
 * it asks only `started` of the stages.
 *
 * `viewed` counts views (views.ts), which are not submissions: a view is counted when the widget
 * is seen (half of it on screen, once per page load), before anyone answers. A submission is dated by when it was created; a view by its day.
 */
import { sql, type SQL } from 'drizzle-orm';
import {
  FUNNEL_BRANCH_STAGES,
  FUNNEL_LEAD_FIGURES,
  FUNNEL_LEAD_KIND_FIGURES,
  FUNNEL_STAGES,
  type FunnelLeadFigure,
  type FunnelStage,
} from '@core/model/funnel';
import { LEAD_KINDS } from '@core/model/lead';
import { deliveredJoin, isDeliveredJoined } from '../referrals';
import { startOfNextDay } from '@core/time';

/**
 * `started`, on the submission aliased `alias`: its participant saved a page's answers (the first
 * save sets started_at; the channel's submissionsStarted is counted by that same save,
 * participant/entries.ts). Every count of submissions narrows to these first.
 */
export const isStarted = (alias: string): SQL => sql`${sql.identifier(alias)}.started_at is not null`;

/**
 * Each submission stage's own fact, over the aliases of `submissionsFrom` (s: the submission,
 * ct: its contact, rf: its referral, dl: its delivery when delivered, ld: its lead). `viewed` is counted apart.
 */
const STAGE_FACTS: Record<Exclude<FunnelStage, 'viewed'>, SQL> = {
  started: isStarted('s'),
  completed: sql`(s.finished_at is not null or s.status = 'completed')`,
  qualified: sql`(s.is_qualified is true or s.status = 'completed')`,
  siteSelected: sql`s.outcome in ('trialSiteSelected', 'completed')`,
  // A duplicate (the same person referred to the same engagement within its window) is kept but never referred.
  contactLeft: sql`ct.id is not null and ct.duplicate_of is null`,
  delivered: isDeliveredJoined('dl', sql.raw('ct.id')),
  reached: sql`(rf.first_contact_at is not null or rf.is_screened or rf.is_randomized)`,
  screened: sql`rf.is_screened`,
  screenFailed: sql`rf.status = 'screen-failed'`,
  randomized: sql`rf.is_randomized`,
};

export const SUBMISSION_STAGES = FUNNEL_STAGES.filter((s): s is Exclude<FunnelStage, 'viewed'> => s !== 'viewed');

/** A lead kept: one per submission at most, and a duplicate of an earlier lead is kept but not counted again (as contactLeft). */
const leadKept = sql`ld.id is not null and ld.duplicate_of is null`;
const LEAD_FACTS: Record<FunnelLeadFigure, SQL> = {
  leadsKept: leadKept,
  ...(Object.fromEntries(LEAD_KINDS.map((kind) => [FUNNEL_LEAD_KIND_FIGURES[kind], sql`${leadKept} and ld.kind = ${kind}`])) as Record<
    Exclude<FunnelLeadFigure, 'leadsKept'>,
    SQL
  >),
};

/** What is counted of submissions: the stages but `viewed`, then the leads. */
export type SubmissionFigure = Exclude<FunnelStage, 'viewed'> | FunnelLeadFigure;
export const SUBMISSION_FIGURES: readonly SubmissionFigure[] = [...SUBMISSION_STAGES, ...FUNNEL_LEAD_FIGURES];
const isLeadFigure = (figure: SubmissionFigure): figure is FunnelLeadFigure => (FUNNEL_LEAD_FIGURES as readonly string[]).includes(figure);

/** A stage reached: its fact and every earlier one's on the main line (a branch stage's only for itself). */
export function reachedCondition(stage: Exclude<FunnelStage, 'viewed'>): SQL {
  const upTo = SUBMISSION_STAGES.slice(0, SUBMISSION_STAGES.indexOf(stage) + 1).filter((s) => s === stage || !FUNNEL_BRANCH_STAGES.includes(s));
  return sql.join(
    upTo.map((s) => sql`(${STAGE_FACTS[s]})`),
    sql` and `,
  );
}

/** A figure reached: a stage's condition (reachedCondition), or a lead's fact on a started submission. */
export const figureCondition = (figure: SubmissionFigure): SQL =>
  isLeadFigure(figure) ? sql`(${isStarted('s')}) and (${LEAD_FACTS[figure]})` : reachedCondition(figure);

/** The calendar day after `day` (YYYY-MM-DD). */
export const nextDay = (day: string) => startOfNextDay(day).toISOString().slice(0, 10);

/**
 * The submissions with what their stages read: s, its survey version f, engagement e, channel mc,
 * contact ct, its site esl, referral rf and delivery dl (when delivered), lead ld. `submissions` narrows s to a subquery of
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
    ${deliveredJoin('dl', sql.raw('ct.id'))}
    left join leads ld on ld.submission_id = s.id`;

/** Each submission figure's count over `submissionsFrom`, as columns named for the figures. */
export const stageCountColumns = (): SQL =>
  sql.join(
    SUBMISSION_FIGURES.map((figure) => sql`count(*) filter (where ${figureCondition(figure)}) as ${sql.identifier(figure)}`),
    sql`, `,
  );

/** funnel_day_counts' column of each submission figure. */
export const ROLLUP_COLUMNS: Record<SubmissionFigure, string> = {
  started: 'started',
  completed: 'completed',
  qualified: 'qualified',
  siteSelected: 'site_selected',
  contactLeft: 'contact_left',
  delivered: 'delivered',
  reached: 'reached',
  screened: 'screened',
  screenFailed: 'screen_failed',
  randomized: 'randomized',
  leadsKept: 'leads_kept',
  leadsNotQualified: 'leads_not_qualified',
  leadsNoTrialSites: 'leads_no_trial_sites',
  leadsNotActive: 'leads_not_active',
};
