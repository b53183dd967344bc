/**
 * /api/o-forms/o-form-containers (SPEC sections 3, 4): a survey version's pages (root
 * containers) and child containers, answered with their questions. The writes are
 * server/surveys/pages.ts's. Scope: the surveys' (another sponsor's page answers 404); a page of
 * an approved version never changes (409).
 */
import type { Context, Hono } from 'hono';
import { ContainerInput, ContainerPatch, OFORM_CONTAINER, OFORM_CONTAINER_TYPE } from '@core/model/surveyDoc';
import type { AppEnv, AuthUser } from '../context';
import type { Db } from '../db/open';
import { createContainer, deleteContainer, findContainer, updateContainer } from './pages';
import { containerResource, fieldResource, toField } from './serialize';
import { loadStructure } from './structure';
import { findForm } from './versions';
import { requireParent } from '../http/body';
import { notFound } from '../http/errors';
import { rowAtPath } from '../http/pathRow';
import { memberRead, type MemberDocument } from '../http/memberRead';
import { sendResource } from '../http/serialize';
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

async function sendContainer(c: Context, db: Db, id: number, user: AuthUser, status: 200 | 201 = 200) {
  const doc = await readContainer(db, id, user);
  if (!doc) throw notFound('page');
  return sendResource(c, doc.data, status, doc.included);
}

export function oFormContainersRoutes(app: Hono<AppEnv>, db: Db) {
  app.get(
    '/o-form-containers/:id',
    describe({ summary: 'Read a survey page (its questions included)', answer: { resource: OFORM_CONTAINER } }),
    memberRead(null, 'page', (id, _q, user) => readContainer(db, id, user)),
  );

  app.post(
    '/o-form-containers',
    describe({
      summary: 'Create a survey page',
      body: { resource: OFORM_CONTAINER_TYPE, attributes: ContainerInput },
      answer: { resource: OFORM_CONTAINER, status: 201 },
    }),
    async (c) => {
      const user = c.get('user');
      const { attributes } = await c.var.body.read();
      const form = await requireParent(findForm(db, attributes.oFormId, user), 'oFormId', UNKNOWN_VERSION);
      const id = await createContainer(db, form, attributes);
      return sendContainer(c, db, id, user, 201);
    },
  );

  app.patch(
    '/o-form-containers/:id',
    describe({ summary: 'Update a survey page', body: { resource: OFORM_CONTAINER_TYPE, attributes: ContainerPatch }, answer: { resource: OFORM_CONTAINER } }),
    async (c) => {
      const user = c.get('user');
      const { id, row: context } = await rowAtPath(c, 'page', (id) => findContainer(db, id, user));
      const { attributes } = await c.var.body.read({ id });
      await updateContainer(db, context, attributes);
      return sendContainer(c, db, id, user);
    },
  );

  app.delete('/o-form-containers/:id', describe({ summary: 'Delete a survey page', answer: { empty: true } }), async (c) => {
    const { row: context } = await rowAtPath(c, 'page', (id) => findContainer(db, id, c.get('user')));
    await deleteContainer(db, context);
    return c.body(null, 204);
  });
}
