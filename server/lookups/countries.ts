/** The countries lookup: a page of it, searched by name or ISO code, and one country. */
import { and, eq } from 'drizzle-orm';
import type { COUNTRY_SORTS } from '@core/model/country';
import type { Db } from '../db/open';
import { countries } from '../db/schema';
import { tablePage } from '../http/list';
import { searchParam, textParam } from '../http/params';
import type { ListQuery } from '../http/query';
import { ilikeAny } from '../http/sql';

export type CountryRow = typeof countries.$inferSelect;

/** The list's filters: the search, and one ISO code. */
export const COUNTRY_FILTERS = { searchQuery: searchParam, isoCode: textParam('An ISO 3166-1 alpha-2 code (FR), matched whole, ignoring case.') };

export function countryPage(db: Db, q: ListQuery<(typeof COUNTRY_SORTS)[number], typeof COUNTRY_FILTERS>) {
  const where = and(
    ilikeAny([countries.name, countries.isoCode], q.filters.searchQuery),
    q.filters.isoCode ? eq(countries.isoCode, q.filters.isoCode.toUpperCase()) : undefined,
  );
  const sorts = { name: countries.name, isoCode: countries.isoCode };
  return tablePage(db, countries, q, { where, sorts, id: countries.id });
}

export async function findCountry(db: Db, id: number): Promise<CountryRow | undefined> {
  const [row] = await db.select().from(countries).where(eq(countries.id, id));
  return row;
}
