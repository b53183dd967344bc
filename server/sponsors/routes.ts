/**
 * Sponsors (SPEC sections 3, 7): list with search, sort and paging; read; create; update;
 * delete. A `User` sees and changes only the sponsors assigned to them; sponsors come and go,
 * and are assigned, only by Admins and Super Users, so nobody widens their own scope.
 */
import { Hono } from 'hono';
import {
  NO_SPONSOR_FIGURES,
  SPONSOR,
  SPONSOR_DEFAULT_SORT,
  SPONSOR_FIGURES,
  SPONSOR_SORTS,
  SPONSOR_TYPE,
  SponsorInput,
  SponsorPatch,
  type Sponsor,
} from '@core/model/sponsor';
import type { AppEnv, Deps } from '../context';
import type { Db } from '../db/open';
import { STAFF_ADMIN_ROLES, authenticate, requireRole } from '../auth/guards';
import { parseListQuery, type ListSpec } from '../http/query';
import { rowAtPath } from '../http/pathRow';
import { memberRead, rowDocument } from '../http/memberRead';
import { answerList } from '../http/listAnswer';
import { sendResource, toResource } from '../http/serialize';
import { sponsorFigures, type SponsorFigures } from './figures';
import { describe } from '../openapi/describe';
import { resourceCreation, resourceUpdate } from '../http/resourceWrites';
import { SPONSOR_FILTERS, createSponsor, deleteSponsor, findSponsor, sponsorById, sponsorPage, updateSponsor, type SponsorRow as Row } from './sponsors';

export { SPONSOR_HAS_ENGAGEMENTS } from './sponsors';

const listSpec: ListSpec<(typeof SPONSOR_SORTS)[number], typeof SPONSOR_FILTERS> = {
  type: SPONSOR_TYPE,
  sorts: SPONSOR_SORTS,
  defaultSort: SPONSOR_DEFAULT_SORT,
  filters: SPONSOR_FILTERS,
  fields: SPONSOR.names,
  includes: ['country'],
};

function toSponsor(row: Row, figures: SponsorFigures = NO_SPONSOR_FIGURES): Sponsor {
  return {
    id: String(row.id),
    name: row.name as string,
    identification: row.identification as string,
    rmsSponsorIdentifier: row.rmsSponsorIdentifier as string | null,
    description: row.description as string | null,
    isActive: row.isActive as boolean,
    businessPractice: row.businessPractice as string | null,
    countryId: row.countryId as number | null,
    countryName: row.countryName as string | null,
    created: row.created.toISOString(),
    modified: row.modified.toISOString(),
    ...figures,
  };
}

function serialize(row: Row, fields: Set<string> | null, withCountry: boolean, figures?: Map<number, SponsorFigures>) {
  const { id, ...attributes } = toSponsor(row, figures?.get(row.id));
  return toResource(SPONSOR_TYPE, id, attributes, {
    fields,
    relationships: withCountry ? { country: { data: row.countryId ? { type: 'countries', id: String(row.countryId) } : null } } : undefined,
  });
}

function countriesIncluded(rows: Row[]) {
  const seen = new Map<number, ReturnType<typeof toResource>>();
  for (const row of rows) {
    if (typeof row.countryId === 'number' && !seen.has(row.countryId)) {
      seen.set(row.countryId, toResource('countries', row.countryId, { name: row.countryName, isoCode: row.countryIsoCode }));
    }
  }
  return [...seen.values()];
}

/** The figures of these rows, in one statement; skipped when `fields` leaves them all out. */
async function figuresFor(db: Db, rows: Row[], fields: Set<string> | null) {
  if (fields && !SPONSOR_FIGURES.some((f) => fields.has(f))) return undefined;
  return sponsorFigures(
    db,
    rows.map((r) => r.id),
  );
}

export function sponsorsRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  app.get('/', describe({ summary: 'List sponsors', list: listSpec, answer: { list: SPONSOR } }), async (c) => {
    const user = c.get('user');
    const q = parseListQuery(new URL(c.req.url).searchParams, listSpec);
    const withCountry = q.include.has('country');
    return answerList(c, q, async (window) => {
      const { rows, total, fields } = await sponsorPage(db, user, { ...q, ...window });
      const figures = await figuresFor(db, rows, fields);
      return { data: rows.map((r) => serialize(r, fields, withCountry, figures)), included: withCountry ? countriesIncluded(rows) : undefined, total };
    });
  });

  const readSponsor = rowDocument(db, findSponsor, async (row, q) => {
    const withCountry = q.include.has('country');
    const figures = await figuresFor(db, [row], q.fields);
    return { data: serialize(row, q.fields, withCountry, figures), included: withCountry ? countriesIncluded([row]) : undefined };
  });
  app.get('/:id', describe({ summary: 'Read a sponsor', read: listSpec, answer: { resource: SPONSOR } }), memberRead(listSpec, 'sponsor', readSponsor));

  const sponsorsAdmin = requireRole(...STAFF_ADMIN_ROLES);

  app.post('/', describe(resourceCreation('Create a sponsor', SPONSOR, SponsorInput)), sponsorsAdmin, async (c) => {
    const { attributes } = await c.var.body.read();
    const row = await sponsorById(db, await createSponsor(db, attributes));
    return sendResource(c, serialize(row, null, false), 201);
  });

  app.patch('/:id', describe(resourceUpdate('Update a sponsor', SPONSOR, SponsorPatch)), async (c) => {
    const { id } = await rowAtPath(c, 'sponsor', (id) => findSponsor(db, id, c.get('user')));
    const { attributes } = await c.var.body.read({ id });
    await updateSponsor(db, id, attributes);
    const row = await sponsorById(db, id);
    return sendResource(c, serialize(row, null, false, await figuresFor(db, [row], null)));
  });

  app.delete('/:id', describe({ summary: 'Delete a sponsor', answer: { empty: true } }), sponsorsAdmin, async (c) => {
    const { id } = await rowAtPath(c, 'sponsor', (id) => findSponsor(db, id, c.get('user')));
    await deleteSponsor(db, id);
    return c.body(null, 204);
  });

  return app;
}
