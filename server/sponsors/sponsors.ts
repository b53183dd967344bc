/**
 * Sponsors kept: a page of them and one, in the user's sponsor scope (a lookup by unique
 * identification reaches past it, naming only the id), and their writes, with the identification
 * unique and the country one that exists; a sponsor with engagements is not deleted.
 */
import { and, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type * as v from 'valibot';
import type { SPONSOR_SORTS, SponsorInput, SponsorPatch } from '@core/model/sponsor';
import { chooseFromList } from '@core/validation/chooseFromList';
import type { AuthUser } from '../context';
import type { Db } from '../db/open';
import { rowExists, insertedRow } from '../db/rows';
import { countries, engagements, sponsors } from '../db/schema';
import { sponsorScope } from '../auth/guards';
import { Conflict, Invalid } from '../errors';
import { countOf, joinedPage } from '../http/list';
import { SEARCH_AND_ACTIVE } from '../http/params';
import type { ListQuery } from '../http/query';
import { assertIdentificationFree, identificationOrScope, identificationTaken, uniqueIdentificationParam } from '../http/uniqueIdentification';
import { ilikeAny, pgErrorCode, rethrowConstraint } from '../http/sql';

const UNKNOWN_COUNTRY = chooseFromList('a country');
export const SPONSOR_HAS_ENGAGEMENTS = (n: number) =>
  `This sponsor still has ${n} engagement${n === 1 ? '' : 's'}. Delete or move ${n === 1 ? 'it' : 'them'} before deleting the sponsor.`;

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

export type SponsorRow = { [K in keyof typeof columns]: unknown } & { id: number; created: Date; modified: Date };

const scopeCondition = (user: AuthUser): SQL | undefined => {
  const scope = sponsorScope(user);
  if (scope === null) return undefined;
  return scope.length ? inArray(sponsors.id, scope) : sql`false`;
};

const selectSponsors = (db: Db) => db.select(columns).from(sponsors).leftJoin(countries, eq(countries.id, sponsors.countryId));

/** The list's filters: the search, the active switch and the identification check. */
export const SPONSOR_FILTERS = { ...SEARCH_AND_ACTIVE, uniqueIdentification: uniqueIdentificationParam };

/** A page of the sponsors the user may see, and the attributes a lookup by identification may answer. */
export async function sponsorPage(db: Db, user: AuthUser, q: ListQuery<(typeof SPONSOR_SORTS)[number], typeof SPONSOR_FILTERS>) {
  const { isActive } = q.filters;
  const conditions: (SQL | undefined)[] = [];
  const unique = identificationOrScope(sponsorScope(user) !== null, q.filters.uniqueIdentification, sponsors.identification, scopeCondition(user), q.fields);
  conditions.push(unique.condition);
  conditions.push(ilikeAny([sponsors.name, sponsors.identification, sponsors.rmsSponsorIdentifier, countries.name], q.filters.searchQuery));
  if (isActive !== undefined) conditions.push(eq(sponsors.isActive, isActive));
  const where = and(...conditions);
  const counted = countOf(db, sponsors).leftJoin(countries, eq(countries.id, sponsors.countryId)).$dynamic();
  const page = await joinedPage(selectSponsors(db).$dynamic(), counted, q, { where, sorts: columns, id: sponsors.id });
  return { rows: page.rows as SponsorRow[], total: page.total, fields: unique.fields };
}

/** A sponsor the user may see. */
export async function findSponsor(db: Db, id: number, user: AuthUser): Promise<SponsorRow | undefined> {
  const [row] = await selectSponsors(db).where(and(eq(sponsors.id, id), scopeCondition(user)));
  return row as SponsorRow | undefined;
}

/** A sponsor read back after a write the caller has already scoped. */
export async function sponsorById(db: Db, id: number): Promise<SponsorRow> {
  const [row] = await selectSponsors(db).where(eq(sponsors.id, id));
  return row as SponsorRow;
}

async function assertCountry(db: Db, countryId: number | null | undefined) {
  if (countryId === null || countryId === undefined) return;
  if (!(await rowExists(db, countries.id, countryId))) throw new Invalid([{ pointer: '/data/attributes/countryId', detail: UNKNOWN_COUNTRY }]);
}

/** A concurrent write can still hit the unique index after the check: same answer. */
const onConstraint = (error: unknown): never =>
  rethrowConstraint(error, {
    unique: identificationTaken,
    foreignKey: () => new Invalid([{ pointer: '/data/attributes/countryId', detail: UNKNOWN_COUNTRY }]),
  });

/** The new sponsor's id. */
export async function createSponsor(db: Db, attributes: v.InferOutput<typeof SponsorInput>): Promise<number> {
  await assertCountry(db, attributes.countryId);
  await assertIdentificationFree(db, sponsors.identification, sponsors.id, attributes.identification);
  const created = await insertedRow(db.insert(sponsors).values(attributes).returning({ id: sponsors.id }).catch(onConstraint));
  return created.id;
}

export async function updateSponsor(db: Db, id: number, attributes: v.InferOutput<typeof SponsorPatch>) {
  await assertCountry(db, attributes.countryId);
  await assertIdentificationFree(db, sponsors.identification, sponsors.id, attributes.identification, id);
  if (Object.keys(attributes).length > 0) {
    await db
      .update(sponsors)
      .set({ ...attributes, modified: sql`now()` })
      .where(eq(sponsors.id, id))
      .catch(onConstraint);
  }
}

/** Refused while the sponsor has engagements. */
export async function deleteSponsor(db: Db, id: number) {
  const [linked] = await db.select({ n: count() }).from(engagements).where(eq(engagements.sponsorId, id));
  if (linked && linked.n > 0) throw new Conflict(SPONSOR_HAS_ENGAGEMENTS(linked.n));
  await db
    .delete(sponsors)
    .where(eq(sponsors.id, id))
    .catch((error: unknown) => {
      // An engagement added since the check: same answer.
      if (pgErrorCode(error).code === '23503') throw new Conflict(SPONSOR_HAS_ENGAGEMENTS(1));
      throw error;
    });
}
