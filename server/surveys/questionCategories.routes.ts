/**
 * GET /api/o-forms/o-form-field-categories (SPEC section 7): the question categories (the
 * question_categories lookup, seeded by migration), for the question editor's picker.
 */
import type { Hono } from 'hono';
import { OFORM_FIELD_CATEGORY_ROW, OFORM_FIELD_CATEGORY_TYPE } from '@core/model/surveyDoc';
import type { AppEnv } from '../context';
import type { Db } from '../db/open';
import type { ListSpec } from '../http/query';
import { questionCategoryPage } from './questionCategories';
import { answerRows } from '../http/listAnswer';
import { toResource } from '../http/serialize';
import { describe } from '../openapi/describe';

export function oFormFieldCategoriesRoutes(app: Hono<AppEnv>, db: Db) {
  const categorySpec: ListSpec<'name' | 'id'> = {
    type: OFORM_FIELD_CATEGORY_TYPE,
    sorts: ['name', 'id'],
    defaultSort: 'name',
    defaultLimit: 1000,
    fields: OFORM_FIELD_CATEGORY_ROW.names,
  };
  app.get('/o-form-field-categories', describe({ summary: 'List question categories', list: categorySpec, answer: { list: OFORM_FIELD_CATEGORY_ROW } }), (c) =>
    answerRows(
      c,
      categorySpec,
      (q) => questionCategoryPage(db, q),
      (r, fields) => toResource(OFORM_FIELD_CATEGORY_TYPE, r.id, { name: r.name }, { fields }),
    ),
  );
}
