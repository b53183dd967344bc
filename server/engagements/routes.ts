/**
 * Engagements (SPEC sections 3, 7): list with search, sort, paging and includes; read;
 * create; update (attributes and the four lookup relationships); delete. A `User` sees and
 * changes only the engagements of their sponsors.
 */
import { Hono } from 'hono';
import { and, count, eq, inArray, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Resource } from '@core/jsonapi';
import {
  ENGAGEMENT_DEFAULT_SORT,
  ENGAGEMENT_INCLUDES,
  ENGAGEMENT_LOOKUP_RELATIONSHIPS,
  ENGAGEMENT_PHASES,
  ENGAGEMENT_SORTS,
  ENGAGEMENT_TYPE,
  EngagementInput,
  EngagementPatch,
  engagementDateIssues,
  fullIdentification,
  type Engagement,
  type EngagementLookupRelationship,
  type EngagementPause,
  type TargetMeasure,
} from '@core/model/engagement';
import { nowOf, type AppEnv, type AuthUser, type Deps } from '../context';
import { engagementPauses } from './';
import type { Db, Tx } from '../db/open';
import {
  campaignTypes,
  engagementCampaignTypes,
  engagementFiles,
  engagementIndications,
  engagementSiteLocations,
  engagementTargetGroups,
  engagementTherapeuticAreas,
  engagements,
  indications,
  referrals,
  rmsProviders,
  sponsors,
  targetGroups,
  therapeuticAreas,
  users,
} from '../db/schema';
import { authenticate, sponsorScope } from '../auth/guards';
import { engagementScope } from './access';
import { assertOwner, UNKNOWN_OWNER } from './owner';
import { readResource, toManyIds } from '../http/body';
import { badRequest, conflict, invalid, notFound } from '../http/errors';
import { parseId, parseListQuery, parseReadQuery, type ListSpec } from '../http/query';
import { IDENTIFICATION_TAKEN, identificationOrScope } from '../http/unique-identification';
import { sendList, sendResource, toResource } from '../http/serialize';
import { joinedPage } from '../http/list';
import { ilikeAny, rethrowConstraint } from '../http/sql';
import { booleanFilter, choiceFilter, dateFilter, filterConditions, filterNames, filterSchemas, idFilter, linkedFilter } from '../http/filters';
import { fileStorage } from '../storage/ofDeps';
import { describe } from '../openapi/describe';
import { chooseFromList } from '@core/validation/chooseFromList';

export const UNKNOWN_SPONSOR = chooseFromList('a sponsor');
export const UNKNOWN_RMS_PROVIDER = chooseFromList('a record-system provider');
export const ENGAGEMENT_HAS_REFERRALS = (n: number) =>
  `This engagement has ${n} referral${n === 1 ? '' : 's'}; deactivate it instead of deleting it.`;

const columns = {
  id: engagements.id,
  name: engagements.name,
  description: engagements.description,
  sponsorId: engagements.sponsorId,
  sponsorName: sponsors.name,
  sponsorIdentification: sponsors.identification,
  sponsorContact: engagements.sponsorContact,
  startDate: engagements.startDate,
  endDate: engagements.endDate,
  isActive: engagements.isActive,
  radius: engagements.radius,
  duplicateWindowDays: engagements.duplicateWindowDays,
  firstContactHours: engagements.firstContactHours,
  staleDays: engagements.staleDays,
  mediaLiveDate: engagements.mediaLiveDate,
  mediaEndDate: engagements.mediaEndDate,
  g6Url: engagements.g6Url,
  protocolIdentifier: engagements.protocolIdentifier,
  studySubjectIdentifier: engagements.studySubjectIdentifier,
  protocolVersion: engagements.protocolVersion,
  phase: engagements.phase,
  amendmentDate: engagements.amendmentDate,
  firstPatientInDate: engagements.firstPatientInDate,
  lastPatientInDate: engagements.lastPatientInDate,
  rareDisease: engagements.rareDisease,
  cellGeneTherapy: engagements.cellGeneTherapy,
  deiFocus: engagements.deiFocus,
  deiTarget: engagements.deiTarget,
  identification: engagements.identification,
  targetParticipantCount: engagements.targetParticipantCount,
  targetMeasure: sql<TargetMeasure>`${engagements.targetMeasure}`,
  rmsProviderId: engagements.rmsProviderId,
  rmsProviderName: rmsProviders.name,
  rmsSponsorIdentifier: engagements.rmsSponsorIdentifier,
  ownerUserId: engagements.ownerUserId,
  ownerUsername: users.username,
  created: engagements.created,
  modified: engagements.modified,
};

