/**
 * The engagements themselves: their list query (search, filters, the site's "associated first"
 * order), one engagement with its lookup lists, and create, update and delete. A `User` reaches
 * only the engagements of their sponsors; an engagement with referrals is not deleted.
 */
import { and, count, eq, inArray, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type * as v from 'valibot';
import {
  ENGAGEMENT_LOOKUP_RELATIONSHIPS,
  ENGAGEMENT_PHASES,
  engagementDateIssues,
  fullIdentification,
  type ENGAGEMENT_SORTS,
  type Engagement,
  type EngagementInput,
  type EngagementLookupRelationship,
  type EngagementPatch,
  type TargetMeasure,
} from '@core/model/engagement';
import { chooseFromList } from '@core/validation/chooseFromList';
import type { AuthUser } from '../context';
import type { Db, Tx } from '../db/open';
import { rowExists, rowWithId, insertedRow } from '../db/rows';
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
import { sponsorScope } from '../auth/guards';
import { toManyIds } from '../http/body';
import { Conflict, Invalid } from '../errors';
import type { ListQuery } from '../http/query';
import { idParam, searchParam } from '../http/params';
import { assertIdentificationFree, identificationOrScope, identificationTaken, uniqueIdentificationParam } from '../http/uniqueIdentification';
import { countOf, joinedPage } from '../http/list';
import { ilikeAny, rethrowConstraint } from '../http/sql';
import { booleanFilter, choiceFilter, dateFilter, filterConditions, idFilter, linkedFilter } from '../http/filters';
import { engagementScope } from './access';
import { assertOwner, UNKNOWN_OWNER } from './owner';

export const UNKNOWN_SPONSOR = chooseFromList('a sponsor');
export const UNKNOWN_RMS_PROVIDER = chooseFromList('a record-system provider');
export const ENGAGEMENT_HAS_REFERRALS = (n: number) => `This engagement has ${n} referral${n === 1 ? '' : 's'}; deactivate it instead of deleting it.`;

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

/** The attributes an engagement's row carries, in the list's order. */
export const ENGAGEMENT_COLUMNS = Object.keys(columns).filter((k) => k !== 'id');

export type EngagementRow = Omit<Engagement, 'id' | 'created' | 'modified' | 'fullIdentification' | 'deiTarget'> & {
  id: number;
  deiTarget: number | string | null;
  created: Date;
  modified: Date;
  isAssociated?: boolean;
};
type Row = EngagementRow;

const LOOKUP_LINKS = {
  campaignTypes: { link: engagementCampaignTypes, target: campaignTypes },
  indications: { link: engagementIndications, target: indications },
  targetGroups: { link: engagementTargetGroups, target: targetGroups },
  therapeuticAreas: { link: engagementTherapeuticAreas, target: therapeuticAreas },
} as const;
export const LOOKUP_NAMES = Object.keys(LOOKUP_LINKS) as EngagementLookupRelationship[];

/** What staff narrow the engagements list by (beside the search). */
export const ENGAGEMENT_FILTERS = {
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

/** The engagements list's filters: the search, the identification check and the site location to put first, beside ENGAGEMENT_FILTERS. */
export const ENGAGEMENT_LIST_FILTERS = {
  ...ENGAGEMENT_FILTERS,
  searchQuery: searchParam,
  uniqueIdentification: uniqueIdentificationParam,
  sortAssociated: idParam('site location', 'A site location id: the engagements linked to it first.'),
};

export type EngagementFilters = typeof ENGAGEMENT_LIST_FILTERS;

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

export type Links = Record<EngagementLookupRelationship, Map<number, { id: number; name: string }[]>>;

/** The four lookup lists of these engagements: one query per list, not per engagement. */
export async function loadLinks(db: Db, ids: number[], names: readonly EngagementLookupRelationship[]): Promise<Partial<Links>> {
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

const selectEngagements = (db: Db, extra: Record<string, SQL> = {}) =>
  db
    .select({ ...columns, ...extra })
    .from(engagements)
    .innerJoin(sponsors, eq(sponsors.id, engagements.sponsorId))
    .leftJoin(rmsProviders, eq(rmsProviders.id, engagements.rmsProviderId))
    .leftJoin(users, eq(users.id, engagements.ownerUserId));

export async function findEngagement(db: Db, id: number | null, user: AuthUser): Promise<Row | undefined> {
  return (await rowWithId(selectEngagements(db), engagements.id, id, engagementScope(user))) as Row | undefined;
}

/** The sponsor must exist and be one the user may see (else the same answer as unknown). */
async function assertSponsor(db: Db, sponsorId: number | undefined, user: AuthUser) {
  if (sponsorId === undefined) return;
  const scope = sponsorScope(user);
  if (!(await rowExists(db, sponsors.id, sponsorId)) || (scope !== null && !scope.includes(sponsorId))) {
    throw new Invalid([{ pointer: '/data/attributes/sponsorId', detail: UNKNOWN_SPONSOR }]);
  }
}

async function assertRmsProvider(db: Db, id: number | null | undefined) {
  if (id === null || id === undefined) return;
  if (!(await rowExists(db, rmsProviders.id, id))) throw new Invalid([{ pointer: '/data/attributes/rmsProviderId', detail: UNKNOWN_RMS_PROVIDER }]);
}

export function assertDates(values: Record<string, unknown>) {
  const issues = Object.entries(engagementDateIssues(values)).map(([field, detail]) => ({
    pointer: `/data/attributes/${field}`,
    detail,
  }));
  if (issues.length) throw new Invalid(issues);
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
  if (issues.length) throw new Invalid(issues);
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
    unique: identificationTaken,
    // A sponsor or provider deleted between the check and the write.
    foreignKey: (constraint) =>
      constraint?.includes('rms_provider')
        ? new Invalid([{ pointer: '/data/attributes/rmsProviderId', detail: UNKNOWN_RMS_PROVIDER }])
        : constraint?.includes('owner_user')
          ? new Invalid([{ pointer: '/data/attributes/ownerUserId', detail: UNKNOWN_OWNER }])
          : new Invalid([{ pointer: '/data/attributes/sponsorId', detail: UNKNOWN_SPONSOR }]),
  });

export function toEngagement(row: Row): Engagement {
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

/** One engagement by id, whoever may see it; undefined when there is none. */
export async function engagementById(db: Db, id: number): Promise<Row | undefined> {
  const [row] = (await selectEngagements(db).where(eq(engagements.id, id))) as Row[];
  return row;
}

/** One page of the engagements the user may see, and the attributes a unique-identification check leaves. */
export async function engagementPage(db: Db, user: AuthUser, q: ListQuery<(typeof ENGAGEMENT_SORTS)[number], EngagementFilters>) {
  const conditions: (SQL | undefined)[] = [];
  const unique = identificationOrScope(
    sponsorScope(user) !== null,
    q.filters.uniqueIdentification,
    engagements.identification,
    engagementScope(user),
    q.fields,
  );
  const fields = unique.fields;
  conditions.push(unique.condition);
  conditions.push(ilikeAny([engagements.name, engagements.identification, engagements.protocolIdentifier, sponsors.name], q.filters.searchQuery));
  conditions.push(...filterConditions(q.filters, ENGAGEMENT_FILTERS));
  const extra: Record<string, SQL> = {};
  let lead: { key: SQL; desc: boolean } | undefined;
  const siteLocationId = q.filters.sortAssociated;
  if (siteLocationId !== undefined) {
    // Engagements linked to this site location first (the site's view and link pickers).
    const associated = sql<boolean>`exists (select 1 from ${engagementSiteLocations} l where l.engagement_id = ${engagements.id} and l.site_location_id = ${siteLocationId})`;
    extra.isAssociated = associated;
    lead = { key: associated, desc: true };
  }
  const where = and(...conditions);
  // Without conditions the count skips the join (every engagement has its sponsor: not null,
  // restricted on delete); it reads every matching row, 100,000 engagements at scale.
  const counted = (
    where === undefined ? countOf(db, engagements) : countOf(db, engagements).innerJoin(sponsors, eq(sponsors.id, engagements.sponsorId))
  ).$dynamic();
  const page = await joinedPage(selectEngagements(db, extra).$dynamic(), counted, q, { where, sorts: sortColumns, id: engagements.id, lead });
  const rows = page.rows as Row[];
  const links = await loadLinks(
    db,
    rows.map((r) => r.id),
    LOOKUP_NAMES.filter((n) => q.include.has(n)),
  );
  return { rows, total: page.total, fields, links };
}

/** Creates an engagement with its lookup lists; answers its id. */
export async function createEngagement(
  db: Db,
  user: AuthUser,
  attributes: v.InferOutput<typeof EngagementInput>,
  relationships: Record<string, { data: unknown }>,
): Promise<number> {
  assertDates(attributes);
  await assertSponsor(db, attributes.sponsorId, user);
  await assertRmsProvider(db, attributes.rmsProviderId);
  await assertOwner(db, attributes.ownerUserId);
  const lists = await readLookupRelationships(db, relationships);
  await assertIdentificationFree(db, engagements.identification, engagements.id, attributes.identification);
  // Its creator owns it unless the request names another owner (or none, with null).
  const ownerUserId = attributes.ownerUserId === undefined ? user.id : attributes.ownerUserId;
  return db
    .transaction(async (tx) => {
      const created = await insertedRow(
        tx
          .insert(engagements)
          .values({ ...attributes, ownerUserId })
          .returning({ id: engagements.id }),
      );
      await writeLinks(tx, created.id, lists);
      return created.id;
    })
    .catch(onConstraint);
}

/** Updates an engagement's attributes and the lookup lists sent (each replaced whole). */
export async function updateEngagement(
  db: Db,
  user: AuthUser,
  existing: Row,
  attributes: v.InferOutput<typeof EngagementPatch>,
  relationships: Record<string, { data: unknown }>,
): Promise<void> {
  const id = existing.id;
  assertDates({ ...toEngagement(existing), ...attributes });
  await assertSponsor(db, attributes.sponsorId, user);
  await assertRmsProvider(db, attributes.rmsProviderId);
  await assertOwner(db, attributes.ownerUserId);
  const lists = await readLookupRelationships(db, relationships);
  await assertIdentificationFree(db, engagements.identification, engagements.id, attributes.identification, id);
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
}

/** Deletes an engagement without referrals; answers the storage keys of its files, to remove after. */
export async function deleteEngagement(db: Db, id: number): Promise<string[]> {
  return db.transaction(async (tx) => {
    // Locked first, so a referral cannot arrive between the count and the delete.
    await tx.select({ id: engagements.id }).from(engagements).where(eq(engagements.id, id)).for('update');
    const [referred] = await tx.select({ n: count() }).from(referrals).where(eq(referrals.engagementId, id));
    if (referred && referred.n > 0) throw new Conflict(ENGAGEMENT_HAS_REFERRALS(referred.n));
    const files = await tx.select({ key: engagementFiles.storageKey }).from(engagementFiles).where(eq(engagementFiles.engagementId, id));
    // Site links, lookup links and file rows go with it (ON DELETE CASCADE).
    await tx.delete(engagements).where(eq(engagements.id, id));
    return files.map((f) => f.key);
  });
}
