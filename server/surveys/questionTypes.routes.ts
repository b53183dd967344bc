/**
 * GET /api/o-forms/o-form-field-types (SPEC section 7): the question types, for the question
 * editor's picker. They are core's (core/model/survey.ts), not rows, so the list is paged here.
 */
import type { Hono } from 'hono';
import { FIELD_TYPES, FIELD_TYPE_NAMES, isChoiceType } from '@core/model/survey';
import { OFORM_FIELD_TYPE_ROW, OFORM_FIELD_TYPE_TYPE } from '@core/model/surveyDoc';
import type { AppEnv } from '../context';
import type { ListSpec } from '../http/query';
import { answerRows } from '../http/listAnswer';
import { modelResource } from '../http/serialize';
import { describe } from '../openapi/describe';

export function oFormFieldTypesRoutes(app: Hono<AppEnv>) {
  const spec: ListSpec<'name' | 'id'> = {
    type: OFORM_FIELD_TYPE_TYPE,
    sorts: ['name', 'id'],
    defaultSort: 'id',
    defaultLimit: 1000,
    fields: OFORM_FIELD_TYPE_ROW.names,
  };
  const all = FIELD_TYPES.map((type) => ({ id: type, name: FIELD_TYPE_NAMES[type], isChoice: isChoiceType(type) }));
  app.get('/o-form-field-types', describe({ summary: 'List question types', list: spec, answer: { list: OFORM_FIELD_TYPE_ROW } }), (c) =>
    answerRows(
      c,
      spec,
      async (q) => {
        const sorted = q.sort[0]?.field === 'name' ? [...all].sort((a, b) => a.name.localeCompare(b.name) * (q.sort[0]?.desc ? -1 : 1)) : all;
        return { rows: sorted.slice(q.offset, q.offset + q.limit), total: all.length };
      },
      (row, fields) => modelResource(OFORM_FIELD_TYPE_TYPE, row, fields),
    ),
  );
}