type Row = Omit<Engagement, 'id' | 'created' | 'modified' | 'fullIdentification' | 'deiTarget'> & {
  id: number;
  deiTarget: number | string | null;
  created: Date;
  modified: Date;
  isAssociated?: boolean;
};

const ATTRIBUTES = [
  ...Object.keys(columns).filter((k) => k !== 'id'),
  'fullIdentification',
  'isAssociated',
  'pause',
] as const;

const LOOKUP_LINKS = {
  campaignTypes: { link: engagementCampaignTypes, target: campaignTypes },
  indications: { link: engagementIndications, target: indications },
  targetGroups: { link: engagementTargetGroups, target: targetGroups },
  therapeuticAreas: { link: engagementTherapeuticAreas, target: therapeuticAreas },
} as const;
const LOOKUP_NAMES = Object.keys(LOOKUP_LINKS) as EngagementLookupRelationship[];

/** What staff narrow the engagements list by (beside the search). */
const FILTERS = {
  sponsorId: idFilter(engagements.sponsorId, 'sponsor'),
  isActive: booleanFilter(engagements.isActive),
  phase: choiceFilter(engagements.phase, ENGAGEMENT_PHASES),
  therapeuticAreaId: linkedFilter(
    { table: engagementTherapeuticAreas, owner: engagementTherapeuticAreas.engagementId, target: engagementTherapeuticAreas.targetId },
    engagements.id,
    'therapeutic area',
  ),
  startDateFrom: dateFilter(engagements.startDate, 'from'),
  startDateTo: dateFilter(engagements.startDate, 'to'),
  endDateFrom: dateFilter(engagements.endDate, 'from'),
  endDateTo: dateFilter(engagements.endDate, 'to'),
};

type Filters = 'searchQuery' | 'uniqueIdentification' | 'sortAssociated' | keyof typeof FILTERS;
const listSpec: ListSpec<(typeof ENGAGEMENT_SORTS)[number], Filters> = {
  type: ENGAGEMENT_TYPE,
  sorts: ENGAGEMENT_SORTS,
  defaultSort: ENGAGEMENT_DEFAULT_SORT,
  filters: ['searchQuery', 'uniqueIdentification', 'sortAssociated', ...filterNames(FILTERS)],
  filterSchemas: filterSchemas(FILTERS),
  fields: ATTRIBUTES,
  includes: ENGAGEMENT_INCLUDES,
};

const sortColumns: Record<(typeof ENGAGEMENT_SORTS)[number], AnyColumn> = {
  name: engagements.name,
  identification: engagements.identification,
  isActive: engagements.isActive,
  startDate: engagements.startDate,
  endDate: engagements.endDate,
  phase: engagements.phase,
  sponsorName: sponsors.name,
  created: engagements.created,
  modified: engagements.modified,
};

function toEngagement(row: Row): Engagement {
  const { created, modified, id, deiTarget, ...rest } = row;
  return {
    ...rest,
    id: String(id),
    deiTarget: deiTarget === null ? null : Number(deiTarget),
    fullIdentification: fullIdentification(row.sponsorIdentification, row.identification),
    created: created.toISOString(),
    modified: modified.toISOString(),
  };
}

type Links = Record<EngagementLookupRelationship, Map<number, { id: number; name: string }[]>>;

