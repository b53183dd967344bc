/**
 * Lookups (SPEC sections 3 and 7): id and name lists for pickers, seeded by migration.
 * Indications and tags can also be added (POST) by any signed-in member of staff, so the
 * engagement form can create an indication it lacks.
 */
import { Hono } from 'hono';
import { and, eq, type AnyColumn } from 'drizzle-orm';
import type { PgTableWithColumns } from 'drizzle-orm/pg-core';
import * as v from 'valibot';
import { IndicationInput, LOOKUP_NAME_TAKEN, LOOKUP_SORTS, LOOKUP_TYPES, TagInput, type LookupType } from '@core/model/lookup';
import type { AppEnv, Deps } from '../context';
import {
  campaignTypes,
  indications,
  questionCategories,
  roles,
  tags,
  targetGroups,
  therapeuticAreas,
} from '../db/schema';
import { authenticate } from '../auth/guards';
import { readResource } from '../http/body';
import { conflict, notFound } from '../http/errors';
import { parseId, parseListQuery, parseReadQuery, type ListSpec } from '../http/query';
import { tablePage } from '../http/list';
import { sendList, sendResource, toResource } from '../http/serialize';
import { ilikeAny, parseBooleanFilter, pgErrorCode } from '../http/sql';
import { describe } from '../openapi/describe';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type LookupTable = PgTableWithColumns<any> & { id: AnyColumn; name: AnyColumn };

interface LookupOptions {
  type: LookupType;
  table: LookupTable;
  /** Indications carry isActive. */
  withActive?: boolean;
  /** The schema of a POST, when the list accepts new entries. */
  input?: v.GenericSchema<unknown, { name: string; isActive?: boolean }>;
}

/** Every lookup list takes the whole list in one page by default (SPEC: indications, tags 1000). */
function lookupRoutes(deps: Deps, { type, table, withActive, input }: LookupOptions) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));
  const fields = withActive ? ['name', 'isActive'] : ['name'];
  const spec: ListSpec<(typeof LOOKUP_SORTS)[number], 'searchQuery' | 'isActive'> = {
    type,
    sorts: LOOKUP_SORTS,
    defaultSort: 'name',
    defaultLimit: 1000,
    filters: withActive ? ['searchQuery', 'isActive'] : ['searchQuery'],
    fields,
  };
  const serialize = (row: Record<string, unknown>, selected: Set<string> | null = null) =>
    toResource(type, row.id as number, withActive ? { name: row.name, isActive: row.isActive } : { name: row.name }, { fields: selected });

  app.get('/', describe({ summary: "List a lookup's entries", list: spec, answer: { list: spec.type } }), async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, spec);
    const isActive = withActive ? parseBooleanFilter(q.filters.isActive, 'isActive') : undefined;
    const where = and(
      q.filters.searchQuery?.trim() ? ilikeAny([table.name], q.filters.searchQuery) : undefined,
      isActive !== undefined ? eq(table.isActive as AnyColumn, isActive) : undefined,
    );
    const { rows, total } = await tablePage(db, table, q, { where, sorts: { name: table.name, id: table.id }, id: table.id });
    return sendList(c, rows.map((r) => serialize(r, q.fields)), { total, page: q.page, limit: q.limit });
  });

  app.get('/:id', describe({ summary: 'Read a lookup entry' }), async (c) => {
    const q = parseReadQuery(new URL(c.req.url).searchParams, spec);
    const id = parseId(c.req.param('id'));
    const [row] = id === null ? [] : ((await db.select().from(table).where(eq(table.id, id))) as Record<string, unknown>[]);
    if (!row) throw notFound(type.replace(/-/g, ' ').replace(/s$/, ''));
    return sendResource(c, serialize(row, q.fields));
  });

  if (input) {
    app.post('/', describe({ summary: 'Create a lookup entry', body: { resource: type, attributes: input }, answer: { resource: null, status: 201 } }), async (c) => {
      const { attributes } = await readResource(c, input, { type });
      const values = withActive ? { name: attributes.name, isActive: attributes.isActive ?? true } : { name: attributes.name };
      const [row] = (await db
        .insert(table)
        .values(values)
        .returning()
        .catch((error: unknown) => {
          if (pgErrorCode(error).code === '23505') throw conflict(LOOKUP_NAME_TAKEN, '/data/attributes/name');
          throw error;
        })) as Record<string, unknown>[];
      return sendResource(c, serialize(row as Record<string, unknown>), 201);
    });
  }
  return app;
}

/** Mounts every lookup under /api (paths as SPEC section 7). */
export function mountLookupRoutes(app: Hono<AppEnv>, deps: Deps) {
  const lists: LookupOptions[] = [
    { type: LOOKUP_TYPES.campaignTypes, table: campaignTypes as LookupTable },
    { type: LOOKUP_TYPES.roles, table: roles as LookupTable },
    { type: LOOKUP_TYPES.questionCategories, table: questionCategories as LookupTable },
    { type: LOOKUP_TYPES.targetGroups, table: targetGroups as LookupTable },
    { type: LOOKUP_TYPES.therapeuticAreas, table: therapeuticAreas as LookupTable },
    { type: LOOKUP_TYPES.indications, table: indications as LookupTable, withActive: true, input: IndicationInput },
    { type: LOOKUP_TYPES.tags, table: tags as LookupTable, input: TagInput },
  ];
  for (const options of lists) app.route(`/api/${options.type}`, lookupRoutes(deps, options));
}
