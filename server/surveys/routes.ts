/**
 * Versioned surveys (oForms, SPEC sections 3, 4, 7): GET/POST /api/o-forms/o-forms and
 * GET/PATCH/DELETE /api/o-forms/o-forms/{id} — the versions of a survey identity, read with
 * their pages, questions, tags, engagement and languages (server/surveys/serialize.ts). The
 * writes are the survey domain's (server/surveys/surveys.ts). Their pages, questions, copies and
 * approval have route files of their own (pages.routes.ts, questions.routes.ts, copy.routes.ts,
 * versions.routes.ts).
 *
 * Scope: a survey belongs to an engagement; a User reaches only those of their sponsors'
 * engagements (another sponsor's survey, or any part of it, answers 404).
 * Immutability: once approved (approvedAt set) a version never changes again — every write to
 * it, its containers or fields answers 409 — except its isActive flag (toggle_active, SPEC
 * section 4), which is not content.
 */
import type { Hono } from 'hono';
import type { Resource } from '@core/jsonapi';
import { OFORM_TYPE } from '@core/model/survey';
import { OFORM, OFORM_DEFAULT_SORT, OFORM_INCLUDES, OFORM_SORTS, NewSurveyInput, SurveyVersionPatch } from '@core/model/surveyDoc';
import type { AppEnv } from '../context';
import type { Db } from '../db/open';
import { findAccessibleEngagement, UNKNOWN_ENGAGEMENT } from '../engagements';
import { formDocument, sendForm } from './serialize';
import { createSurvey, deleteSurvey, updateSurvey } from './surveys';
import { readLanguagesRelationship } from './translations';
import { FORM_LIST_FILTERS, findForm, formPage, type FormFilter } from './versions';
import { requireParent } from '../http/body';
import { parseListQuery, type ListSpec } from '../http/query';
import { rowAtPath } from '../http/pathRow';
import { memberRead } from '../http/memberRead';
import { answerList } from '../http/listAnswer';
import { resourceCreation, resourceUpdate } from '../http/resourceWrites';
import { describe } from '../openapi/describe';

const formListSpec: ListSpec<(typeof OFORM_SORTS)[number], FormFilter> = {
  type: OFORM_TYPE,
  sorts: OFORM_SORTS,
  defaultSort: OFORM_DEFAULT_SORT,
  filters: FORM_LIST_FILTERS,
  fields: OFORM.names,
  includes: OFORM_INCLUDES,
};

export function oFormsRoutes(app: Hono<AppEnv>, db: Db) {
  app.get('/o-forms', describe({ summary: 'List versioned surveys', list: formListSpec, answer: { list: OFORM } }), async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, formListSpec);
    return answerList(c, q, async (window) => {
      const { rows, total } = await formPage(db, c.get('user'), { ...q, ...window });
      const data: Resource[] = [];
      const included = new Map<string, Resource>();
      for (const row of rows) {
        const document = await formDocument(db, row, q.include, q.fields);
        data.push(document.data);
        for (const r of document.included) included.set(`${r.type}:${r.id}`, r);
      }
      return { data, included: [...included.values()], total };
    });
  });

  app.get(
    '/o-forms/:id',
    describe({ summary: 'Read a versioned survey', read: formListSpec, answer: { resource: OFORM } }),
    memberRead(formListSpec, 'survey', async (id, q, user) => {
      const row = await findForm(db, id, user);
      return row ? formDocument(db, row, q.include, q.fields) : null;
    }),
  );

  app.post('/o-forms', describe(resourceCreation('Create a versioned survey', OFORM, NewSurveyInput)), async (c) => {
    const user = c.get('user');
    const { attributes, relationships } = await c.var.body.read();
    const engagement = await requireParent(findAccessibleEngagement(db, attributes.engagementId, user), 'engagementId', UNKNOWN_ENGAGEMENT);
    const languageIds = await readLanguagesRelationship(db, relationships);
    const id = await createSurvey(db, attributes, engagement, languageIds);
    return sendForm(c, db, id, user, 201);
  });

  app.patch('/o-forms/:id', describe(resourceUpdate('Update a versioned survey', OFORM, SurveyVersionPatch)), async (c) => {
    const user = c.get('user');
    const { id } = await rowAtPath(c, 'survey', (id) => findForm(db, id, user));
    const { attributes, relationships } = await c.var.body.read({ id });
    const languageIds = await readLanguagesRelationship(db, relationships);
    await updateSurvey(db, id, attributes, languageIds);
    return sendForm(c, db, id, user);
  });

  app.delete('/o-forms/:id', describe({ summary: 'Delete a versioned survey', answer: { empty: true } }), async (c) => {
    const { id } = await rowAtPath(c, 'survey', (id) => findForm(db, id, c.get('user')));
    await deleteSurvey(db, id);
    return c.body(null, 204);
  });
}