/** The four lookup lists of these engagements: one query per list, not per engagement. */
async function loadLinks(db: Db, ids: number[], names: readonly EngagementLookupRelationship[]): Promise<Partial<Links>> {
  const out: Partial<Links> = {};
  if (ids.length === 0) return out;
  for (const name of names) {
    const { link, target } = LOOKUP_LINKS[name];
    const rows = await db
      .select({ engagementId: link.engagementId, id: target.id, name: target.name })
      .from(link)
      .innerJoin(target, eq(target.id, link.targetId))
      .where(inArray(link.engagementId, ids))
      .orderBy(target.name);
    const byEngagement = new Map<number, { id: number; name: string }[]>();
    for (const r of rows) {
      const list = byEngagement.get(r.engagementId) ?? [];
      list.push({ id: r.id, name: r.name });
      byEngagement.set(r.engagementId, list);
    }
    out[name] = byEngagement;
  }
  return out;
}

function serialize(row: Row, fields: Set<string> | null, include: Set<string>, links: Partial<Links>, pause?: EngagementPause | null) {
  const { id, ...attributes } = { ...toEngagement(row), ...(pause === undefined ? {} : { pause }) };
  if (row.isAssociated === undefined) delete (attributes as Partial<Engagement>).isAssociated;
  const relationships: Resource['relationships'] = {};
  if (include.has('sponsor')) relationships.sponsor = { data: { type: 'sponsors', id: String(row.sponsorId) } };
  if (include.has('rmsProvider')) {
    relationships.rmsProvider = { data: row.rmsProviderId ? { type: 'rms-providers', id: String(row.rmsProviderId) } : null };
  }
  for (const name of LOOKUP_NAMES) {
    const list = links[name];
    if (!list) continue;
    relationships[name] = {
      data: (list.get(row.id) ?? []).map((l) => ({ type: ENGAGEMENT_LOOKUP_RELATIONSHIPS[name], id: String(l.id) })),
    };
  }
  return toResource(ENGAGEMENT_TYPE, id, attributes, {
    fields,
    relationships: Object.keys(relationships).length ? relationships : undefined,
  });
}

function includedResources(rows: Row[], include: Set<string>, links: Partial<Links>): Resource[] {
  const seen = new Map<string, Resource>();
  const add = (r: Resource) => seen.set(`${r.type}:${r.id}`, r);
  for (const row of rows) {
    if (include.has('sponsor')) {
      add(toResource('sponsors', row.sponsorId, { name: row.sponsorName, identification: row.sponsorIdentification }));
    }
    if (include.has('rmsProvider') && row.rmsProviderId) add(toResource('rms-providers', row.rmsProviderId, { name: row.rmsProviderName }));
    for (const name of LOOKUP_NAMES) {
      if (!include.has(name)) continue;
      for (const l of links[name]?.get(row.id) ?? []) add(toResource(ENGAGEMENT_LOOKUP_RELATIONSHIPS[name], l.id, { name: l.name }));
    }
  }
  return [...seen.values()];
}

const selectEngagements = (db: Db, extra: Record<string, SQL> = {}) =>
  db
    .select({ ...columns, ...extra })
    .from(engagements)
    .innerJoin(sponsors, eq(sponsors.id, engagements.sponsorId))
    .leftJoin(rmsProviders, eq(rmsProviders.id, engagements.rmsProviderId))
    .leftJoin(users, eq(users.id, engagements.ownerUserId));

async function findEngagement(db: Db, id: number | null, user: AuthUser): Promise<Row | undefined> {
  if (id === null) return undefined;
  const [row] = await selectEngagements(db).where(and(eq(engagements.id, id), engagementScope(user)));
  return row as Row | undefined;
}

