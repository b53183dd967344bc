/**
 * Sponsors (server/sponsors/).
 */
import { index, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { created, isActive, modified, natural, refersTo } from './columns';
import { countries } from './lookups';

export const sponsors = pgTable(
  'sponsors',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    identification: text('identification').notNull(),
    rmsSponsorIdentifier: text('rms_sponsor_identifier'),
    description: text('description'),
    isActive: isActive(),
    businessPractice: text('business_practice'),
    countryId: refersTo('country_id', () => countries.id),
    created: created(),
    modified: modified(),
  },
  (t) => [
    uniqueIndex('sponsors_identification_idx').on(t.identification),
    // In the list's own order (active first, then by name, id as the tiebreak): a page deep in
    // the list is an index range, not a sort of every row (bench/README.md, admin lists).
    index('sponsors_active_name_idx').on(t.isActive.desc().nullsFirst(), natural(t.name), t.id),
    index('sponsors_name_idx').on(natural(t.name)),
  ],
);
