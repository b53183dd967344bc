/**
 * Screeners, their styles, messages, languages, contact fields and engagements (server/screeners/).
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, jsonb, integer, pgTable, serial, text, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { belongsTo, created, dependsOn, displayOrder, isActive, modified, natural, refersTo } from './columns';
import { linkTable } from './linkTable';
import { contactFields } from './contact-fields';
import { engagements } from './engagements';
import { languages } from './languages';
import { sponsors } from './sponsors';
import { surveyIdentity } from './surveys';
import { users } from './users';

export const screeners = pgTable(
  'screeners',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    description: text('description'),
    sponsorId: dependsOn('sponsor_id', () => sponsors.id),
    userId: refersTo('user_id', () => users.id),
    screenerType: text('type').notNull().default('super-screener'),
    isActive: isActive(),
    isLocked: boolean('is_locked').notNull().default(false),
    isTest: boolean('is_test').notNull().default(false),
    isInterestVisible: boolean('is_interest_visible').notNull().default(false),
    /** Per API iso code: { title, description }. */
    translations: jsonb('translations').$type<Record<string, { title?: string; description?: string }>>().notNull().default({}),
    /** Every colour of SPEC section 3, validated with core/model's screener styles schema. */
    styles: jsonb('styles').$type<Record<string, unknown>>().notNull().default({}),
    /** Set on a clone: the screener it was copied from. */
    clonedFromId: refersTo('cloned_from_id', (): AnyPgColumn => screeners.id),
    created: created(),
    modified: modified(),
  },
  (t) => [
    index('screeners_default_sort_idx').on(t.isActive.desc().nullsFirst(), natural(t.title), t.id),
    // The media channels list sorted by screener name walks screeners in this order.
    index('screeners_title_idx').on(natural(t.title), t.id),
    index('screeners_sponsor_idx').on(t.sponsorId),
  ],
);

/** The consent and contact-form message of each outcome, translatable. */
export const screenerMessages = pgTable(
  'screener_messages',
  {
    id: serial('id').primaryKey(),
    screenerId: belongsTo('screener_id', () => screeners.id),
    outcome: text('outcome').notNull(),
    consentMessage: text('consent_message'),
    contactFormMessage: text('contact_form_message'),
    /** Per API iso code: { consentMessage, contactFormMessage }. */
    translations: jsonb('translations').$type<Record<string, { consentMessage?: string; contactFormMessage?: string }>>().notNull().default({}),
  },
  (t) => [
    uniqueIndex('screener_messages_outcome_idx').on(t.screenerId, t.outcome),
    check(
      'screener_messages_outcome_check',
      sql`${t.outcome} in ('acceptance', 'notActive', 'notQualified', 'noTrialSites', 'qualified', 'trialSiteSelected', 'completed')`,
    ),
  ],
);

export const screenerLanguages = linkTable(
  'screener_languages',
  ['screenerId', 'screener_id', () => screeners.id],
  ['languageId', 'language_id', () => languages.id],
);

export const engagementScreeners = linkTable(
  'engagement_screeners',
  ['screenerId', 'screener_id', () => screeners.id],
  ['engagementId', 'engagement_id', () => engagements.id],
  'engagement_screeners_engagement_idx',
);

export const contactFieldScreeners = pgTable(
  'contact_field_screeners',
  {
    id: serial('id').primaryKey(),
    screenerId: belongsTo('screener_id', () => screeners.id),
    contactFieldId: belongsTo('contact_field_id', () => contactFields.id),
    weight: integer('weight').notNull().default(0),
  },
  (t) => [uniqueIndex('contact_field_screeners_pair_idx').on(t.screenerId, t.contactFieldId)],
);

/** A screener's surveys, by the stable identity of a versioned survey (oForm). */
export const screenerSurveys = pgTable(
  'screener_surveys',
  {
    id: serial('id').primaryKey(),
    screenerId: belongsTo('screener_id', () => screeners.id),
    oFormIdentity: surveyIdentity(),
    isActive: isActive(),
    displayOrder: displayOrder(),
    created: created(),
  },
  (t) => [uniqueIndex('screener_surveys_pair_idx').on(t.screenerId, t.oFormIdentity)],
);