/** The sponsor must exist and be one the user may see (else the same answer as unknown). */
async function assertSponsor(db: Db, sponsorId: number | undefined, user: AuthUser) {
  if (sponsorId === undefined) return;
  const scope = sponsorScope(user);
  const [found] = await db.select({ id: sponsors.id }).from(sponsors).where(eq(sponsors.id, sponsorId));
  if (!found || (scope !== null && !scope.includes(sponsorId))) {
    throw invalid([{ pointer: '/data/attributes/sponsorId', detail: UNKNOWN_SPONSOR }]);
  }
}

async function assertRmsProvider(db: Db, id: number | null | undefined) {
  if (id === null || id === undefined) return;
  const [found] = await db.select({ id: rmsProviders.id }).from(rmsProviders).where(eq(rmsProviders.id, id));
  if (!found) throw invalid([{ pointer: '/data/attributes/rmsProviderId', detail: UNKNOWN_RMS_PROVIDER }]);
}

async function assertIdentificationFree(db: Db, identification: string | undefined, exceptId?: number) {
  if (identification === undefined) return;
  const [taken] = await db.select({ id: engagements.id }).from(engagements).where(eq(engagements.identification, identification));
  if (taken && taken.id !== exceptId) throw conflict(IDENTIFICATION_TAKEN, '/data/attributes/identification');
}

function assertDates(values: Record<string, unknown>) {
  const issues = Object.entries(engagementDateIssues(values)).map(([field, detail]) => ({
    pointer: `/data/attributes/${field}`,
    detail,
  }));
  if (issues.length) throw invalid(issues);
}

/**
 * The lookup lists a create or update sets, validated before anything is written: each a
 * full list (replacing the old one) of existing ids of the right type.
 */
async function readLookupRelationships(db: Db, relationships: Record<string, { data: unknown }>) {
  const out: Partial<Record<EngagementLookupRelationship, number[]>> = {};
  const issues: { pointer: string; detail: string }[] = [];
  for (const [name, rel] of Object.entries(relationships)) {
    const pointer = `/data/relationships/${name}`;
    if (!(LOOKUP_NAMES as string[]).includes(name)) {
      issues.push({ pointer, detail: `Unknown relationship. Set one of: ${LOOKUP_NAMES.join(', ')}.` });
      continue;
    }
    const key = name as EngagementLookupRelationship;
    const type = ENGAGEMENT_LOOKUP_RELATIONSHIPS[key];
    const ids = toManyIds(rel.data, type);
    if (ids === null) {
      issues.push({ pointer: `${pointer}/data`, detail: `Must be a list of ${type} identifiers.` });
      continue;
    }
    if (ids.length) {
      const { target } = LOOKUP_LINKS[key];
      const found = await db.select({ id: target.id }).from(target).where(inArray(target.id, ids));
      const known = new Set(found.map((f) => f.id));
      const missing = ids.filter((id) => !known.has(id));
      if (missing.length) {
        issues.push({ pointer: `${pointer}/data`, detail: `Unknown ${type}: ${missing.join(', ')}.` });
        continue;
      }
    }
    out[key] = ids;
  }
  if (issues.length) throw invalid(issues);
  return out;
}

async function writeLinks(tx: Tx, engagementId: number, lists: Partial<Record<EngagementLookupRelationship, number[]>>) {
  for (const [name, ids] of Object.entries(lists) as [EngagementLookupRelationship, number[]][]) {
    const { link } = LOOKUP_LINKS[name];
    await tx.delete(link).where(eq(link.engagementId, engagementId));
    if (ids.length) await tx.insert(link).values(ids.map((targetId) => ({ engagementId, targetId })));
  }
}

const onConstraint = (error: unknown): never =>
  rethrowConstraint(error, {
    unique: () => conflict(IDENTIFICATION_TAKEN, '/data/attributes/identification'),
    // A sponsor or provider deleted between the check and the write.
    foreignKey: (constraint) =>
      constraint?.includes('rms_provider')
        ? invalid([{ pointer: '/data/attributes/rmsProviderId', detail: UNKNOWN_RMS_PROVIDER }])
        : constraint?.includes('owner_user')
          ? invalid([{ pointer: '/data/attributes/ownerUserId', detail: UNKNOWN_OWNER }])
          : invalid([{ pointer: '/data/attributes/sponsorId', detail: UNKNOWN_SPONSOR }]),
  });

