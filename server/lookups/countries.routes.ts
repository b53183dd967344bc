import { Hono } from 'hono';
import { COUNTRY, COUNTRY_SORTS, COUNTRY_TYPE, type Country } from '@core/model/country';
import type { AppEnv, Deps } from '../context';
import { COUNTRY_FILTERS, countryPage, findCountry, type CountryRow } from './countries';
import { authenticate } from '../auth/guards';
import { notFound } from '../http/errors';
import { parseId, type ListSpec } from '../http/query';
import { answerRows } from '../http/listAnswer';
import { sendResource, toResource } from '../http/serialize';
import { describe } from '../openapi/describe';

const listSpec: ListSpec<(typeof COUNTRY_SORTS)[number], typeof COUNTRY_FILTERS> = {
  type: COUNTRY_TYPE,
  sorts: COUNTRY_SORTS,
  defaultSort: 'name',
  // A lookup for pickers: the whole list fits in one page.
  defaultLimit: 1000,
  filters: COUNTRY_FILTERS,
  fields: COUNTRY.names,
};

const serialize = (row: CountryRow, fields: Set<string> | null = null) =>
  toResource(COUNTRY_TYPE, row.id, { name: row.name, isoCode: row.isoCode } satisfies Omit<Country, 'id'>, { fields });

export function countriesRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  app.get('/', describe({ summary: 'List countries', list: listSpec, answer: { list: COUNTRY } }), (c) =>
    answerRows(c, listSpec, (q) => countryPage(db, q), serialize),
  );

  app.get('/:id', describe({ summary: 'Read a country', answer: { resource: COUNTRY } }), async (c) => {
    const id = parseId(c.req.param('id'));
    const row = id === null ? undefined : await findCountry(db, id);
    if (!row) throw notFound('country');
    return sendResource(c, serialize(row));
  });

  return app;
}
