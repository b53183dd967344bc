/**
 * Versioned surveys (server/surveys/): one row per version of a survey identity, with pages (root
 * containers), child containers and questions (fields) whose rules live in core/model/survey.ts and
 * core/survey/authoring.ts.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, jsonb, integer, pgTable, serial, text, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { belongsTo, created, displayOrder, instant, isActive, modified, refersTo } from './columns';
import { linkTable } from './linkTable';
import { engagements } from './engagements';
import { languages } from './languages';
import { questionCategories, tags } from './lookups';
import { sponsors } from './sponsors';
import { users } from './users';

/** A row's identity: it stays the same across versions of the survey, where its id does not. */
const versionIdentity = () => text('identity').notNull();

/**
 * A survey named by its identity, so by whichever of its versions applies (the approved one):
 * no foreign key, as every version of the survey shares the identity.
 */
export const surveyIdentity = () => text('o_form_identity').notNull();

export const oForms = pgTable(
  'o_forms',
  {
    id: serial('id').primaryKey(),
    /** Each version is a row of its own. */
    identity: versionIdentity(),
    version: integer('version').notNull().default(1),
    title: text('title').notNull(),
    isActive: isActive(),
    /** The approved version of its identity (at most one at a time). */
    isApproved: boolean('is_approved').notNull().default(false),
    /** Set once, on approval: from then on the version never changes. */
    approvedAt: instant('approved_at'),
    approvedBy: refersTo('approved_by', () => users.id),
    engagementId: belongsTo('engagement_id', () => engagements.id),
    sponsorId: refersTo('sponsor_id', () => sponsors.id),
    /** The number of pages (root containers): the progress bar's maximum. */
    containerCount: integer('container_count').notNull().default(0),
    created: created(),
    modified: modified(),
  },
  (t) => [
    uniqueIndex('o_forms_identity_version_idx').on(t.identity, t.version),
    uniqueIndex('o_forms_one_approved_idx').on(t.identity).where(sql`${t.isApproved}`),
    index('o_forms_engagement_idx').on(t.engagementId),
  ],
);

export const oFormLanguages = linkTable('o_form_languages', ['oFormId', 'o_form_id', () => oForms.id], ['languageId', 'language_id', () => languages.id]);

export const oFormContainers = pgTable(
  'o_form_containers',
  {
    id: serial('id').primaryKey(),
    identity: versionIdentity(),
    oFormId: belongsTo('o_form_id', () => oForms.id),
    title: text('title').notNull(),
    displayOrder: displayOrder(),
    isActive: isActive(),
    /** 'root_container' for pages, 'child_container' for containers within one. */
    containerType: text('container_type').notNull().default('root_container'),
    parentId: integer('parent_id').references((): AnyPgColumn => oFormContainers.id, { onDelete: 'cascade' }),
    /** Per API iso code: { title }, as a question's configuration.translations. */
    translations: jsonb('translations').$type<Record<string, { title?: string }>>().notNull().default({}),
  },
  (t) => [
    uniqueIndex('o_form_containers_identity_idx').on(t.oFormId, t.identity),
    index('o_form_containers_form_idx').on(t.oFormId, t.displayOrder),
    index('o_form_containers_parent_idx').on(t.parentId),
    check('o_form_containers_type_check', sql`${t.containerType} in ('root_container', 'child_container')`),
  ],
);

export const oFormFields = pgTable(
  'o_form_fields',
  {
    id: serial('id').primaryKey(),
    identity: versionIdentity(),
    containerId: belongsTo('container_id', () => oFormContainers.id),
    title: text('title').notNull().default('Placeholder'),
    type: text('type').notNull().default('placeholder'),
    categoryId: refersTo('category_id', () => questionCategories.id),
    isActive: isActive(),
    displayOrder: displayOrder(),
    /** Validated with core/model/survey.ts fieldConfiguration(type) on every write. */
    configuration: jsonb('configuration').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index('o_form_fields_container_idx').on(t.containerId, t.displayOrder), index('o_form_fields_identity_idx').on(t.identity)],
);

export const oFormFieldTags = linkTable('o_form_field_tags', ['fieldId', 'field_id', () => oFormFields.id], ['tagId', 'tag_id', () => tags.id]);

/** Per version, the participant-facing message of each type (SPEC section 3), per language. */
export const oFormMessages = pgTable(
  'o_form_messages',
  {
    id: serial('id').primaryKey(),
    oFormIdentity: surveyIdentity(),
    oFormVersionId: belongsTo('o_form_version_id', () => oForms.id),
    messageType: text('message_type').notNull(),
    /** API iso code (en, es_MX). */
    language: text('language').notNull().default('en'),
    message: text('message').notNull().default(''),
    created: created(),
    modified: modified(),
  },
  (t) => [
    uniqueIndex('o_form_messages_version_type_language_idx').on(t.oFormVersionId, t.messageType, t.language),
    index('o_form_messages_identity_idx').on(t.oFormIdentity),
    check(
      'o_form_messages_type_check',
      sql`${t.messageType} in ('completed_contact_form', 'no_trial_sites_consent', 'no_trial_sites_contact_form', 'not_active_consent', 'not_active_contact_form', 'not_qualified_consent', 'not_qualified_contact_form', 'trial_site_selected_consent', 'trial_site_selected_contact_form')`,
    ),
  ],
);
