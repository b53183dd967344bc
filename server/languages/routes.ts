/**
 * Languages (SPEC sections 3, 7; Admin or Super User): list, read, create, update, delete.
 * iso codes are stored and answered in the API form (`es_MX`); the default language (English)
 * cannot be deleted, deactivated or recoded. Renaming a code moves the translations stored
 * under it, in the same transaction.
 */
import { Hono } from 'hono';
import { and, eq, ne, sql, type SQL } from 'drizzle-orm';
import {
  LANGUAGE_DEFAULT_LIMIT,
  LANGUAGE_DEFAULT_SORT,
  LANGUAGE_SORTS,
  LANGUAGE_TYPE,
  LanguageInput,
  LanguagePatch,
  type Language,
} from '@core/model/language';
import type { AppEnv, Deps } from '../context';
import type { Db } from '../db/open';
import { contactFields, genericMessages, languages } from '../db/schema';
import { STAFF_ADMIN_ROLES, authenticate, requireRole } from '../auth/guards';
import { readResource } from '../http/body';
import { conflict, invalid, notFound } from '../http/errors';
import { parseId, parseListQuery, parseReadQuery, type ListSpec } from '../http/query';
import { tablePage } from '../http/list';
import { sendList, sendResource, toResource } from '../http/serialize';
import { ilikeAny, parseBooleanFilter, rethrowConstraint } from '../http/sql';
import { describe } from '../openapi/describe';
import { LANGUAGE_MESSAGES } from './translations';

const ATTRIBUTES = ['name', 'description', 'isoCode', 'isActive', 'isDefault', 'created', 'modified'] as const;

const listSpec: ListSpec<(typeof LANGUAGE_SORTS)[number], 'searchQuery' | 'isActive'> = {
  type: LANGUAGE_TYPE,
  sorts: LANGUAGE_SORTS,
  defaultSort: LANGUAGE_DEFAULT_SORT,
  defaultLimit: LANGUAGE_DEFAULT_LIMIT,
  filters: ['searchQuery', 'isActive'],
  fields: ATTRIBUTES,
};

const sortColumns = {
  name: languages.name,
  description: languages.description,
  isoCode: languages.isoCode,
  isActive: languages.isActive,
  isDefault: languages.isDefault,
  created: languages.created,
  modified: languages.modified,
};

type Row = typeof languages.$inferSelect;

export const toLanguage = (row: Row): Language => ({
  id: String(row.id),
  name: row.name,
  description: row.description,
  isoCode: row.isoCode,
  isActive: row.isActive,
  isDefault: row.isDefault,
  created: row.created.toISOString(),
  modified: row.modified.toISOString(),
});

function serialize(row: Row, fields: Set<string> | null = null) {
  const { id, ...attributes } = toLanguage(row);
  return toResource(LANGUAGE_TYPE, id, attributes, { fields });
}

const isoCodeTaken = () => conflict(LANGUAGE_MESSAGES.isoCodeTaken, '/data/attributes/isoCode');

async function assertIsoCodeFree(db: Db, isoCode: string | undefined, exceptId?: number) {
  if (isoCode === undefined) return;
  const [taken] = await db
    .select({ id: languages.id })
    .from(languages)
    .where(and(sql`lower(${languages.isoCode}) = lower(${isoCode})`, exceptId ? ne(languages.id, exceptId) : undefined));
  if (taken) throw isoCodeTaken();
}

const onConstraint = (error: unknown): never => rethrowConstraint(error, { unique: isoCodeTaken });

/** Moves every translation stored under `from` to `to` (a language's code changed). */
async function renameTranslations(tx: Db, from: string, to: string) {
  for (const table of [genericMessages, contactFields]) {
    await tx
      .update(table)
      .set({
        translations: sql`(${table.translations} - ${from}::text) || jsonb_build_object(${to}::text, ${table.translations} -> ${from}::text)`,
      })
      .where(sql`${table.translations} ? ${from}::text`);
  }
}

