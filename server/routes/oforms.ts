/**
 * Versioned surveys (oForms, SPEC sections 3, 4, 7: /api/o-forms/...): versions of a survey
 * identity, their pages (root containers), child containers and questions (fields), copying
 * the latest version into the next, and approving a version once. The writes are the survey
 * domain's (server/oform/surveys.ts, pages.ts, questions.ts): the authoring rules come from
 * core/oform/authoring.ts and each question's configuration is checked with
 * core/model/oform.ts `fieldConfiguration(type)` on every write.
 *
 * Scope: a survey belongs to an engagement; a User reaches only those of their sponsors'
 * engagements (another sponsor's survey, or any part of it, answers 404).
 * Immutability: once approved (approvedAt set) a version never changes again — every write to
 * it, its containers or fields answers 409 — except its isActive flag (toggle_active, SPEC
 * section 4), which is not content.
 */
import { Hono, type Context } from 'hono';
import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm';
import type { Resource } from '@core/jsonapi';
import { FIELD_TYPES, FIELD_TYPE_NAMES, OFORM_TYPE, isChoiceType } from '@core/model/oform';
import {
  ContainerInput,
  ContainerPatch,
  FieldInput,
  FieldPatch,
  OFORM_CONTAINER_TYPE,
  OFORM_COPY_TYPE,
  OFORM_DEFAULT_SORT,
  OFORM_FIELD_CATEGORY_TYPE,
  OFORM_FIELD_TYPE,
  OFORM_FIELD_TYPE_TYPE,
  OFORM_INCLUDES,
  OFORM_SORTS,
  OFORM_VERSION_TYPE,
  OFormCopyInput,
  OFormInput,
  OFormPatch,
  OFormVersionPatch,
  UNKNOWN_IDENTITY,
  VERSION_RACE,
  type ContainerType,
  type OForm,
  type OFormContainer,
  type OFormField,
  type OFormTransition,
} from '@core/model/oformDoc';
import { oFormMessagesRoutes } from './oform-messages';
import { oFormExportsRoutes } from './oform-exports';
import { copyVersion, sameIdentities } from '../oform/copy';
import { oFormTranslationsRoutes } from './oform-translations';
import { approveVersion } from '../oform/approval';
import { readLanguagesRelationship } from '../oform/translations';
import type { AppEnv, AuthUser, Deps } from '../context';
import type { Conn, Db } from '../db/open';
import { loadStructure, type ContainerRow, type Structure, type StructureField } from '../oform/structure';
import { currentVersionId, findForm, selectForms, type FormRow } from '../oform/versions';
import { createSurvey, deleteSurvey, updateSurvey } from '../oform/surveys';
import { createContainer, deleteContainer, findContainer, updateContainer } from '../oform/pages';
import { createQuestion, deleteQuestion, findField, updateQuestion } from '../oform/questions';
import {
  engagements,
  languages,
  oFormLanguages,
  oForms,
  questionCategories,
  sponsors,
} from '../db/schema';
import { authenticate } from '../auth/guards';
import { engagementScope, findAccessibleEngagement, UNKNOWN_ENGAGEMENT } from '../domain/engagementAccess';
import { readResource, requireParent } from '../http/body';
import { conflict, invalid, notFound } from '../http/errors';
import { parseId, parseListQuery, parseReadQuery, type ListSpec } from '../http/query';
import { sendList, sendResource, toResource } from '../http/serialize';
import { ilikeAny, parseBooleanFilter, pgErrorCode } from '../http/sql';
import { booleanFilter, filterConditions, filterNames, idFilter } from '../http/filters';
import { joinedPage, tablePage } from '../http/list';
import { describe } from '../openapi/describe';

export const UNKNOWN_OFORM = 'Choose a survey version from the list.';
export const UNKNOWN_CONTAINER = 'Choose a page from the list.';


// ---------------------------------------------------------------------------------------------
// Reading

/** A question as the API shows it: string ids, its container's identity, its tags. */
function toField(field: StructureField, structure: Structure): OFormField {
  return {
    id: String(field.id),
    identity: field.identity,
    containerId: String(field.containerId),
    oFormContainerIdentity: structure.containers.find((c) => c.id === field.containerId)?.identity ?? '',
    title: field.title,
    oFormFieldTypeId: field.type,
    oFormFieldCategoryId: field.categoryId === null ? null : String(field.categoryId),
    isActive: field.isActive,
    displayOrder: field.displayOrder,
    configuration: field.configuration,
    tags: field.tags.map((t) => ({ id: String(t.id), name: t.name })),
  };
}

