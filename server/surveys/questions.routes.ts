/**
 * /api/o-forms/o-form-fields (SPEC sections 3, 4): a survey's questions. The writes are
 * server/surveys/questions.ts's, which check each question's configuration against its type
 * (core/model/survey.ts `fieldConfiguration(type)`). Scope: the surveys' (another sponsor's
 * question answers 404); a question of an approved version never changes (409).
 */
import type { Hono } from 'hono';
import type * as v from 'valibot';
import { FieldInput, FieldPatch, OFORM_FIELD } from '@core/model/surveyDoc';
import type { AppEnv, AuthUser } from '../context';
import type { Db } from '../db/open';
import { findContainer } from './pages';
import { createQuestion, deleteQuestion, findField, updateQuestion } from './questions';
import { fieldResource, toField } from './serialize';
import { loadStructure } from './structure';
import { memberRead, type MemberDocument, type MemberQuery } from '../http/memberRead';
import { createUnder, deleteAtPath, updateAtPath } from '../http/memberWrites';
import { resourceCreation, resourceUpdate } from '../http/resourceWrites';
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

export function oFormFieldsRoutes(app: Hono<AppEnv>, db: Db) {
  const question = {
    what: 'question',
    find: (id: number, user: AuthUser) => findField(db, id, user),
    read: (id: number, _q: MemberQuery, user: AuthUser) => readField(db, id, user),
  };

  app.post(
    '/o-form-fields',
    describe(resourceCreation('Create a survey question', OFORM_FIELD, FieldInput)),
    createUnder(
      question,
      { key: 'containerId', find: (id, user) => findContainer(db, id, user), unknown: UNKNOWN_CONTAINER },
      (context, attributes: v.InferOutput<typeof FieldInput>, user) => createQuestion(db, user, context, attributes),
    ),
  );

  app.get(
    '/o-form-fields/:id',
    describe({ summary: 'Read a survey question', answer: { resource: OFORM_FIELD } }),
    memberRead(null, question.what, question.read),
  );

  app.patch(
    '/o-form-fields/:id',
    describe(resourceUpdate('Update a survey question', OFORM_FIELD, FieldPatch)),
    updateAtPath(question, (context, attributes: v.InferOutput<typeof FieldPatch>, user) => updateQuestion(db, user, context, attributes)),
  );

  app.delete(
    '/o-form-fields/:id',
    describe({ summary: 'Delete a survey question', answer: { empty: true } }),
    deleteAtPath(question, (context) => deleteQuestion(db, context)),
  );
}
