/**
 * Media channels, where a screener is embedded, with their spends, figures and embed problems
 * (server/channels/).
 */
import { sql } from 'drizzle-orm';
import { bigint, check, date, index, jsonb, integer, pgTable, primaryKey, serial, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { EventsPolicy } from '@core/model/eventsPolicy';
import type { ChannelIsolation, HiddenField } from '@core/model/mediaChannel';
import { belongsTo, created, dependsOn, instant, isActive, modified, natural } from './columns';
import { screeners } from './screeners';
import { surveyIdentity } from './surveys';

export const mediaChannels = pgTable(
  'media_channels',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    domain: text('domain').notNull(),
    screenerId: dependsOn('screener_id', () => screeners.id),
    channelType: text('type').notNull(),
    isActive: isActive(),
    /**
     * Days after a run's outcome during which the same browser sees that outcome again rather
     * than a fresh survey, and a run from the same client address is flagged possible_retake;
     * 0 allows retakes (testing channels).
     */
    retakeWindowDays: integer('retake_window_days').notNull().default(30),
    /** The values a partner's page may pass with a run (core/model/mediaChannel.ts HiddenField). */
    hiddenFields: jsonb('hidden_fields').$type<HiddenField[]>().notNull().default([]),
    /** What the widget announces to its host page (core/model/eventsPolicy.ts): none, minimal or detailed. */
    eventsPolicy: text('events_policy').$type<EventsPolicy>().notNull().default('minimal'),
    /** Its participants' language and region (core/model/channelLocale.ts): distances in miles or kilometres by the region. */
    locale: text('locale').notNull().default('en-US'),
    /** How the snippet shows the widget (core/model/mediaChannel.ts CHANNEL_ISOLATIONS): none (in the page) or frame (an iframe of this origin). */
    isolation: text('isolation').$type<ChannelIsolation>().notNull().default('none'),
    created: created(),
    modified: modified(),
  },
  (t) => [
    index('media_channels_title_idx').on(natural(t.title), t.id),
    check('media_channels_events_policy_check', sql`${t.eventsPolicy} in ('none', 'minimal', 'detailed')`),
    check('media_channels_isolation_check', sql`${t.isolation} in ('none', 'frame')`),
    index('media_channels_screener_idx').on(t.screenerId),
    check('media_channels_type_check', sql`${t.channelType} in ('Spectrum Website', 'Partner Website', 'Social Media', 'Other')`),
    check('media_channels_retake_window_check', sql`${t.retakeWindowDays} between 0 and 3650`),
  ],
);

/**
 * What a media channel cost over a period of whole days (core/model/channelSpend.ts), optionally
 * for one utm_campaign; the funnel prorates it over the days a range overlaps (funnel/costs.ts).
 */
export const channelSpends = pgTable(
  'channel_spends',
  {
    id: serial('id').primaryKey(),
    mediaChannelId: belongsTo('media_channel_id', () => mediaChannels.id),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    periodStart: date('period_start', { mode: 'string' }).notNull(),
    periodEnd: date('period_end', { mode: 'string' }).notNull(),
    campaign: text('campaign'),
    created: created(),
    modified: modified(),
  },
  (t) => [
    index('channel_spends_channel_idx').on(t.mediaChannelId, t.periodStart),
    check('channel_spends_period_check', sql`${t.periodStart} <= ${t.periodEnd}`),
    check('channel_spends_amount_check', sql`${t.amountMinor} >= 0`),
    check('channel_spends_currency_check', sql`${t.currency} ~ '^[A-Z]{3}$'`),
  ],
);

/**
 * A channel's figures (views, shares, submissions started, completed, qualified), counted in
 * several rows per channel: every participant's start adds to them, and one row per channel
 * would make every start wait for the previous one's commit. A count goes to one shard picked at
 * random; a channel's figure is the sum of its shards (server/participant/channelFigures.ts).
 */
export const mediaChannelFigures = pgTable(
  'media_channel_figures',
  {
    mediaChannelId: belongsTo('media_channel_id', () => mediaChannels.id),
    shard: smallint('shard').notNull(),
    views: integer('views').notNull().default(0),
    share: integer('share').notNull().default(0),
    submissionsStarted: integer('submissions_started').notNull().default(0),
    submissionsCompleted: integer('submissions_completed').notNull().default(0),
    submissionsQualified: integer('submissions_qualified').notNull().default(0),
    possibleRetakes: integer('possible_retakes').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.mediaChannelId, t.shard] })],
);

/**
 * Embed problems seen on partner pages (core/model/embedProblem.ts): one row per channel,
 * page origin and cause, counted and dated as they recur; at most EMBED_PROBLEMS_KEPT per channel
 * (the most recently seen). The origin is scheme, host and port only: no page address, query or
 * anything about the participant.
 */
export const embedProblems = pgTable(
  'embed_problems',
  {
    mediaChannelId: belongsTo('media_channel_id', () => mediaChannels.id),
    origin: text('origin').notNull(),
    cause: text('cause').notNull(),
    firstSeen: instant('first_seen').notNull(),
    lastSeen: instant('last_seen').notNull(),
    count: integer('count').notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.mediaChannelId, t.origin, t.cause] }), index('embed_problems_last_seen_idx').on(t.mediaChannelId, t.lastSeen)],
);

/** The survey identities a media channel serves (SPEC section 3: link id and isActive). */
export const mediaChannelSurveys = pgTable(
  'media_channel_surveys',
  {
    id: serial('id').primaryKey(),
    mediaChannelId: belongsTo('media_channel_id', () => mediaChannels.id),
    oFormIdentity: surveyIdentity(),
    isActive: isActive(),
  },
  (t) => [uniqueIndex('media_channel_surveys_pair_idx').on(t.mediaChannelId, t.oFormIdentity), index('media_channel_surveys_identity_idx').on(t.oFormIdentity)],
);
