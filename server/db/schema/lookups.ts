/**
 * The lookups (SPEC sections 3 and 7), seeded by migration so a new install is usable: countries,
 * campaign types, question categories, target groups, therapeutic areas, tags and indications.
 */
import { pgTable, serial, text } from 'drizzle-orm/pg-core';
import { isActive } from './columns';

export const countries = pgTable('countries', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  isoCode: text('iso_code').notNull().unique(),
});

const lookup = (name: string) =>
  pgTable(name, {
    id: serial('id').primaryKey(),
    name: text('name').notNull().unique(),
  });
/** What an engagement links to (engagements.ts): any lookup table. */
export type LookupTable = ReturnType<typeof lookup>;

export const campaignTypes = lookup('campaign_types');

export const questionCategories = lookup('question_categories');

export const targetGroups = lookup('target_groups');

export const therapeuticAreas = lookup('therapeutic_areas');

export const tags = lookup('tags');

export const indications = pgTable('indications', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  isActive: isActive(),
});
