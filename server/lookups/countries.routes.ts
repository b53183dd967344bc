import { Hono } from 'hono';
import { and, eq } from 'drizzle-orm';
import { COUNTRY_SORTS, COUNTRY_TYPE } from '@core/model/country';
import type { AppEnv, Deps } from '../context';
import { countries } from '../db/schema';
import { authenticate } from '../auth/guards';
import { notFound } from '../http/errors';
import { parseId, parseListQuery, type ListSpec } from '../http/query';
import { tablePage } from '../http/list';
import { sendList, sendResource, toResource } from '../http/serialize';
import { ilikeAny } from '../http/sql';
import { describe } from '../openapi/describe';

const listSpec: ListSpec<(typeof COUNTRY_SORTS)[number], 'searchQuery' | 'isoCode'> = {
  type: COUNTRY_TYPE,
  sorts: COUNTRY_SORTS,
  defaultSort: 'name',
  // A lookup for pickers: the whole list fits in one page.
  defaultLimit: 1000,
  filters: ['searchQuery', 'isoCode'],
  fields: ['name', 'isoCode'],
};

const serialize = (row: typeof countries.$inferSelect, fields: Set<string> | null = null) =>
  toResource(COUNTRY_TYPE, row.id, { name: row.name, isoCode: row.isoCode }, { fields });

export function countriesRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  app.get('/', describe({ summary: 'List countries', list: listSpec, answer: { list: listSpec.type } }), async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, listSpec);
    const where = and(
      q.filters.searchQuery?.trim() ? ilikeAny([countries.name, countries.isoCode], q.filters.searchQuery) : undefined,
      q.filters.isoCode ? eq(countries.isoCode, q.filters.isoCode.toUpperCase()) : undefined,
    );
    const sorts = { name: countries.name, isoCode: countries.isoCode };
    const { rows, total } = await tablePage(db, countries, q, { where, sorts, id: countries.id });
    return sendList(c, rows.map((r) => serialize(r, q.fields)), { total, page: q.page, limit: q.limit });
  });

  app.get('/:id', describe({ summary: 'Read a country' }), async (c) => {
    const id = parseId(c.req.param('id'));
    const [row] = id === null ? [] : await db.select().from(countries).where(eq(countries.id, id));
    if (!row) throw notFound('country');
    return sendResource(c, serialize(row));
  });

  return app;
}