function toContainer(row: ContainerRow, form: { identity: string }): OFormContainer {
  return {
    id: String(row.id),
    identity: row.identity,
    oFormVersionId: String(row.oFormId),
    oFormIdentity: form.identity,
    title: row.title,
    displayOrder: row.displayOrder,
    isActive: row.isActive,
    oFormContainerTypeId: row.containerType as ContainerType,
    parentId: row.parentId === null ? null : String(row.parentId),
    translations: row.translations,
  };
}

function transitionsOf(structure: Structure): OFormTransition[] {
  return structure.fields.flatMap((f) =>
    f.configuration.options
      .filter((o) => o.transition)
      .map((o) => ({
        containerIdentity: structure.containers.find((c) => c.id === f.containerId)?.identity ?? '',
        fieldIdentity: f.identity,
        optionValue: o.value,
        to: o.transition!.to,
        identity: o.transition!.to === 'end' ? null : (o.transition as { identity: string }).identity,
      })),
  );
}

function toForm(row: FormRow, structure?: Structure): OForm {
  return {
    id: String(row.id),
    identity: row.identity,
    version: row.version,
    title: row.title,
    isActive: row.isActive,
    isApproved: row.isApproved,
    approvedAt: row.approvedAt?.toISOString() ?? null,
    engagementId: String(row.engagementId),
    engagementName: row.engagementName,
    sponsorId: String(row.sponsorId),
    sponsorName: row.sponsorName,
    containerCount: row.containerCount,
    transitions: structure ? transitionsOf(structure) : [],
    created: row.created.toISOString(),
    modified: row.modified.toISOString(),
  };
}

function containerResource(row: ContainerRow, form: { identity: string }, structure: Structure, withFields: boolean): Resource {
  const { id, ...attributes } = toContainer(row, form);
  const relationships: Resource['relationships'] = {
    parentOFormContainer: { data: row.parentId === null ? null : { type: OFORM_CONTAINER_TYPE, id: String(row.parentId) } },
    childOFormContainers: {
      data: structure.containers.filter((c) => c.parentId === row.id).map((c) => ({ type: OFORM_CONTAINER_TYPE, id: String(c.id) })),
    },
  };
  if (withFields) {
    relationships.oFormFields = {
      data: structure.fields.filter((f) => f.containerId === row.id).map((f) => ({ type: OFORM_FIELD_TYPE, id: String(f.id) })),
    };
  }
  return toResource(OFORM_CONTAINER_TYPE, id, attributes, { relationships });
}

function fieldResource(field: OFormField, withTags = false): Resource {
  const { id, ...attributes } = field;
  return toResource(OFORM_FIELD_TYPE, id, attributes, {
    relationships: withTags ? { tags: { data: field.tags.map((t) => ({ type: 'tags', id: t.id })) } } : undefined,
  });
}

