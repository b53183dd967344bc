/**
 * Languages and the generic messages translated into them (server/languages/).
 */
import { sql } from 'drizzle-orm';
import { boolean, check, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { created, isActive, modified } from './columns';

export const languages = pgTable(
  'languages',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    // API form, with an underscore: es_MX.
    isoCode: text('iso_code').notNull(),
    isActive: isActive(),
    // The default language (English) cannot be deleted or deactivated.
    isDefault: boolean('is_default').notNull().default(false),
    created: created(),
    modified: modified(),
  },
  (t) => [uniqueIndex('languages_iso_code_idx').on(sql`lower(${t.isoCode})`)],
);

/** Messages keyed by name, with translations as a map of API iso code to text. */
export const genericMessages = pgTable(
  'generic_messages',
  {
    id: serial('id').primaryKey(),
    keyName: text('key_name').notNull().unique(),
    message: text('message').notNull(),
    translations: jsonb('translations').$type<Record<string, string>>().notNull().default({}),
    messageType: text('message_type').notNull().default('default'),
    created: created(),
    modified: modified(),
  },
  (t) => [check('generic_messages_type_check', sql`${t.messageType} in ('default', 'global')`)],
);
