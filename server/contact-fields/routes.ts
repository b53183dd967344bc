/**
 * Contact fields (SPEC sections 3, 7; Admin or Super User): the fields of the participant's
 * contact form, with a unique machine name, a type and translated labels.
 */
import { Hono } from 'hono';
import {
  CONTACT_FIELD,
  CONTACT_FIELD_DEFAULT_SORT,
  CONTACT_FIELD_SORTS,
  CONTACT_FIELD_TYPE,
  ContactFieldInput,
  ContactFieldPatch,
  type ContactField,
  type ContactFieldType,
} from '@core/model/contactField';
import type { AppEnv, Deps } from '../context';
import { STAFF_ADMIN_ROLES, authenticate, requireRole } from '../auth/guards';
import { notFound } from '../http/errors';
import { parseId, type ListSpec } from '../http/query';
import { answerRows } from '../http/listAnswer';
import { rowAtPath } from '../http/pathRow';
import { memberRead, rowReader } from '../http/memberRead';
import { sendResource, modelResource } from '../http/serialize';
import { assertTranslationLanguages } from '../languages';
import { describe } from '../openapi/describe';
import { resourceCreation, resourceUpdate } from '../http/resourceWrites';
import {
  CONTACT_FIELD_FILTERS,
  assertNameFree,
  contactFieldPage,
  createContactField,
  deleteContactField,
  findContactField,
  updateContactField,
  type ContactFieldRow as Row,
} from './contactFields';

export { CONTACT_FIELD_NAME_TAKEN } from './contactFields';

const listSpec: ListSpec<(typeof CONTACT_FIELD_SORTS)[number], typeof CONTACT_FIELD_FILTERS> = {
  type: CONTACT_FIELD_TYPE,
  sorts: CONTACT_FIELD_SORTS,
  defaultSort: CONTACT_FIELD_DEFAULT_SORT,
  filters: CONTACT_FIELD_FILTERS,
  fields: CONTACT_FIELD.names,
};

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

const serialize = (row: Row, fields: Set<string> | null = null) => modelResource(CONTACT_FIELD_TYPE, toContactField(row), fields);

export function contactFieldsRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps), requireRole(...STAFF_ADMIN_ROLES));

  app.get('/', describe({ summary: 'List contact fields', list: listSpec, answer: { list: CONTACT_FIELD } }), (c) =>
    answerRows(c, listSpec, (q) => contactFieldPage(db, q), serialize),
  );

  app.get(
    '/:id',
    describe({ summary: 'Read a contact field', read: listSpec, answer: { resource: CONTACT_FIELD } }),
    memberRead(
      listSpec,
      'contact field',
      rowReader((id) => findContactField(db, id), serialize),
    ),
  );

  app.post('/', describe(resourceCreation('Create a contact field', CONTACT_FIELD, ContactFieldInput)), async (c) => {
    const { attributes } = await c.var.body.read();
    await assertTranslationLanguages(db, attributes.translations, '/data/attributes/translations');
    await assertNameFree(db, attributes.name);
    const row = await createContactField(db, attributes);
    return sendResource(c, serialize(row), 201);
  });

  app.patch('/:id', describe(resourceUpdate('Update a contact field', CONTACT_FIELD, ContactFieldPatch)), async (c) => {
    const { id } = await rowAtPath(c, 'contact field', (id) => findContactField(db, id));
    const { attributes } = await c.var.body.read({ id });
    await assertTranslationLanguages(db, attributes.translations, '/data/attributes/translations');
    await assertNameFree(db, attributes.name, id);
    const row = await updateContactField(db, id, attributes);
    return sendResource(c, serialize(row as Row));
  });

  app.delete('/:id', describe({ summary: 'Delete a contact field', answer: { empty: true } }), async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null || !(await deleteContactField(db, id))) throw notFound('contact field');
    return c.body(null, 204);
  });

  return app;
}
