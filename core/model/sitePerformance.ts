/**
 * The site performance view: per site location, how its referrals were worked over a date range
 * (the referrals made in it): how many, how fast the site first reached the person, how many
 * within the engagement's service level, and how screening and randomization went.
 */
export const SITE_PERFORMANCE_TYPE = 'site-performance';

export const SITE_PERFORMANCE_SORTS = ['siteName', 'referrals', 'medianHoursToFirstContact', 'withinServiceLevelRate', 'screenFailRate', 'randomizationRate'] as const;
export type SitePerformanceSort = (typeof SITE_PERFORMANCE_SORTS)[number];

export const SITE_PERFORMANCE_FILTERS = ['engagementId', 'siteLocationId', 'from', 'to'] as const;
export type SitePerformanceFilter = (typeof SITE_PERFORMANCE_FILTERS)[number];

/** Its attributes, for `fields` (the CSV's columns). */
export const SITE_PERFORMANCE_FIELDS = [
  'siteName',
  'referrals',
  'reached',
  'medianHoursToFirstContact',
  'dueForFirstContact',
  'withinServiceLevel',
  'withinServiceLevelRate',
  'screened',
  'screenFailed',
  'screenFailRate',
  'randomized',
  'randomizationRate',
] as const;

export interface SitePerformance {
  /** The site location's id. */
  id: string;
  siteName: string;
  /** Referrals made in the range and sent to this site. */
  referrals: number;
  /** Referrals the site reached (a reached attempt, or contacted or beyond). */
  reached: number;
  /** Median hours from the referral to the site first reaching the person (null: none reached). */
  medianHoursToFirstContact: number | null;
  /** Referrals whose first-contact window has closed (or that were reached), the base of the next. */
  dueForFirstContact: number;
  /** Of those, reached within the engagement's first-contact hours. */
  withinServiceLevel: number;
  /** withinServiceLevel / dueForFirstContact, 0..1 (null when none is due yet). */
  withinServiceLevelRate: number | null;
  /** In screening or beyond. */
  screened: number;
  screenFailed: number;
  /** screenFailed / screened (null when none was screened). */
  screenFailRate: number | null;
  /** Enrolled (on study). */
  randomized: number;
  /** randomized / referrals (null when there are none). */
  randomizationRate: number | null;
}
