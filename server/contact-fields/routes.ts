/**
 * Contact fields (SPEC sections 3, 7; Admin or Super User): the fields of the participant's
 * contact form, with a unique machine name, a type and translated labels.
 */
import { Hono } from 'hono';
import { and, eq, ne, sql, type SQL } from 'drizzle-orm';
import {
  CONTACT_FIELD_DEFAULT_SORT,
  CONTACT_FIELD_SORTS,
  CONTACT_FIELD_TYPE,
  ContactFieldInput,
  ContactFieldPatch,
  type ContactField,
  type ContactFieldType,
} from '@core/model/contactField';
import type { AppEnv, Deps } from '../context';
import type { Db } from '../db/open';
import { contactFields } from '../db/schema';
import { STAFF_ADMIN_ROLES, authenticate, requireRole } from '../auth/guards';
import { readResource } from '../http/body';
import { conflict, notFound } from '../http/errors';
import { parseId, parseListQuery, parseReadQuery, type ListSpec } from '../http/query';
import { tablePage } from '../http/list';
import { sendList, sendResource, toResource } from '../http/serialize';
import { ilikeAny, rethrowConstraint } from '../http/sql';
import { assertTranslationLanguages } from '../languages';
import { describe } from '../openapi/describe';

export const CONTACT_FIELD_NAME_TAKEN = 'Another contact field already has this name.';

const ATTRIBUTES = ['label', 'name', 'required', 'fieldType', 'translations', 'created', 'modified'] as const;

const listSpec: ListSpec<(typeof CONTACT_FIELD_SORTS)[number], 'searchQuery'> = {
  type: CONTACT_FIELD_TYPE,
  sorts: CONTACT_FIELD_SORTS,
  defaultSort: CONTACT_FIELD_DEFAULT_SORT,
  filters: ['searchQuery'],
  fields: ATTRIBUTES,
};

const sortColumns = {
  label: contactFields.label,
  name: contactFields.name,
  fieldType: contactFields.fieldType,
  required: contactFields.required,
  created: contactFields.created,
  modified: contactFields.modified,
};

type Row = typeof contactFields.$inferSelect;

const toContactField = (row: Row): ContactField => ({
  id: String(row.id),
  label: row.label,
  name: row.name,
  required: row.required,
  fieldType: row.fieldType as ContactFieldType,
  translations: row.translations,
  created: row.created.toISOString(),
  modified: row.modified.toISOString(),
});

function serialize(row: Row, fields: Set<string> | null = null) {
  const { id, ...attributes } = toContactField(row);
  return toResource(CONTACT_FIELD_TYPE, id, attributes, { fields });
}

const nameTaken = () => conflict(CONTACT_FIELD_NAME_TAKEN, '/data/attributes/name');

async function assertNameFree(db: Db, name: string | undefined, exceptId?: number) {
  if (name === undefined) return;
  const [taken] = await db
    .select({ id: contactFields.id })
    .from(contactFields)
    .where(and(eq(contactFields.name, name), exceptId ? ne(contactFields.id, exceptId) : undefined));
  if (taken) throw nameTaken();
}

const onConstraint = (error: unknown): never => rethrowConstraint(error, { unique: nameTaken });

export function contactFieldsRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps), requireRole(...STAFF_ADMIN_ROLES));

  app.get('/', describe({ summary: 'List contact fields', list: listSpec, answer: { list: listSpec.type } }), async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, listSpec);
    const conditions: (SQL | undefined)[] = [];
    if (q.filters.searchQuery?.trim()) conditions.push(ilikeAny([contactFields.label, contactFields.name], q.filters.searchQuery));
    const where = and(...conditions);
    const { rows, total } = await tablePage(db, contactFields, q, { where, sorts: sortColumns, id: contactFields.id });
    return sendList(c, rows.map((r) => serialize(r, q.fields)), { total, page: q.page, limit: q.limit });
  });

  app.get('/:id', describe({ summary: 'Read a contact field' }), async (c) => {
    const q = parseReadQuery(new URL(c.req.url).searchParams, listSpec);
    const id = parseId(c.req.param('id'));
    const [row] = id === null ? [] : await db.select().from(contactFields).where(eq(contactFields.id, id));
    if (!row) throw notFound('contact field');
    return sendResource(c, serialize(row, q.fields));
  });

  app.post('/', describe({ summary: 'Create a contact field', body: { resource: CONTACT_FIELD_TYPE, attributes: ContactFieldInput }, answer: { resource: CONTACT_FIELD_TYPE, status: 201 } }), async (c) => {
    const { attributes } = await readResource(c, ContactFieldInput, { type: CONTACT_FIELD_TYPE });
    await assertTranslationLanguages(db, attributes.translations, '/data/attributes/translations');
    await assertNameFree(db, attributes.name);
    const [row] = await db.insert(contactFields).values(attributes).returning().catch(onConstraint);
    if (!row) throw new Error('insert returned no row');
    return sendResource(c, serialize(row), 201);
  });

  app.patch('/:id', describe({ summary: 'Update a contact field', body: { resource: CONTACT_FIELD_TYPE, attributes: ContactFieldPatch }, answer: { resource: CONTACT_FIELD_TYPE } }), async (c) => {
    const id = parseId(c.req.param('id'));
    const [existing] = id === null ? [] : await db.select().from(contactFields).where(eq(contactFields.id, id));
    if (!existing || id === null) throw notFound('contact field');
    const { attributes } = await readResource(c, ContactFieldPatch, { type: CONTACT_FIELD_TYPE, id });
    await assertTranslationLanguages(db, attributes.translations, '/data/attributes/translations');
    await assertNameFree(db, attributes.name, id);
    const [row] = await db
      .update(contactFields)
      .set({ ...attributes, modified: sql`now()` })
      .where(eq(contactFields.id, id))
      .returning()
      .catch(onConstraint);
    return sendResource(c, serialize(row as Row));
  });

  app.delete('/:id', describe({ summary: 'Delete a contact field', answer: { empty: true } }), async (c) => {
    const id = parseId(c.req.param('id'));
    const deleted = id === null ? [] : await db.delete(contactFields).where(eq(contactFields.id, id)).returning({ id: contactFields.id });
    if (deleted.length === 0) throw notFound('contact field');
    return c.body(null, 204);
  });

  return app;
}