const ALL_INCLUDES = new Set<string>(ENGAGEMENT_INCLUDES);

async function sendOne(c: Parameters<typeof sendResource>[0], db: Db, id: number, now: Date, status: 200 | 201 = 200) {
  const [row] = (await selectEngagements(db).where(eq(engagements.id, id))) as Row[];
  if (!row) throw notFound('engagement');
  const links = await loadLinks(db, [id], LOOKUP_NAMES);
  const pause = (await engagementPauses(db, [id], now)).get(id) ?? null;
  return sendResource(c, serialize(row, null, ALL_INCLUDES, links, pause), status, includedResources([row], ALL_INCLUDES, links));
}

export function engagementsRoutes(deps: Deps) {
  const { db } = deps;
  const storage = fileStorage(deps);
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  app.get('/', describe({ summary: 'List engagements', list: listSpec, answer: { list: listSpec.type } }), async (c) => {
    const user = c.get('user');
    const q = parseListQuery(new URL(c.req.url).searchParams, listSpec);
    const conditions: (SQL | undefined)[] = [];
    const unique = identificationOrScope(user, q.filters.uniqueIdentification, engagements.identification, engagementScope(user), q.fields);
    const fields = unique.fields;
    conditions.push(unique.condition);
    if (q.filters.searchQuery?.trim()) {
      conditions.push(
        ilikeAny([engagements.name, engagements.identification, engagements.protocolIdentifier, sponsors.name], q.filters.searchQuery),
      );
    }
    conditions.push(...filterConditions(q.filters, FILTERS));
    const extra: Record<string, SQL> = {};
    let lead: SQL | undefined;
    if (q.filters.sortAssociated !== undefined) {
      // Engagements linked to this site location first (the site's view and link pickers).
      const siteLocationId = parseId(q.filters.sortAssociated);
      if (siteLocationId === null) throw badRequest("'sortAssociated' must be a site location id.", 'sortAssociated');
      const associated = sql<boolean>`exists (select 1 from ${engagementSiteLocations} l where l.engagement_id = ${engagements.id} and l.site_location_id = ${siteLocationId})`;
      extra.isAssociated = associated;
      lead = sql`${associated} desc`;
    }
    const where = and(...conditions);
    // Without conditions the count skips the join (every engagement has its sponsor: not null,
    // restricted on delete); it reads every matching row, 100,000 engagements at scale.
    const counted = (
      where === undefined
        ? db.select({ n: count() }).from(engagements)
        : db.select({ n: count() }).from(engagements).innerJoin(sponsors, eq(sponsors.id, engagements.sponsorId))
    ).$dynamic();
    const page = await joinedPage(selectEngagements(db, extra).$dynamic(), counted, q, { where, sorts: sortColumns, id: engagements.id, lead });
    const rows = page.rows as Row[];
    const links = await loadLinks(
      db,
      rows.map((r) => r.id),
      LOOKUP_NAMES.filter((n) => q.include.has(n)),
    );
    return sendList(
      c,
      rows.map((r) => serialize(r, fields, q.include, links)),
      { total: page.total, page: q.page, limit: q.limit },
      includedResources(rows, q.include, links),
    );
  });

  app.get('/:id', describe({ summary: 'Read an engagement' }), async (c) => {
    const q = parseReadQuery(new URL(c.req.url).searchParams, listSpec);
    const row = await findEngagement(db, parseId(c.req.param('id')), c.get('user'));
    if (!row) throw notFound('engagement');
    // The lookup lists are always part of a single engagement; their names when included.
    const links = await loadLinks(db, [row.id], LOOKUP_NAMES);
    const pause = (await engagementPauses(db, [row.id], nowOf(deps))).get(row.id) ?? null;
    return sendResource(c, serialize(row, q.fields, q.include, links, pause), 200, includedResources([row], q.include, links));
  });

  app.post('/', describe({ summary: 'Create an engagement', body: { resource: ENGAGEMENT_TYPE, attributes: EngagementInput }, answer: { resource: ENGAGEMENT_TYPE, status: 201 } }), async (c) => {
    const user = c.get('user');
    const { attributes, relationships } = await readResource(c, EngagementInput, { type: ENGAGEMENT_TYPE });
    assertDates(attributes);
    await assertSponsor(db, attributes.sponsorId, user);
    await assertRmsProvider(db, attributes.rmsProviderId);
    await assertOwner(db, attributes.ownerUserId);
    const lists = await readLookupRelationships(db, relationships);
    await assertIdentificationFree(db, attributes.identification);
    // Its creator owns it unless the request names another owner (or none, with null).
    const ownerUserId = attributes.ownerUserId === undefined ? user.id : attributes.ownerUserId;
    const id = await db
      .transaction(async (tx) => {
        const [created] = await tx.insert(engagements).values({ ...attributes, ownerUserId }).returning({ id: engagements.id });
        if (!created) throw new Error('insert returned no row');
        await writeLinks(tx, created.id, lists);
        return created.id;
      })
      .catch(onConstraint);
    return sendOne(c, db, id, nowOf(deps), 201);
  });

  app.patch('/:id', describe({ summary: 'Update an engagement', body: { resource: ENGAGEMENT_TYPE, attributes: EngagementPatch }, answer: { resource: ENGAGEMENT_TYPE } }), async (c) => {
    const user = c.get('user');
    const id = parseId(c.req.param('id'));
    const existing = await findEngagement(db, id, user);
    if (!existing || id === null) throw notFound('engagement');
    const { attributes, relationships } = await readResource(c, EngagementPatch, { type: ENGAGEMENT_TYPE, id });
    assertDates({ ...toEngagement(existing), ...attributes });
    await assertSponsor(db, attributes.sponsorId, user);
    await assertRmsProvider(db, attributes.rmsProviderId);
    await assertOwner(db, attributes.ownerUserId);
    const lists = await readLookupRelationships(db, relationships);
    await assertIdentificationFree(db, attributes.identification, id);
    await db
      .transaction(async (tx) => {
        if (Object.keys(attributes).length > 0) {
          await tx
            .update(engagements)
            .set({ ...attributes, modified: sql`now()` })
            .where(eq(engagements.id, id));
        }
        await writeLinks(tx, id, lists);
      })
      .catch(onConstraint);
    return sendOne(c, db, id, nowOf(deps));
  });

  app.delete('/:id', describe({ summary: 'Delete an engagement', answer: { empty: true } }), async (c) => {
    const id = parseId(c.req.param('id'));
    const existing = await findEngagement(db, id, c.get('user'));
    if (!existing || id === null) throw notFound('engagement');
    const keys = await db.transaction(async (tx) => {
      // Locked first, so a referral cannot arrive between the count and the delete.
      await tx.select({ id: engagements.id }).from(engagements).where(eq(engagements.id, id)).for('update');
      const [referred] = await tx.select({ n: count() }).from(referrals).where(eq(referrals.engagementId, id));
      if (referred && referred.n > 0) throw conflict(ENGAGEMENT_HAS_REFERRALS(referred.n));
      const files = await tx.select({ key: engagementFiles.storageKey }).from(engagementFiles).where(eq(engagementFiles.engagementId, id));
      // Site links, lookup links and file rows go with it (ON DELETE CASCADE).
      await tx.delete(engagements).where(eq(engagements.id, id));
      return files.map((f) => f.key);
    });
    // The bytes go after the rows: a failure here leaves an unreferenced file, never a dangling row.
    for (const key of keys) {
      await storage.remove(key).catch((error: unknown) => deps.log.warn('could not remove a file', { key, error: String(error) }));
    }
    return c.body(null, 204);
  });

  return app;
}
