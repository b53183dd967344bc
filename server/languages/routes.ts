/**
 * Languages (SPEC sections 3, 7; Admin or Super User): list, read, create, update, delete.
 * iso codes are stored and answered in the API form (`es_MX`); the default language (English)
 * cannot be deleted, deactivated or recoded. Renaming a code moves the translations stored
 * under it, in the same transaction.
 */
import { Hono } from 'hono';
import {
  LANGUAGE,
  LANGUAGE_DEFAULT_LIMIT,
  LANGUAGE_DEFAULT_SORT,
  LANGUAGE_SORTS,
  LANGUAGE_TYPE,
  LanguageInput,
  LanguagePatch,
  type Language,
} from '@core/model/language';
import type { AppEnv, Deps } from '../context';
import { STAFF_ADMIN_ROLES, authenticate, requireRole } from '../auth/guards';
import { conflict, invalid } from '../http/errors';
import type { ListSpec } from '../http/query';
import { answerRows } from '../http/listAnswer';
import { rowAtPath } from '../http/pathRow';
import { memberRead, rowReader } from '../http/memberRead';
import { SEARCH_AND_ACTIVE } from '../http/params';
import { sendResource, modelResource } from '../http/serialize';
import { describe } from '../openapi/describe';
import { resourceCreation, resourceUpdate } from '../http/resourceWrites';
import { LANGUAGE_MESSAGES } from './translations';
import { createLanguage, deleteLanguage, findLanguage, languagePage, updateLanguage, type LanguageRow as Row } from './languages';

const listSpec: ListSpec<(typeof LANGUAGE_SORTS)[number], typeof SEARCH_AND_ACTIVE> = {
  type: LANGUAGE_TYPE,
  sorts: LANGUAGE_SORTS,
  defaultSort: LANGUAGE_DEFAULT_SORT,
  defaultLimit: LANGUAGE_DEFAULT_LIMIT,
  filters: SEARCH_AND_ACTIVE,
  fields: LANGUAGE.names,
};

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

const serialize = (row: Row, fields: Set<string> | null = null) => modelResource(LANGUAGE_TYPE, toLanguage(row), fields);

export function languagesRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps), requireRole(...STAFF_ADMIN_ROLES));

  app.get('/', describe({ summary: 'List languages', list: listSpec, answer: { list: LANGUAGE } }), (c) =>
    answerRows(c, listSpec, (q) => languagePage(db, q), serialize),
  );

  app.get(
    '/:id',
    describe({ summary: 'Read a language', read: listSpec, answer: { resource: LANGUAGE } }),
    memberRead(
      listSpec,
      'language',
      rowReader((id) => findLanguage(db, id), serialize),
    ),
  );

  app.post('/', describe(resourceCreation('Create a language', LANGUAGE, LanguageInput)), async (c) => {
    const { attributes } = await c.var.body.read();
    return sendResource(c, serialize(await createLanguage(db, attributes)), 201);
  });

  app.patch('/:id', describe(resourceUpdate('Update a language', LANGUAGE, LanguagePatch)), async (c) => {
    const { id, row: existing } = await rowAtPath(c, 'language', (id) => findLanguage(db, id));
    const { attributes } = await c.var.body.read({ id });
    if (existing.isDefault && attributes.isActive === false) {
      throw invalid([{ pointer: '/data/attributes/isActive', detail: LANGUAGE_MESSAGES.defaultAlwaysActive }]);
    }
    const recoded = attributes.isoCode !== undefined && attributes.isoCode !== existing.isoCode;
    if (existing.isDefault && recoded) {
      throw invalid([{ pointer: '/data/attributes/isoCode', detail: LANGUAGE_MESSAGES.defaultCodeFixed }]);
    }
    return sendResource(c, serialize(await updateLanguage(db, existing, attributes)));
  });

  /** Deleting keeps the translations stored under the code (./languages.ts deleteLanguage). */
  app.delete('/:id', describe({ summary: 'Delete a language', answer: { empty: true } }), async (c) => {
    const { id, row: existing } = await rowAtPath(c, 'language', (id) => findLanguage(db, id));
    if (existing.isDefault) throw conflict(LANGUAGE_MESSAGES.defaultUndeletable);
    await deleteLanguage(db, id);
    return c.body(null, 204);
  });

  return app;
}