/** The survey with its relationships, and the resources `include` asks for. */
async function formDocument(db: Conn, row: FormRow, include: ReadonlySet<string>, fields: Set<string> | null = null) {
  const structure = await loadStructure(db, row.id);
  const formLanguages = await db
    .select({ id: languages.id, name: languages.name, description: languages.description, isoCode: languages.isoCode })
    .from(oFormLanguages)
    .innerJoin(languages, eq(languages.id, oFormLanguages.languageId))
    .where(eq(oFormLanguages.oFormId, row.id))
    .orderBy(asc(languages.name));
  const { id, ...attributes } = toForm(row, structure);
  const data = toResource(OFORM_TYPE, id, attributes, {
    fields,
    relationships: {
      oFormContainers: {
        data: structure.containers.filter((c) => c.parentId === null).map((c) => ({ type: OFORM_CONTAINER_TYPE, id: String(c.id) })),
      },
      engagement: { data: { type: 'engagements', id: String(row.engagementId) } },
      languages: { data: formLanguages.map((l) => ({ type: 'languages', id: String(l.id) })) },
      oFormVersion: { data: { type: OFORM_VERSION_TYPE, id } },
    },
  });
  const included: Resource[] = [];
  const withFields = include.has('oFormContainers.oFormFields') || include.has('oFormContainers.oFormFields.tags');
  const withTags = include.has('oFormContainers.oFormFields.tags');
  if (include.has('oFormContainers') || withFields) {
    included.push(...structure.containers.map((c) => containerResource(c, row, structure, withFields)));
  }
  if (withFields) included.push(...structure.fields.map((f) => fieldResource(toField(f, structure), withTags)));
  if (withTags) {
    const seen = new Map<number, Resource>();
    for (const t of structure.fields.flatMap((f) => f.tags)) seen.set(t.id, toResource('tags', t.id, { name: t.name }));
    included.push(...seen.values());
  }
  if (include.has('engagement') || include.has('engagement.sponsor')) {
    included.push(
      toResource(
        'engagements',
        row.engagementId,
        { name: row.engagementName, sponsorId: String(row.sponsorId), sponsorName: row.sponsorName },
        { relationships: { sponsor: { data: { type: 'sponsors', id: String(row.sponsorId) } } } },
      ),
    );
  }
  if (include.has('engagement.sponsor')) included.push(toResource('sponsors', row.sponsorId, { name: row.sponsorName }));
  if (include.has('languages')) {
    included.push(...formLanguages.map((l) => toResource('languages', l.id, { name: l.name, description: l.description, isoCode: l.isoCode })));
  }
  return { data, included };
}

const ALL_INCLUDES: ReadonlySet<string> = new Set(OFORM_INCLUDES);

async function sendForm(c: Context, db: Db, id: number, user: AuthUser, status: 200 | 201 = 200) {
  const row = await findForm(db, id, user);
  if (!row) throw notFound('survey');
  const { data, included } = await formDocument(db, row, ALL_INCLUDES);
  return sendResource(c, data, status, included);
}

// ---------------------------------------------------------------------------------------------
// Routes: surveys (versions)

const FORM_ATTRIBUTES: readonly (keyof Omit<OForm, 'id'>)[] = [
  'identity',
  'version',
  'title',
  'isActive',
  'isApproved',
  'approvedAt',
  'engagementId',
  'engagementName',
  'sponsorId',
  'sponsorName',
  'containerCount',
  'transitions',
  'created',
  'modified',
];

const FORM_FILTERS = {
  engagementId: idFilter(oForms.engagementId, 'engagement'),
  sponsorId: idFilter(engagements.sponsorId, 'sponsor'),
  isActive: booleanFilter(oForms.isActive),
};

const formListSpec: ListSpec<(typeof OFORM_SORTS)[number], 'identity' | 'approvedOnly' | 'currentOnly' | 'searchQuery' | keyof typeof FORM_FILTERS> = {
  type: OFORM_TYPE,
  sorts: OFORM_SORTS,
  defaultSort: OFORM_DEFAULT_SORT,
  filters: ['identity', 'approvedOnly', 'currentOnly', 'searchQuery', ...filterNames(FORM_FILTERS)],
  fields: FORM_ATTRIBUTES,
  includes: OFORM_INCLUDES,
};
const formSortColumns = {
  title: oForms.title,
  version: oForms.version,
  isActive: oForms.isActive,
  isApproved: oForms.isApproved,
  engagementName: engagements.name,
  sponsorName: sponsors.name,
  created: oForms.created,
  modified: oForms.modified,
};

