/**
 * The funnel's counts (server/funnel/): views, per-day sums and what is left to recount.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';
import { belongsTo } from './columns';
import { oForms } from './surveys';

/**
 * The funnel's `viewed` stage: views counted per day and per what the funnel filters and groups
 * by (server/participant/views.ts), so no view is a row of its own. `dimensions` is the key of those
 * columns together; like the channel figures, a count goes to one of several shards so that
 * concurrent views of one survey rarely wait for each other.
 */
export const funnelViews = pgTable(
  'funnel_views',
  {
    dimensions: text('dimensions').notNull(),
    shard: smallint('shard').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    sponsorId: integer('sponsor_id'),
    engagementId: integer('engagement_id'),
    screenerId: integer('screener_id'),
    mediaChannelId: integer('media_channel_id'),
    oFormId: integer('o_form_id'),
    oFormIdentity: text('o_form_identity'),
    language: text('language').notNull(),
    utmSource: text('utm_source'),
    utmCampaign: text('utm_campaign'),
    views: integer('views').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.dimensions, t.shard] }),
    index('funnel_views_engagement_day_idx').on(t.engagementId, t.day),
    index('funnel_views_day_idx').on(t.day),
  ],
);

/**
 * The funnel's submission stages summed per day (UTC, of the submission's creation), survey
 * version and media channel (server/funnel/rollup.ts), so the funnel of a whole installation is
 * a sum over days rather than a scan of every submission. Kept by recomputing the buckets
 * `funnel_dirty` names, with the same stage definitions (server/funnel/stages.ts).
 */
export const funnelDayCounts = pgTable(
  'funnel_day_counts',
  {
    day: date('day', { mode: 'string' }).notNull(),
    oFormId: belongsTo('o_form_id', () => oForms.id),
    mediaChannelId: integer('media_channel_id'),
    started: integer('started').notNull().default(0),
    completed: integer('completed').notNull().default(0),
    qualified: integer('qualified').notNull().default(0),
    siteSelected: integer('site_selected').notNull().default(0),
    contactLeft: integer('contact_left').notNull().default(0),
    delivered: integer('delivered').notNull().default(0),
    reached: integer('reached').notNull().default(0),
    screened: integer('screened').notNull().default(0),
    screenFailed: integer('screen_failed').notNull().default(0),
    randomized: integer('randomized').notNull().default(0),
    leadsKept: integer('leads_kept').notNull().default(0),
    leadsNotQualified: integer('leads_not_qualified').notNull().default(0),
    leadsNoTrialSites: integer('leads_no_trial_sites').notNull().default(0),
    leadsNotActive: integer('leads_not_active').notNull().default(0),
  },
  (t) => [index('funnel_day_counts_form_day_idx').on(t.oFormId, t.day), index('funnel_day_counts_day_idx').on(t.day)],
);

/**
 * The (day, survey version) buckets of funnel_day_counts that a change may have made stale:
 * database triggers on submissions, contacts, deliveries, referrals and leads add them as the change is
 * written (migration 0020), and the next funnel read recomputes them.
 */
export const funnelDirty = pgTable(
  'funnel_dirty',
  {
    day: date('day', { mode: 'string' }).notNull(),
    oFormId: integer('o_form_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.oFormId] })],
);

/**
 * The days of funnel_day_counts not counted yet, first_day to last_day inclusive: set when the
 * rollup came to an installation that already had submissions (migration 0022), and narrowed
 * from the latest day back by the job every server process runs at start
 * (server/funnel/recount.ts). Reads count these days from the submissions until then. At most
 * one row; none once every day is counted.
 */
export const funnelRecount = pgTable(
  'funnel_recount',
  {
    only: boolean('only').primaryKey().default(true),
    firstDay: date('first_day', { mode: 'string' }).notNull(),
    lastDay: date('last_day', { mode: 'string' }).notNull(),
  },
  (t) => [check('funnel_recount_one_row', sql`${t.only}`)],
);
