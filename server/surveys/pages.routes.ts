/**
 * /api/o-forms/o-form-containers (SPEC sections 3, 4): a survey version's pages (root
 * containers) and child containers, answered with their questions. The writes are
 * server/surveys/pages.ts's. Scope: the surveys' (another sponsor's page answers 404); a page of
 * an approved version never changes (409).
 */
import type { Hono } from 'hono';
import type * as v from 'valibot';
import { ContainerInput, ContainerPatch, OFORM_CONTAINER } from '@core/model/surveyDoc';
import type { AppEnv, AuthUser } from '../context';
import type { Db } from '../db/open';
import { createContainer, deleteContainer, findContainer, updateContainer } from './pages';
import { containerResource, fieldResource, toField } from './serialize';
import { loadStructure } from './structure';
import { findForm } from './versions';
import { memberRead, type MemberDocument, type MemberQuery } from '../http/memberRead';
import { createUnder, deleteAtPath, updateAtPath } from '../http/memberWrites';
import { resourceCreation, resourceUpdate } from '../http/resourceWrites';
import { describe } from '../openapi/describe';
import { chooseFromList } from '@core/validation/chooseFromList';

const UNKNOWN_VERSION = chooseFromList('a survey version');

/** A page as the API reads it, its questions included, or null when the user has none of that id. */
async function readContainer(db: Db, id: number, user: AuthUser): Promise<MemberDocument | null> {
  const context = await findContainer(db, id, user);
  if (!context) return null;
  const structure = await loadStructure(db, context.form.id);
  const fields = structure.fields.filter((f) => f.containerId === id).map((f) => fieldResource(toField(f, structure)));
  return { data: containerResource(context.container, context.form, structure, true), included: fields };
}

export function oFormContainersRoutes(app: Hono<AppEnv>, db: Db) {
  const page = {
    what: 'page',
    find: (id: number, user: AuthUser) => findContainer(db, id, user),
    read: (id: number, _q: MemberQuery, user: AuthUser) => readContainer(db, id, user),
  };

  app.get(
    '/o-form-containers/:id',
    describe({ summary: 'Read a survey page (its questions included)', answer: { resource: OFORM_CONTAINER } }),
    memberRead(null, page.what, page.read),
  );

  app.post(
    '/o-form-containers',
    describe(resourceCreation('Create a survey page', OFORM_CONTAINER, ContainerInput)),
    createUnder(
      page,
      { key: 'oFormId', find: (id, user) => findForm(db, id, user), unknown: UNKNOWN_VERSION },
      (form, attributes: v.InferOutput<typeof ContainerInput>) => createContainer(db, form, attributes),
    ),
  );

  app.patch(
    '/o-form-containers/:id',
    describe(resourceUpdate('Update a survey page', OFORM_CONTAINER, ContainerPatch)),
    updateAtPath(page, (context, attributes: v.InferOutput<typeof ContainerPatch>) => updateContainer(db, context, attributes)),
  );

  app.delete(
    '/o-form-containers/:id',
    describe({ summary: 'Delete a survey page', answer: { empty: true } }),
    deleteAtPath(page, (context) => deleteContainer(db, context)),
  );
}
