/**
 * The site performance view: per site location, how its referrals were worked over a date range
 * (the referrals made in it): how many, how fast the site first reached the person, how many
 * within the engagement's service level, and how screening and randomization went.
 */
import * as v from 'valibot';
import { count, resourceAnswer, type Answered } from './answers';

export const SITE_PERFORMANCE_TYPE = 'site-performance';

export const SITE_PERFORMANCE_SORTS = [
  'siteName',
  'referrals',
  'medianHoursToFirstContact',
  'withinServiceLevelRate',
  'screenFailRate',
  'randomizationRate',
] as const;
export type SitePerformanceSort = (typeof SITE_PERFORMANCE_SORTS)[number];

export const SITE_PERFORMANCE_FILTERS = ['engagementId', 'siteLocationId', 'from', 'to'] as const;
export type SitePerformanceFilter = (typeof SITE_PERFORMANCE_FILTERS)[number];

const rate = (what: string) => v.pipe(v.nullable(v.pipe(v.number(), v.minValue(0), v.maxValue(1))), v.description(what));

/** A site location's figures (id: the site location's); its attributes are what `fields` selects (the CSV's columns). */
export const SITE_PERFORMANCE = resourceAnswer(
  SITE_PERFORMANCE_TYPE,
  v.object({
    siteName: v.string(),
    referrals: v.pipe(count(), v.description('Referrals made in the range and sent to this site.')),
    reached: v.pipe(count(), v.description('Referrals the site reached (a reached attempt, or contacted or beyond).')),
    medianHoursToFirstContact: v.pipe(
      v.nullable(v.pipe(v.number(), v.minValue(0))),
      v.description('Median hours from the referral to the site first reaching the person (null: none reached).'),
    ),
    dueForFirstContact: v.pipe(count(), v.description('Referrals whose first-contact window has closed (or that were reached), the base of the next.')),
    withinServiceLevel: v.pipe(count(), v.description("Of those, reached within the engagement's first-contact hours.")),
    withinServiceLevelRate: rate('withinServiceLevel / dueForFirstContact, 0..1 (null when none is due yet).'),
    screened: v.pipe(count(), v.description('In screening or beyond.')),
    screenFailed: count(),
    screenFailRate: rate('screenFailed / screened (null when none was screened).'),
    randomized: v.pipe(count(), v.description('Enrolled (on study).')),
    randomizationRate: rate('randomized / referrals (null when there are none).'),
  }),
);
export type SitePerformance = Answered<typeof SITE_PERFORMANCE>;
