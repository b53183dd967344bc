/**
 * Small key-value facts about this installation, read by the seed and the demo data.
 */
import { pgTable, text } from 'drizzle-orm/pg-core';

/** Small key-value facts about this installation (e.g. that demo data was seeded once). */
export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});
