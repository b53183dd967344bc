/**
 * The contact form's fields (server/contact-fields/).
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { created, modified, natural } from './columns';

export const contactFields = pgTable(
  'contact_fields',
  {
    id: serial('id').primaryKey(),
    label: text('label').notNull(),
    // A stable machine name (first_name), unique.
    name: text('name').notNull().unique(),
    required: boolean('required').notNull().default(false),
    fieldType: text('type').notNull().default('text'),
    translations: jsonb('translations').$type<Record<string, string>>().notNull().default({}),
    created: created(),
    modified: modified(),
  },
  (t) => [
    index('contact_fields_label_idx').on(natural(t.label)),
    check('contact_fields_type_check', sql`${t.fieldType} in ('text', 'email', 'phone', 'zip', 'date', 'checkbox')`),
  ],
);