function formsRoutes(app: Hono<AppEnv>, db: Db) {
  app.get('/o-forms', describe({ summary: 'List versioned surveys', list: formListSpec, answer: { list: formListSpec.type } }), async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, formListSpec);
    const conditions: (SQL | undefined)[] = [engagementScope(c.get('user')), ...filterConditions(q.filters, FORM_FILTERS)];
    if (q.filters.identity !== undefined) conditions.push(eq(oForms.identity, q.filters.identity));
    if (parseBooleanFilter(q.filters.approvedOnly, 'approvedOnly')) conditions.push(eq(oForms.isApproved, true));
    // One row per survey: the version that stands for it (for picking a survey by its title).
    if (parseBooleanFilter(q.filters.currentOnly, 'currentOnly')) conditions.push(eq(oForms.id, currentVersionId(oForms.identity)));
    if (q.filters.searchQuery?.trim()) conditions.push(ilikeAny([oForms.title, oForms.identity, engagements.name, sponsors.name], q.filters.searchQuery));
    const where = and(...conditions);
    const counted = db
      .select({ n: count() })
      .from(oForms)
      .innerJoin(engagements, eq(engagements.id, oForms.engagementId))
      .innerJoin(sponsors, eq(sponsors.id, engagements.sponsorId))
      .$dynamic();
    const { rows, total } = await joinedPage(selectForms(db).$dynamic(), counted, q, { where, sorts: formSortColumns, id: oForms.id });
    const data: Resource[] = [];
    const included = new Map<string, Resource>();
    for (const row of rows) {
      const document = await formDocument(db, row, q.include, q.fields);
      data.push(document.data);
      for (const r of document.included) included.set(`${r.type}:${r.id}`, r);
    }
    return sendList(c, data, { total, page: q.page, limit: q.limit }, [...included.values()]);
  });

  app.get('/o-forms/:id', describe({ summary: 'Read a versioned survey' }), async (c) => {
    const q = parseReadQuery(new URL(c.req.url).searchParams, formListSpec);
    const row = await findForm(db, parseId(c.req.param('id')), c.get('user'));
    if (!row) throw notFound('survey');
    const { data, included } = await formDocument(db, row, q.include, q.fields);
    return sendResource(c, data, 200, included);
  });

  app.post('/o-forms', describe({ summary: 'Create a versioned survey', body: { resource: OFORM_TYPE, attributes: OFormInput }, answer: { resource: OFORM_TYPE, status: 201 } }), async (c) => {
    const user = c.get('user');
    const { attributes, relationships } = await readResource(c, OFormInput, { type: OFORM_TYPE });
    const engagement = await requireParent(findAccessibleEngagement(db, attributes.engagementId, user), 'engagementId', UNKNOWN_ENGAGEMENT);
    const languageIds = await readLanguagesRelationship(db, relationships);
    const id = await createSurvey(db, attributes, engagement, languageIds);
    return sendForm(c, db, id, user, 201);
  });

  app.patch('/o-forms/:id', describe({ summary: 'Update a versioned survey', body: { resource: OFORM_TYPE, attributes: OFormPatch }, answer: { resource: OFORM_TYPE } }), async (c) => {
    const user = c.get('user');
    const id = parseId(c.req.param('id'));
    const existing = await findForm(db, id, user);
    if (!existing || id === null) throw notFound('survey');
    const { attributes, relationships } = await readResource(c, OFormPatch, { type: OFORM_TYPE, id });
    const languageIds = await readLanguagesRelationship(db, relationships);
    await updateSurvey(db, id, attributes, languageIds);
    return sendForm(c, db, id, user);
  });

  app.delete('/o-forms/:id', describe({ summary: 'Delete a versioned survey', answer: { empty: true } }), async (c) => {
    const id = parseId(c.req.param('id'));
    const existing = await findForm(db, id, c.get('user'));
    if (!existing || id === null) throw notFound('survey');
    await deleteSurvey(db, id);
    return c.body(null, 204);
  });

  /** The next version of an identity: a deep copy of its latest, same identities, new ids. */
  app.post('/o-form-copy', describe({ summary: 'Copy a survey version (new version or new survey)', body: { resource: OFORM_COPY_TYPE, attributes: OFormCopyInput }, answer: { resource: OFORM_COPY_TYPE, status: 201 } }), async (c) => {
    const user = c.get('user');
    const { attributes } = await readResource(c, OFormCopyInput, { type: OFORM_COPY_TYPE });
    const identity = attributes.copy_identity;
    const [latest] = await selectForms(db)
      .where(and(eq(oForms.identity, identity), engagementScope(user)))
      .orderBy(sql`${oForms.version} desc`)
      .limit(1);
    if (!latest) throw invalid([{ pointer: '/data/attributes/copy_identity', detail: UNKNOWN_IDENTITY }]);
    const id = await db
      .transaction((tx) => copyVersion(tx, latest.id, sameIdentities(identity)))
      .catch((error: unknown) => {
        if (pgErrorCode(error).code === '23505') throw conflict(VERSION_RACE);
        throw error;
      });
    return sendForm(c, db, id, user, 201);
  });

  const versionResource = (row: { id: number; identity: string; version: number; isApproved: boolean; approvedAt: Date | null }) =>
    toResource(OFORM_VERSION_TYPE, row.id, {
      identity: row.identity,
      version: row.version,
      isApproved: row.isApproved,
      approvedAt: row.approvedAt?.toISOString() ?? null,
    });

  /** A version's approval state (what PATCH changes; the audit trail reads it as the old values). */
  app.get('/o-form-versions/:id', describe({ summary: 'Read a survey version with its pages and questions' }), async (c) => {
    const row = await findForm(db, parseId(c.req.param('id')), c.get('user'));
    if (!row) throw notFound('survey version');
    return sendResource(c, versionResource(row));
  });

  /** Approves a version once; the identity's previously approved version stops being the approved one. */
  app.patch('/o-form-versions/:id', describe({ summary: 'Update a survey version (approve, rename)', body: { resource: OFORM_VERSION_TYPE, attributes: OFormVersionPatch }, answer: { resource: OFORM_VERSION_TYPE } }), async (c) => {
    const user = c.get('user');
    const id = parseId(c.req.param('id'));
    const existing = await findForm(db, id, user);
    if (!existing || id === null) throw notFound('survey version');
    await readResource(c, OFormVersionPatch, { type: OFORM_VERSION_TYPE, id });
    await approveVersion(db, { id, identity: existing.identity }, user.id);
    const row = await findForm(db, id, user);
    if (!row) throw notFound('survey version');
    return sendResource(c, versionResource(row));
  });
}

