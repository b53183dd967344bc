/**
 * Engagements (SPEC sections 3, 7): list with search, sort, paging and includes; read;
 * create; update (attributes and the four lookup relationships); delete. A `User` sees and
 * changes only the engagements of their sponsors.
 */
import { Hono } from 'hono';
import type { Resource } from '@core/jsonapi';
import {
  ENGAGEMENT,
  ENGAGEMENT_DEFAULT_SORT,
  ENGAGEMENT_INCLUDES,
  ENGAGEMENT_LOOKUP_RELATIONSHIPS,
  ENGAGEMENT_SORTS,
  ENGAGEMENT_TYPE,
  EngagementInput,
  EngagementPatch,
  type Engagement,
  type EngagementPause,
} from '@core/model/engagement';
import { nowOf, type AppEnv, type Deps } from '../context';
import { engagementPauses } from './';
import type { Db } from '../db/open';
import { authenticate } from '../auth/guards';
import { notFound } from '../http/errors';
import { parseListQuery, type ListSpec } from '../http/query';
import { rowAtPath } from '../http/pathRow';
import { memberRead, rowDocument } from '../http/memberRead';
import { answerList } from '../http/listAnswer';
import { sendResource, toResource } from '../http/serialize';
import { fileStorage } from '../storage/storageOfDeps';
import { describe } from '../openapi/describe';
import { resourceCreation, resourceUpdate } from '../http/resourceWrites';
import {
  ENGAGEMENT_LIST_FILTERS,
  LOOKUP_NAMES,
  createEngagement,
  deleteEngagement,
  engagementById,
  engagementPage,
  findEngagement,
  loadLinks,
  toEngagement,
  updateEngagement,
  type EngagementFilters,
  type EngagementRow,
  type Links,
} from './engagements';

export { ENGAGEMENT_HAS_REFERRALS, UNKNOWN_RMS_PROVIDER, UNKNOWN_SPONSOR } from './engagements';

const listSpec: ListSpec<(typeof ENGAGEMENT_SORTS)[number], EngagementFilters> = {
  type: ENGAGEMENT_TYPE,
  sorts: ENGAGEMENT_SORTS,
  defaultSort: ENGAGEMENT_DEFAULT_SORT,
  filters: ENGAGEMENT_LIST_FILTERS,
  fields: ENGAGEMENT.names,
  includes: ENGAGEMENT_INCLUDES,
};

type Row = EngagementRow;

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

const ALL_INCLUDES = new Set<string>(ENGAGEMENT_INCLUDES);

async function sendOne(c: Parameters<typeof sendResource>[0], db: Db, id: number, now: Date, status: 200 | 201 = 200) {
  const row = await engagementById(db, id);
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

  app.get('/', describe({ summary: 'List engagements', list: listSpec, answer: { list: ENGAGEMENT } }), async (c) => {
    const user = c.get('user');
    const q = parseListQuery(new URL(c.req.url).searchParams, listSpec);
    return answerList(c, q, async (window) => {
      const { rows, total, fields, links } = await engagementPage(db, user, { ...q, ...window });
      return { data: rows.map((r) => serialize(r, fields, q.include, links)), included: includedResources(rows, q.include, links), total };
    });
  });

  const readEngagement = rowDocument(db, findEngagement, async (row, q) => {
    // The lookup lists are always part of a single engagement; their names when included.
    const links = await loadLinks(db, [row.id], LOOKUP_NAMES);
    const pause = (await engagementPauses(db, [row.id], nowOf(deps))).get(row.id) ?? null;
    return { data: serialize(row, q.fields, q.include, links, pause), included: includedResources([row], q.include, links) };
  });
  app.get(
    '/:id',
    describe({ summary: 'Read an engagement', read: listSpec, answer: { resource: ENGAGEMENT } }),
    memberRead(listSpec, 'engagement', readEngagement),
  );

  app.post('/', describe(resourceCreation('Create an engagement', ENGAGEMENT, EngagementInput)), async (c) => {
    const user = c.get('user');
    const { attributes, relationships } = await c.var.body.read();
    const id = await createEngagement(db, user, attributes, relationships);
    return sendOne(c, db, id, nowOf(deps), 201);
  });

  app.patch('/:id', describe(resourceUpdate('Update an engagement', ENGAGEMENT, EngagementPatch)), async (c) => {
    const user = c.get('user');
    const { id, row: existing } = await rowAtPath(c, 'engagement', (id) => findEngagement(db, id, user));
    const { attributes, relationships } = await c.var.body.read({ id });
    await updateEngagement(db, user, existing, attributes, relationships);
    return sendOne(c, db, id, nowOf(deps));
  });

  app.delete('/:id', describe({ summary: 'Delete an engagement', answer: { empty: true } }), async (c) => {
    const { id } = await rowAtPath(c, 'engagement', (id) => findEngagement(db, id, c.get('user')));
    const keys = await deleteEngagement(db, id);
    // The bytes go after the rows: a failure here leaves an unreferenced file, never a dangling row.
    for (const key of keys) {
      await storage.remove(key).catch((error: unknown) => deps.log.warn('could not remove a file', { key, error: String(error) }));
    }
    return c.body(null, 204);
  });

  return app;
}
