/**
 * Sponsors (SPEC sections 3, 7): list with search, sort and paging; read; create; update;
 * delete. A `User` sees and changes only the sponsors assigned to them; sponsors come and go,
 * and are assigned, only by Admins and Super Users, so nobody widens their own scope.
 */
import { Hono } from 'hono';
import { and, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  NO_SPONSOR_FIGURES,
  SPONSOR_DEFAULT_SORT,
  SPONSOR_FIGURES,
  SPONSOR_SORTS,
  SPONSOR_TYPE,
  SponsorInput,
  SponsorPatch,
  type Sponsor,
} from '@core/model/sponsor';
import type { AppEnv, AuthUser, Deps } from '../context';
import type { Db } from '../db/open';
import { countries, engagements, sponsors } from '../db/schema';
import { STAFF_ADMIN_ROLES, authenticate, requireRole, sponsorScope } from '../auth/guards';
import { readResource } from '../http/body';
import { conflict, invalid, notFound } from '../http/errors';
import { parseId, parseListQuery, parseReadQuery, type ListSpec } from '../http/query';
import { IDENTIFICATION_TAKEN, identificationOrScope } from '../http/unique-identification';
import { sendList, sendResource, toResource } from '../http/serialize';
import { ilikeAny, parseBooleanFilter, pgErrorCode, rethrowConstraint } from '../http/sql';
import { sponsorFigures, type SponsorFigures } from './figures';
import { joinedPage } from '../http/list';
import { describe } from '../openapi/describe';
import { chooseFromList } from '@core/validation/chooseFromList';

const UNKNOWN_COUNTRY = chooseFromList('a country');
export const SPONSOR_HAS_ENGAGEMENTS = (n: number) =>
  `This sponsor still has ${n} engagement${n === 1 ? '' : 's'}. Delete or move ${n === 1 ? 'it' : 'them'} before deleting the sponsor.`;
const ATTRIBUTES = [
  'name',
  'identification',
  'rmsSponsorIdentifier',
  'description',
  'isActive',
  'businessPractice',
  'countryId',
  'countryName',
  'created',
  'modified',
  ...SPONSOR_FIGURES,
] as const;

const listSpec: ListSpec<(typeof SPONSOR_SORTS)[number], 'searchQuery' | 'uniqueIdentification' | 'isActive'> = {
  type: SPONSOR_TYPE,
  sorts: SPONSOR_SORTS,
  defaultSort: SPONSOR_DEFAULT_SORT,
  filters: ['searchQuery', 'uniqueIdentification', 'isActive'],
  fields: ATTRIBUTES,
  includes: ['country'],
};

const columns = {
  id: sponsors.id,
  name: sponsors.name,
  identification: sponsors.identification,
  rmsSponsorIdentifier: sponsors.rmsSponsorIdentifier,
  description: sponsors.description,
  isActive: sponsors.isActive,
  businessPractice: sponsors.businessPractice,
  countryId: sponsors.countryId,
  countryName: countries.name,
  countryIsoCode: countries.isoCode,
  created: sponsors.created,
  modified: sponsors.modified,
};

type Row = { [K in keyof typeof columns]: unknown } & { id: number; created: Date; modified: Date };

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
    relationships: withCountry
      ? { country: { data: row.countryId ? { type: 'countries', id: String(row.countryId) } : null } }
      : undefined,
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

const scopeCondition = (user: AuthUser): SQL | undefined => {
  const scope = sponsorScope(user);
  if (scope === null) return undefined;
  return scope.length ? inArray(sponsors.id, scope) : sql`false`;
};

/** The figures of these rows, in one statement; skipped when `fields` leaves them all out. */
async function figuresFor(db: Db, rows: Row[], fields: Set<string> | null) {
  if (fields && !SPONSOR_FIGURES.some((f) => fields.has(f))) return undefined;
  return sponsorFigures(
    db,
    rows.map((r) => r.id),
  );
}

const selectSponsors = (db: Db) => db.select(columns).from(sponsors).leftJoin(countries, eq(countries.id, sponsors.countryId));

async function findSponsor(db: Db, id: number, user: AuthUser): Promise<Row | undefined> {
  const [row] = await selectSponsors(db).where(and(eq(sponsors.id, id), scopeCondition(user)));
  return row as Row | undefined;
}

async function assertCountry(db: Db, countryId: number | null | undefined) {
  if (countryId === null || countryId === undefined) return;
  const [found] = await db.select({ id: countries.id }).from(countries).where(eq(countries.id, countryId));
  if (!found) throw invalid([{ pointer: '/data/attributes/countryId', detail: UNKNOWN_COUNTRY }]);
}

async function assertIdentificationFree(db: Db, identification: string | undefined, exceptId?: number) {
  if (identification === undefined) return;
  const [taken] = await db.select({ id: sponsors.id }).from(sponsors).where(eq(sponsors.identification, identification));
  if (taken && taken.id !== exceptId) throw conflict(IDENTIFICATION_TAKEN, '/data/attributes/identification');
}