// ---------------------------------------------------------------------------------------------
// Routes: containers (pages) and fields (questions)

async function sendContainer(c: Context, db: Db, id: number, user: AuthUser, status: 200 | 201 = 200) {
  const context = await findContainer(db, id, user);
  if (!context) throw notFound('page');
  const structure = await loadStructure(db, context.form.id);
  const fields = structure.fields.filter((f) => f.containerId === id).map((f) => fieldResource(toField(f, structure)));
  return sendResource(c, containerResource(context.container, context.form, structure, true), status, fields);
}

function containersRoutes(app: Hono<AppEnv>, db: Db) {
  app.get('/o-form-containers/:id', describe({ summary: 'Read a survey page' }), async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) throw notFound('page');
    return sendContainer(c, db, id, c.get('user'));
  });

  app.post('/o-form-containers', describe({ summary: 'Create a survey page', body: { resource: OFORM_CONTAINER_TYPE, attributes: ContainerInput }, answer: { resource: OFORM_CONTAINER_TYPE, status: 201 } }), async (c) => {
    const user = c.get('user');
    const { attributes } = await readResource(c, ContainerInput, { type: OFORM_CONTAINER_TYPE });
    const form = await requireParent(findForm(db, attributes.oFormId, user), 'oFormId', UNKNOWN_OFORM);
    const id = await createContainer(db, form, attributes);
    return sendContainer(c, db, id, user, 201);
  });

  app.patch('/o-form-containers/:id', describe({ summary: 'Update a survey page', body: { resource: OFORM_CONTAINER_TYPE, attributes: ContainerPatch }, answer: { resource: OFORM_CONTAINER_TYPE } }), async (c) => {
    const user = c.get('user');
    const id = parseId(c.req.param('id'));
    const context = await findContainer(db, id, user);
    if (!context || id === null) throw notFound('page');
    const { attributes } = await readResource(c, ContainerPatch, { type: OFORM_CONTAINER_TYPE, id });
    await updateContainer(db, context, attributes);
    return sendContainer(c, db, id, user);
  });

  app.delete('/o-form-containers/:id', describe({ summary: 'Delete a survey page', answer: { empty: true } }), async (c) => {
    const id = parseId(c.req.param('id'));
    const context = await findContainer(db, id, c.get('user'));
    if (!context || id === null) throw notFound('page');
    await deleteContainer(db, context);
    return c.body(null, 204);
  });
}

async function sendField(c: Context, db: Db, id: number, user: AuthUser, status: 200 | 201 = 200) {
  const context = await findField(db, id, user);
  const structure = context && (await loadStructure(db, context.form.id));
  const field = structure?.fields.find((f) => f.id === id);
  if (!structure || !field) throw notFound('question');
  return sendResource(c, fieldResource(toField(field, structure), true), status);
}

