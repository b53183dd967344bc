/**
 * The recruitment funnel's vocabulary, shared by the server (server/funnel/) and the admin's
 * Recruitment screen: the stages in order with one sentence each, the groupings and the filters
 * of GET /api/recruitment-funnel, and the shape of one row.
 */
import * as v from 'valibot';
import type { LeadKind } from './lead';

export const FUNNEL_ROW_TYPE = 'funnel-rows';

export const FUNNEL_STAGES = [
  'viewed',
  'started',
  'completed',
  'qualified',
  'siteSelected',
  'contactLeft',
  'delivered',
  'reached',
  'screened',
  'screenFailed',
  'randomized',
] as const;
export type FunnelStage = (typeof FUNNEL_STAGES)[number];

/**
 * The stages off the main line: a screen failure branches from screened, so the stage after it
 * (randomized) follows screened, not screenFailed.
 */
export const FUNNEL_BRANCH_STAGES: readonly FunnelStage[] = ['screenFailed'];

/** The stage a stage is a share of: the one before it on the main line (null for the first). */
export function previousStage(stage: FunnelStage): FunnelStage | null {
  const i = FUNNEL_STAGES.indexOf(stage);
  for (let j = i - 1; j >= 0; j--) if (!FUNNEL_BRANCH_STAGES.includes(FUNNEL_STAGES[j]!)) return FUNNEL_STAGES[j]!;
  return null;
}

/**
 * Leads kept (core/model/lead.ts), counted beside the stages rather than as one: a lead is the
 * contact of a run that left the line to randomization (not qualified, no site within reach,
 * the survey stopped), so it is no share of the stage before it. `leadsKept` is the sum of the
 * three kinds, which the breakdown shows apart.
 */
export const FUNNEL_LEAD_FIGURES = ['leadsKept', 'leadsNotQualified', 'leadsNoTrialSites', 'leadsNotActive'] as const;
export type FunnelLeadFigure = (typeof FUNNEL_LEAD_FIGURES)[number];

/** The figure of each kind of lead. */
export const FUNNEL_LEAD_KIND_FIGURES: Record<LeadKind, Exclude<FunnelLeadFigure, 'leadsKept'>> = {
  notQualified: 'leadsNotQualified',
  noTrialSites: 'leadsNoTrialSites',
  notActive: 'leadsNotActive',
};

/** Every figure of a funnel row: the stages in order, then the leads. */
export const FUNNEL_FIGURES = [...FUNNEL_STAGES, ...FUNNEL_LEAD_FIGURES] as const;
export type FunnelFigure = (typeof FUNNEL_FIGURES)[number];

/** What each figure counts; a submission counts in a stage only once it reached every stage before it (except views, counted apart). */
export const FUNNEL_DEFINITIONS: Record<FunnelFigure, string> = {
  viewed: 'Times the widget was seen by a visitor (at least half of it on screen, once per page load), counted on the day it was seen.',
  started: 'Submissions whose participant answered at least one page.',
  completed: "Started submissions whose answers reached the survey's end (qualified or not).",
  qualified: 'Completed submissions that qualified for at least one engagement.',
  siteSelected: 'Qualified submissions whose participant chose a trial site and went on to the contact form.',
  contactLeft: 'Submissions whose participant left a contact, not counting duplicates of an earlier contact.',
  delivered: 'Submissions with a contact left whose record system accepted the referral (at once for an engagement without one).',
  reached: 'Delivered referrals whose site reached the person: a reached contact attempt, or a status of contacted or beyond.',
  screened: 'Reached referrals that went into screening (in screening or beyond), by staff or the record system.',
  screenFailed: 'Screened referrals that failed screening (status screen failed).',
  randomized: 'Screened referrals enrolled on the study (counted as randomized).',
  leadsKept:
    'Started submissions whose participant left a lead (contact details kept for future studies at not qualified, no site within reach or survey not running), not counting duplicates of an earlier lead; never a referral, and gone from the count once erased or past its retention.',
  leadsNotQualified: 'Leads kept of participants who did not qualify.',
  leadsNoTrialSites: 'Leads kept of qualified participants with no study site within reach of their ZIP code.',
  leadsNotActive: 'Leads kept of participants whose survey or media channel had stopped running.',
};

/** The answer's meta.definitions: the server's sentence for each figure it names. */
export const FunnelDefinitions = v.record(v.picklist(FUNNEL_FIGURES), v.string());