export function languagesRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps), requireRole(...STAFF_ADMIN_ROLES));

  app.get('/', describe({ summary: 'List languages', list: listSpec, answer: { list: listSpec.type } }), async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, listSpec);
    const isActive = parseBooleanFilter(q.filters.isActive, 'isActive');
    const conditions: (SQL | undefined)[] = [];
    if (q.filters.searchQuery?.trim()) {
      conditions.push(ilikeAny([languages.name, languages.description, languages.isoCode], q.filters.searchQuery));
    }
    if (isActive !== undefined) conditions.push(eq(languages.isActive, isActive));
    const where = and(...conditions);
    const { rows, total } = await tablePage(db, languages, q, { where, sorts: sortColumns, id: languages.id });
    return sendList(c, rows.map((r) => serialize(r, q.fields)), { total, page: q.page, limit: q.limit });
  });

  app.get('/:id', describe({ summary: 'Read a language' }), async (c) => {
    const q = parseReadQuery(new URL(c.req.url).searchParams, listSpec);
    const id = parseId(c.req.param('id'));
    const [row] = id === null ? [] : await db.select().from(languages).where(eq(languages.id, id));
    if (!row) throw notFound('language');
    return sendResource(c, serialize(row, q.fields));
  });

  app.post('/', describe({ summary: 'Create a language', body: { resource: LANGUAGE_TYPE, attributes: LanguageInput }, answer: { resource: LANGUAGE_TYPE, status: 201 } }), async (c) => {
    const { attributes } = await readResource(c, LanguageInput, { type: LANGUAGE_TYPE });
    await assertIsoCodeFree(db, attributes.isoCode);
    const [row] = await db.insert(languages).values(attributes).returning().catch(onConstraint);
    if (!row) throw new Error('insert returned no row');
    return sendResource(c, serialize(row), 201);
  });

  app.patch('/:id', describe({ summary: 'Update a language', body: { resource: LANGUAGE_TYPE, attributes: LanguagePatch }, answer: { resource: LANGUAGE_TYPE } }), async (c) => {
    const id = parseId(c.req.param('id'));
    const [existing] = id === null ? [] : await db.select().from(languages).where(eq(languages.id, id));
    if (!existing || id === null) throw notFound('language');
    const { attributes } = await readResource(c, LanguagePatch, { type: LANGUAGE_TYPE, id });
    if (existing.isDefault && attributes.isActive === false) {
      throw invalid([{ pointer: '/data/attributes/isActive', detail: LANGUAGE_MESSAGES.defaultAlwaysActive }]);
    }
    const recoded = attributes.isoCode !== undefined && attributes.isoCode !== existing.isoCode;
    if (existing.isDefault && recoded) {
      throw invalid([{ pointer: '/data/attributes/isoCode', detail: LANGUAGE_MESSAGES.defaultCodeFixed }]);
    }
    await assertIsoCodeFree(db, attributes.isoCode, id);
    const [row] = await db
      .transaction(async (tx) => {
        const updated = await tx
          .update(languages)
          .set({ ...attributes, modified: sql`now()` })
          .where(eq(languages.id, id))
          .returning();
        if (recoded && attributes.isoCode) await renameTranslations(tx, existing.isoCode, attributes.isoCode);
        return updated;
      })
      .catch(onConstraint);
    return sendResource(c, serialize(row as Row));
  });

  /**
   * Deleting keeps the translations stored under the code: they are unused while no language
   * has it, and come back if the language is added again.
   */
  app.delete('/:id', describe({ summary: 'Delete a language', answer: { empty: true } }), async (c) => {
    const id = parseId(c.req.param('id'));
    const [existing] = id === null ? [] : await db.select().from(languages).where(eq(languages.id, id));
    if (!existing || id === null) throw notFound('language');
    if (existing.isDefault) throw conflict(LANGUAGE_MESSAGES.defaultUndeletable);
    await db.delete(languages).where(and(eq(languages.id, id), eq(languages.isDefault, false)));
    return c.body(null, 204);
  });

  return app;
}