function fieldsRoutes(app: Hono<AppEnv>, db: Db) {
  app.post('/o-form-fields', describe({ summary: 'Create a survey question', body: { resource: OFORM_FIELD_TYPE, attributes: FieldInput }, answer: { resource: OFORM_FIELD_TYPE, status: 201 } }), async (c) => {
    const user = c.get('user');
    const { attributes } = await readResource(c, FieldInput, { type: OFORM_FIELD_TYPE });
    const context = await requireParent(findContainer(db, attributes.containerId, user), 'containerId', UNKNOWN_CONTAINER);
    const id = await createQuestion(db, user, context, attributes);
    return sendField(c, db, id, user, 201);
  });

  app.get('/o-form-fields/:id', describe({ summary: 'Read a survey question' }), async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) throw notFound('question');
    return sendField(c, db, id, c.get('user'));
  });

  app.patch('/o-form-fields/:id', describe({ summary: 'Update a survey question', body: { resource: OFORM_FIELD_TYPE, attributes: FieldPatch }, answer: { resource: OFORM_FIELD_TYPE } }), async (c) => {
    const user = c.get('user');
    const id = parseId(c.req.param('id'));
    const context = await findField(db, id, user);
    if (!context || id === null) throw notFound('question');
    const { attributes } = await readResource(c, FieldPatch, { type: OFORM_FIELD_TYPE, id });
    await updateQuestion(db, user, context, attributes);
    return sendField(c, db, id, user);
  });

  app.delete('/o-form-fields/:id', describe({ summary: 'Delete a survey question', answer: { empty: true } }), async (c) => {
    const id = parseId(c.req.param('id'));
    const context = await findField(db, id, c.get('user'));
    if (!context || id === null) throw notFound('question');
    await deleteQuestion(db, context);
    return c.body(null, 204);
  });
}

// ---------------------------------------------------------------------------------------------
// Lookups

function lookupsRoutes(app: Hono<AppEnv>, db: Db) {
  const spec: ListSpec<'name' | 'id'> = { type: OFORM_FIELD_TYPE_TYPE, sorts: ['name', 'id'], defaultSort: 'id', defaultLimit: 1000, fields: ['name', 'isChoice'] };
  app.get('/o-form-field-types', describe({ summary: 'List question types', list: spec, answer: { list: spec.type } }), (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, spec);
    const all = FIELD_TYPES.map((type) => ({ id: type, name: FIELD_TYPE_NAMES[type], isChoice: isChoiceType(type) }));
    const sorted = q.sort[0]?.field === 'name' ? [...all].sort((a, b) => a.name.localeCompare(b.name) * (q.sort[0]?.desc ? -1 : 1)) : all;
    const page = sorted.slice(q.offset, q.offset + q.limit);
    return sendList(c, page.map(({ id, ...a }) => toResource(OFORM_FIELD_TYPE_TYPE, id, a, { fields: q.fields })), {
      total: all.length,
      page: q.page,
      limit: q.limit,
    });
  });

  const categorySpec: ListSpec<'name' | 'id'> = { type: OFORM_FIELD_CATEGORY_TYPE, sorts: ['name', 'id'], defaultSort: 'name', defaultLimit: 1000, fields: ['name'] };
  app.get('/o-form-field-categories', describe({ summary: 'List question categories', list: categorySpec, answer: { list: categorySpec.type } }), async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, categorySpec);
    const sorts = { name: questionCategories.name, id: questionCategories.id };
    const { rows, total } = await tablePage(db, questionCategories, q, { sorts, id: questionCategories.id });
    return sendList(c, rows.map((r) => toResource(OFORM_FIELD_CATEGORY_TYPE, r.id, { name: r.name }, { fields: q.fields })), {
      total,
      page: q.page,
      limit: q.limit,
    });
  });
}

/** Every /api/o-forms/... resource, as one sub-app. */
export function oFormsRoutes(deps: Deps) {
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));
  lookupsRoutes(app, deps.db);
  formsRoutes(app, deps.db);
  containersRoutes(app, deps.db);
  fieldsRoutes(app, deps.db);
  oFormMessagesRoutes(app, deps.db);
  oFormTranslationsRoutes(app, deps.db);
  oFormExportsRoutes(app, deps.db);
  return app;
}