export const FUNNEL_STAGE_LABELS: Record<FunnelStage, string> = {
  viewed: 'Viewed',
  started: 'Started',
  completed: 'Completed',
  qualified: 'Qualified',
  siteSelected: 'Site selected',
  contactLeft: 'Contact left',
  delivered: 'Delivered',
  reached: 'Reached',
  screened: 'Screened',
  screenFailed: 'Screen failed',
  randomized: 'Randomized',
};

export const FUNNEL_LEAD_FIGURE_LABELS: Record<FunnelLeadFigure, string> = {
  leadsKept: 'Leads kept',
  leadsNotQualified: 'Leads: not qualified',
  leadsNoTrialSites: 'Leads: no site near',
  leadsNotActive: 'Leads: not running',
};

export const FUNNEL_FIGURE_LABELS: Record<FunnelFigure, string> = { ...FUNNEL_STAGE_LABELS, ...FUNNEL_LEAD_FIGURE_LABELS };

export const FUNNEL_GROUPINGS = ['none', 'mediaChannel', 'source', 'campaign', 'site', 'engagement', 'language', 'day', 'week', 'hiddenField'] as const;
export type FunnelGrouping = (typeof FUNNEL_GROUPINGS)[number];

/**
 * Groupings a view cannot be counted under: a view happens before any site is chosen, and the
 * widget reports no hidden field with it. Their rows' viewed figures are "not tracked" (every view
 * is in the row without a key), never a 0 that reads as a partner with no traffic.
 */
export const VIEWS_NOT_TRACKED_BY: readonly FunnelGrouping[] = ['site', 'hiddenField'];
export const viewsTrackedBy = (groupBy: FunnelGrouping): boolean => !VIEWS_NOT_TRACKED_BY.includes(groupBy);
export const VIEWS_NOT_TRACKED = 'not tracked';

/**
 * A grouping as asked: `hiddenField` also names the field (a media channel's declared hidden
 * field, core/model/mediaChannel.ts), sent as its own query parameter `hiddenField`.
 */
export type FunnelGroupBy = { groupBy: Exclude<FunnelGrouping, 'hiddenField'> } | { groupBy: 'hiddenField'; hiddenField: string };

export const FUNNEL_GROUPING_LABELS: Record<FunnelGrouping, string> = {
  none: 'No grouping',
  mediaChannel: 'Media channel',
  source: 'Source (utm_source)',
  campaign: 'Campaign (utm_campaign)',
  site: 'Site',
  engagement: 'Engagement',
  language: 'Language',
  day: 'Day',
  week: 'Week',
  hiddenField: 'Hidden field',
};

export const FUNNEL_FILTERS = ['sponsorId', 'engagementId', 'screenerId', 'mediaChannelId', 'oFormIdentity', 'siteLocationId', 'from', 'to'] as const;
export type FunnelFilter = (typeof FUNNEL_FILTERS)[number];

export type FunnelCounts = Record<FunnelFigure, number>;

/** Every figure at 0: a scope with nothing counted. */
export const zeroFunnelCounts = (): FunnelCounts => Object.fromEntries(FUNNEL_FIGURES.map((f) => [f, 0])) as FunnelCounts;

export interface FunnelRowAttributes extends Omit<FunnelCounts, 'viewed'> {
  /** Null in a keyed row of a grouping views cannot be counted under (VIEWS_NOT_TRACKED_BY): not tracked, never a 0. */
  viewed: number | null;
  /** The group's key (an id, a code, a date such as 2026-11-23), or null for no grouping or rows without one. */
  group: string | null;
  label: string;
}

/**
 * A row's figures as counts, for the total and the trend (rows whose views are counted): a keyed
 * row of a grouping in VIEWS_NOT_TRACKED_BY has no views to chart or to cost.
 */
export const rowCounts = (row: FunnelRowAttributes): FunnelCounts => ({ ...row, viewed: row.viewed ?? 0 });

/** The share of the previous stage (previousStage) that reached `stage`, 0..1 (null before the first stage or when the previous is 0). */
export function conversion(counts: FunnelCounts, stage: FunnelStage): number | null {
  const before = previousStage(stage);
  if (before === null) return null;
  const previous = counts[before];
  return previous > 0 ? counts[stage] / previous : null;
}
