/**
 * Lookups (SPEC sections 3 and 7): id and name lists for pickers, seeded by migration.
 * Indications and tags can also be added (POST) by any signed-in member of staff, so the
 * engagement form can create an indication it lacks.
 */
import { Hono } from 'hono';
import { LOOKUP_SORTS, activeLookupAnswer, lookupAnswer } from '@core/model/lookup';
import type { AppEnv, Deps } from '../context';
import { authenticate } from '../auth/guards';
import type { ListSpec } from '../http/query';
import { answerRows } from '../http/listAnswer';
import { memberRead, rowReader } from '../http/memberRead';
import { SEARCH_AND_ACTIVE, searchParam } from '../http/params';
import { sendResource, toResource } from '../http/serialize';
import { describe } from '../openapi/describe';
import { LOOKUP_LISTS, addLookupEntry, findLookupEntry, lookupPage, type LookupFilters, type LookupList } from './lookupLists';

/** Every lookup list takes the whole list in one page by default (SPEC: indications, tags 1000). */
function lookupRoutes(deps: Deps, list: LookupList) {
  const { type, withActive, input } = list;
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));
  const answer = withActive ? activeLookupAnswer(type) : lookupAnswer(type);
  const spec: ListSpec<(typeof LOOKUP_SORTS)[number], LookupFilters> = {
    type,
    sorts: LOOKUP_SORTS,
    defaultSort: 'name',
    defaultLimit: 1000,
    filters: withActive ? SEARCH_AND_ACTIVE : { searchQuery: searchParam },
    fields: answer.names,
  };
  const serialize = (row: Record<string, unknown>, selected: Set<string> | null = null) =>
    toResource(type, row.id as number, withActive ? { name: row.name, isActive: row.isActive } : { name: row.name }, { fields: selected });

  app.get('/', describe({ summary: "List a lookup's entries", list: spec, answer: { list: answer } }), (c) =>
    answerRows(c, spec, (q) => lookupPage(db, list, q), serialize),
  );

  app.get(
    '/:id',
    describe({ summary: 'Read a lookup entry', read: spec, answer: { resource: answer } }),
    memberRead(
      spec,
      type.replace(/-/g, ' ').replace(/s$/, ''),
      rowReader((id) => findLookupEntry(db, list, id), serialize),
    ),
  );

  if (input) {
    app.post(
      '/',
      describe({ summary: 'Create a lookup entry', body: { resource: type, attributes: input }, answer: { resource: answer, status: 201 } }),
      async (c) => {
        const { attributes } = await c.var.body.read();
        const values = withActive ? { name: attributes.name, isActive: attributes.isActive ?? true } : { name: attributes.name };
        return sendResource(c, serialize(await addLookupEntry(db, list, values)), 201);
      },
    );
  }
  return app;
}

/** Mounts every lookup under /api (paths as SPEC section 7). */
export function mountLookupRoutes(app: Hono<AppEnv>, deps: Deps) {
  for (const list of LOOKUP_LISTS) app.route(`/api/${list.type}`, lookupRoutes(deps, list));
}
