import { Hono } from 'hono';
import { COUNTRY, COUNTRY_SORTS, COUNTRY_TYPE, type Country } from '@core/model/country';
import type { AppEnv, Deps } from '../context';
import { COUNTRY_FILTERS, countryPage, findCountry, type CountryRow } from './countries';
import { authenticate } from '../auth/guards';
import { type ListSpec } from '../http/query';
import { memberRead, rowReader } from '../http/memberRead';
import { answerRows } from '../http/listAnswer';
import { toResource } from '../http/serialize';
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

  app.get(
    '/:id',
    describe({ summary: 'Read a country', answer: { resource: COUNTRY } }),
    memberRead(
      null,
      'country',
      rowReader((id) => findCountry(db, id), serialize),
    ),
  );

  return app;
}