/** A concurrent write can still hit the unique index after the check: same answer. */
const onConstraint = (error: unknown): never =>
  rethrowConstraint(error, {
    unique: () => conflict(IDENTIFICATION_TAKEN, '/data/attributes/identification'),
    foreignKey: () => invalid([{ pointer: '/data/attributes/countryId', detail: UNKNOWN_COUNTRY }]),
  });

export function sponsorsRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  app.get('/', describe({ summary: 'List sponsors', list: listSpec, answer: { list: listSpec.type } }), async (c) => {
    const user = c.get('user');
    const q = parseListQuery(new URL(c.req.url).searchParams, listSpec);
    const isActive = parseBooleanFilter(q.filters.isActive, 'isActive');
    const conditions: (SQL | undefined)[] = [];
    const unique = identificationOrScope(user, q.filters.uniqueIdentification, sponsors.identification, scopeCondition(user), q.fields);
    const fields = unique.fields;
    conditions.push(unique.condition);
    if (q.filters.searchQuery?.trim()) {
      conditions.push(ilikeAny([sponsors.name, sponsors.identification, sponsors.rmsSponsorIdentifier, countries.name], q.filters.searchQuery));
    }
    if (isActive !== undefined) conditions.push(eq(sponsors.isActive, isActive));
    const where = and(...conditions);

    const counted = db.select({ n: count() }).from(sponsors).leftJoin(countries, eq(countries.id, sponsors.countryId)).$dynamic();
    const page = await joinedPage(selectSponsors(db).$dynamic(), counted, q, { where, sorts: columns, id: sponsors.id });
    const rows = page.rows as Row[];
    const withCountry = q.include.has('country');
    const figures = await figuresFor(db, rows, fields);
    return sendList(
      c,
      rows.map((r) => serialize(r, fields, withCountry, figures)),
      { total: page.total, page: q.page, limit: q.limit },
      withCountry ? countriesIncluded(rows) : undefined,
    );
  });

  app.get('/:id', describe({ summary: 'Read a sponsor' }), async (c) => {
    const q = parseReadQuery(new URL(c.req.url).searchParams, listSpec);
    const id = parseId(c.req.param('id'));
    const row = id === null ? undefined : await findSponsor(db, id, c.get('user'));
    if (!row) throw notFound('sponsor');
    const withCountry = q.include.has('country');
    const figures = await figuresFor(db, [row], q.fields);
    return sendResource(c, serialize(row, q.fields, withCountry, figures), 200, withCountry ? countriesIncluded([row]) : undefined);
  });

  const sponsorsAdmin = requireRole(...STAFF_ADMIN_ROLES);

  app.post('/', describe({ summary: 'Create a sponsor', body: { resource: SPONSOR_TYPE, attributes: SponsorInput }, answer: { resource: SPONSOR_TYPE, status: 201 } }), sponsorsAdmin, async (c) => {
    const { attributes } = await readResource(c, SponsorInput, { type: SPONSOR_TYPE });
    await assertCountry(db, attributes.countryId);
    await assertIdentificationFree(db, attributes.identification);
    const [created] = await db.insert(sponsors).values(attributes).returning({ id: sponsors.id }).catch(onConstraint);
    if (!created) throw new Error('insert returned no row');
    const id = created.id;
    const [row] = await selectSponsors(db).where(eq(sponsors.id, id));
    return sendResource(c, serialize(row as Row, null, false), 201);
  });

  app.patch('/:id', describe({ summary: 'Update a sponsor', body: { resource: SPONSOR_TYPE, attributes: SponsorPatch }, answer: { resource: SPONSOR_TYPE } }), async (c) => {
    const id = parseId(c.req.param('id'));
    const existing = id === null ? undefined : await findSponsor(db, id, c.get('user'));
    if (!existing || id === null) throw notFound('sponsor');
    const { attributes } = await readResource(c, SponsorPatch, { type: SPONSOR_TYPE, id });
    await assertCountry(db, attributes.countryId);
    await assertIdentificationFree(db, attributes.identification, id);
    if (Object.keys(attributes).length > 0) {
      await db
        .update(sponsors)
        .set({ ...attributes, modified: sql`now()` })
        .where(eq(sponsors.id, id))
        .catch(onConstraint);
    }
    const [row] = await selectSponsors(db).where(eq(sponsors.id, id));
    return sendResource(c, serialize(row as Row, null, false, await figuresFor(db, [row as Row], null)));
  });

  app.delete('/:id', describe({ summary: 'Delete a sponsor', answer: { empty: true } }), sponsorsAdmin, async (c) => {
    const id = parseId(c.req.param('id'));
    const existing = id === null ? undefined : await findSponsor(db, id, c.get('user'));
    if (!existing || id === null) throw notFound('sponsor');
    const [linked] = await db.select({ n: count() }).from(engagements).where(eq(engagements.sponsorId, id));
    if (linked && linked.n > 0) throw conflict(SPONSOR_HAS_ENGAGEMENTS(linked.n));
    await db
      .delete(sponsors)
      .where(eq(sponsors.id, id))
      .catch((error: unknown) => {
        // An engagement added since the check: same answer.
        if (pgErrorCode(error).code === '23503') throw conflict(SPONSOR_HAS_ENGAGEMENTS(1));
        throw error;
      });
    return c.body(null, 204);
  });

  return app;
}
