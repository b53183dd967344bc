/**
 * /api/o-forms/o-form-fields (SPEC sections 3, 4): a survey's questions. The writes are
 * server/surveys/questions.ts's, which check each question's configuration against its type
 * (core/model/survey.ts `fieldConfiguration(type)`). Scope: the surveys' (another sponsor's
 * question answers 404); a question of an approved version never changes (409).
 */
import type { Context, Hono } from 'hono';
import { FieldInput, FieldPatch, OFORM_FIELD, OFORM_FIELD_TYPE } from '@core/model/surveyDoc';
import type { AppEnv, AuthUser } from '../context';
import type { Db } from '../db/open';
import { findContainer } from './pages';
import { createQuestion, deleteQuestion, findField, updateQuestion } from './questions';
import { fieldResource, toField } from './serialize';
import { loadStructure } from './structure';
import { requireParent } from '../http/body';
import { notFound } from '../http/errors';
import { rowAtPath } from '../http/pathRow';
import { memberRead, type MemberDocument } from '../http/memberRead';
import { sendResource } from '../http/serialize';
import { describe } from '../openapi/describe';
import { chooseFromList } from '@core/validation/chooseFromList';

const UNKNOWN_CONTAINER = chooseFromList('a page');

/** A question as the API reads it, or null when the user has none of that id. */
async function readField(db: Db, id: number, user: AuthUser): Promise<MemberDocument | null> {
  const context = await findField(db, id, user);
  const structure = context && (await loadStructure(db, context.form.id));
  const field = structure?.fields.find((f) => f.id === id);
  return structure && field ? { data: fieldResource(toField(field, structure), true) } : null;
}

async function sendField(c: Context, db: Db, id: number, user: AuthUser, status: 200 | 201 = 200) {
  const doc = await readField(db, id, user);
  if (!doc) throw notFound('question');
  return sendResource(c, doc.data, status);
}

export function oFormFieldsRoutes(app: Hono<AppEnv>, db: Db) {
  app.post(
    '/o-form-fields',
    describe({
      summary: 'Create a survey question',
      body: { resource: OFORM_FIELD_TYPE, attributes: FieldInput },
      answer: { resource: OFORM_FIELD, status: 201 },
    }),
    async (c) => {
      const user = c.get('user');
      const { attributes } = await c.var.body.read();
      const context = await requireParent(findContainer(db, attributes.containerId, user), 'containerId', UNKNOWN_CONTAINER);
      const id = await createQuestion(db, user, context, attributes);
      return sendField(c, db, id, user, 201);
    },
  );

  app.get(
    '/o-form-fields/:id',
    describe({ summary: 'Read a survey question', answer: { resource: OFORM_FIELD } }),
    memberRead(null, 'question', (id, _q, user) => readField(db, id, user)),
  );

  app.patch(
    '/o-form-fields/:id',
    describe({ summary: 'Update a survey question', body: { resource: OFORM_FIELD_TYPE, attributes: FieldPatch }, answer: { resource: OFORM_FIELD } }),
    async (c) => {
      const user = c.get('user');
      const { id, row: context } = await rowAtPath(c, 'question', (id) => findField(db, id, user));
      const { attributes } = await c.var.body.read({ id });
      await updateQuestion(db, user, context, attributes);
      return sendField(c, db, id, user);
    },
  );

  app.delete('/o-form-fields/:id', describe({ summary: 'Delete a survey question', answer: { empty: true } }), async (c) => {
    const { row: context } = await rowAtPath(c, 'question', (id) => findField(db, id, c.get('user')));
    await deleteQuestion(db, context);
    return c.body(null, 204);
  });
}
