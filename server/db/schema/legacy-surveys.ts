/**
 * Legacy surveys (/surveys, server/legacy-surveys/): pages, questions and options, with soft
 * deletes.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, jsonb, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { belongsTo, created, displayOrder, isActive, modified, refersTo } from './columns';
import { linkTable } from './linkTable';
import { engagements } from './engagements';
import { questionCategories, tags } from './lookups';
import { screeners } from './screeners';

export const surveys = pgTable(
  'surveys',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    globalId: text('global_id').notNull().unique(),
    isActive: isActive(),
    engagementId: integer('engagement_id').references(() => engagements.id, { onDelete: 'cascade' }),
    screenerId: refersTo('screener_id', () => screeners.id),
    /** Raised by adding a page and lowered by deleting one (SPEC section 4); names 'New Page N'. */
    pageCounter: integer('page_counter').notNull().default(0),
    created: created(),
    modified: modified(),
  },
  (t) => [index('surveys_engagement_idx').on(t.engagementId), index('surveys_screener_idx').on(t.screenerId)],
);

export const surveyPages = pgTable(
  'survey_pages',
  {
    id: serial('id').primaryKey(),
    surveyId: belongsTo('survey_id', () => surveys.id),
    title: text('title').notNull(),
    displayOrder: displayOrder(),
    isActive: isActive(),
    isDeleted: boolean('is_deleted').notNull().default(false),
  },
  (t) => [index('survey_pages_survey_idx').on(t.surveyId, t.displayOrder)],
);

export const surveyQuestions = pgTable(
  'survey_questions',
  {
    id: serial('id').primaryKey(),
    pageId: belongsTo('page_id', () => surveyPages.id),
    questionType: text('type').notNull().default('placeholder'),
    title: text('title').notNull().default('Placeholder'),
    helperText: text('helper_text'),
    questionCategoryId: refersTo('question_category_id', () => questionCategories.id),
    translations: jsonb('translations').$type<Record<string, { title?: string; helperText?: string }>>().notNull().default({}),
    displayOrder: displayOrder(),
    deleted: boolean('deleted').notNull().default(false),
  },
  (t) => [index('survey_questions_page_idx').on(t.pageId, t.displayOrder)],
);

export const surveyQuestionTags = linkTable(
  'survey_question_tags',
  ['questionId', 'question_id', () => surveyQuestions.id],
  ['tagId', 'tag_id', () => tags.id],
);

export const surveyOptions = pgTable(
  'survey_options',
  {
    id: serial('id').primaryKey(),
    questionId: belongsTo('question_id', () => surveyQuestions.id),
    label: text('label').notNull(),
    value: text('value').notNull(),
    isDisqualified: boolean('is_disqualified').notNull().default(false),
    /** 'end' or 'page' (then transitionTarget is the page id), or null for the next page. */
    transitionTo: text('transition_to'),
    transitionTarget: refersTo('transition_target', () => surveyPages.id),
    translations: jsonb('translations').$type<Record<string, string>>().notNull().default({}),
    displayOrder: displayOrder(),
    deleted: boolean('deleted').notNull().default(false),
  },
  (t) => [
    index('survey_options_question_idx').on(t.questionId, t.displayOrder),
    check('survey_options_transition_check', sql`${t.transitionTo} is null or ${t.transitionTo} in ('end', 'page')`),
  ],
);

/** An option's disqualification and weight for one engagement. */
export const engagementOptions = pgTable(
  'engagement_options',
  {
    id: serial('id').primaryKey(),
    engagementId: belongsTo('engagement_id', () => engagements.id),
    optionId: belongsTo('option_id', () => surveyOptions.id),
    isDisqualified: boolean('is_disqualified').notNull().default(false),
    weight: integer('weight').notNull().default(0),
  },
  (t) => [uniqueIndex('engagement_options_pair_idx').on(t.engagementId, t.optionId)],
);
