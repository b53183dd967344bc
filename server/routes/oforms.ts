/**
 * Versioned surveys (oForms, SPEC sections 3, 4, 7: /api/o-forms/...): versions of a survey
 * identity, their pages (root containers), child containers and questions (fields), copying
 * the latest version into the next, and approving a version once. The authoring rules come
 * from core/oform/authoring.ts and each question's configuration is checked with
 * core/model/oform.ts `fieldConfiguration(type)` on every write.
 *
 * Scope: a survey belongs to an engagement; a User reaches only those of their sponsors'
 * engagements (another sponsor's survey, or any part of it, answers 404).
 * Immutability: once approved (approvedAt set) a version never changes again — every write to
 * it, its containers or fields answers 409 — except its isActive flag (toggle_active, SPEC
 * section 4), which is not content.
 */
import { randomUUID } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { and, asc, count, eq, ne, sql, type SQL } from 'drizzle-orm';
import * as v from 'valibot';
import type { Resource } from '@core/jsonapi';
import { toFieldIssues, type FieldIssue } from '@core/model/fields';
import { FIELD_TYPES, FIELD_TYPE_NAMES, OFORM_TYPE, fieldConfiguration, isChoiceType, type FieldConfiguration, type FieldType } from '@core/model/oform';
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
  PARENT_CONTAINER_INVALID,
  TRANSITION_PAGE_INVALID,
  TRANSITION_SURVEY_INVALID,
  UNKNOWN_IDENTITY,
  VERSION_RACE,
  type ContainerType,
  type OForm,
  type OFormContainer,
  type OFormField,
  type OFormTransition,
} from '@core/model/oformDoc';
import {
  DOB_PAGE_IS_TARGET,
  PLACEHOLDER_TITLE,
  newPageTitle,
  optionsJumpingTo,
  pageInUseMessage,
  transitionTargets,
  withAuthoringDefaults,
} from '@core/oform/authoring';
import { oFormMessagesRoutes } from './oform-messages';
import { oFormExportsRoutes } from './oform-exports';
import { copyVersion, sameIdentities } from '../oform/copy';
import { oFormTranslationsRoutes } from './oform-translations';
import { approveVersion } from '../oform/approval';
import { readLanguagesRelationship, writeFormLanguages } from '../oform/translations';
import type { AppEnv, AuthUser, Deps } from '../context';
import type { Conn, Db, Tx } from '../db/open';
import { loadStructure, pageOf, type ContainerRow, type Structure, type StructureField } from '../oform/structure';
import { closeGaps, moveTo } from '../oform/ordering';
import { assertCategory, assertTags, writeTags } from '../oform/tagging';
import { currentVersionId, findForm, lockEditable, selectForms, type FormRow } from '../oform/versions';
import {
  engagements,
  languages,
  oFormContainers,
  oFormFields,
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
// Writing

interface ContainerContext {
  container: ContainerRow;
  form: FormRow;
}
interface FieldContext extends ContainerContext {
  field: typeof oFormFields.$inferSelect;
}

async function findContainer(db: Conn, id: number | null, user: AuthUser): Promise<ContainerContext | undefined> {
  if (id === null) return undefined;
  const [container] = await db.select().from(oFormContainers).where(eq(oFormContainers.id, id));
  const form = container && (await findForm(db, container.oFormId, user));
  return container && form ? { container, form } : undefined;
}

async function findField(db: Conn, id: number | null, user: AuthUser): Promise<FieldContext | undefined> {
  if (id === null) return undefined;
  const [field] = await db.select().from(oFormFields).where(eq(oFormFields.id, id));
  const context = field && (await findContainer(db, field.containerId, user));
  return field && context ? { ...context, field } : undefined;
}

const containerSiblings = (tx: Tx, formId: number, parentId: number | null) =>
  tx
    .select({ id: oFormContainers.id, displayOrder: oFormContainers.displayOrder })
    .from(oFormContainers)
    .where(
      and(
        eq(oFormContainers.oFormId, formId),
        parentId === null ? sql`${oFormContainers.parentId} is null` : eq(oFormContainers.parentId, parentId),
      ),
    )
    .orderBy(asc(oFormContainers.displayOrder), asc(oFormContainers.id));
const fieldSiblings = (tx: Tx, containerId: number) =>
  tx
    .select({ id: oFormFields.id, displayOrder: oFormFields.displayOrder })
    .from(oFormFields)
    .where(eq(oFormFields.containerId, containerId))
    .orderBy(asc(oFormFields.displayOrder), asc(oFormFields.id));

/** Keeps containerCount (the progress bar's maximum) equal to the number of pages. */
async function recountPages(tx: Tx, formId: number) {
  const [n] = await tx
    .select({ n: count() })
    .from(oFormContainers)
    .where(and(eq(oFormContainers.oFormId, formId), sql`${oFormContainers.parentId} is null`));
  await tx.update(oForms).set({ containerCount: n?.n ?? 0 }).where(eq(oForms.id, formId));
}

/** The configuration as it will be stored: valid for `type`, with the authoring defaults. */
function parseConfiguration(type: FieldType, raw: unknown): FieldConfiguration {
  const parsed = v.safeParse(fieldConfiguration(type), raw ?? {});
  if (!parsed.success) throw invalid(toFieldIssues(parsed.issues, '/data/attributes/configuration'));
  return withAuthoringDefaults(type, parsed.output);
}

/** Pages as core/oform/authoring.ts sees them, with the written field as it will be. */
function pageSummaries(structure: Structure, written?: { id: number | null; containerId: number; type: FieldType }) {
  const fields = structure.fields.filter((f) => f.id !== written?.id).map((f) => ({ containerId: f.containerId, type: f.type }));
  if (written) fields.push({ containerId: written.containerId, type: written.type });
  return structure.containers
    .filter((c) => c.parentId === null)
    .map((page) => ({
      identity: page.identity,
      title: page.title,
      displayOrder: page.displayOrder,
      fieldTypes: fields.filter((f) => pageOf(structure.containers, f.containerId)?.id === page.id).map((f) => f.type),
    }));
}

/**
 * Every option's transition must lead somewhere it may: a page of this version that
 * `transitionTargets` offers (not the question's own page, not an all-dob page), the end, or
 * another survey identity. And no page options jump to may become all date-of-birth.
 */
async function assertTransitions(
  tx: Tx,
  user: AuthUser,
  context: ContainerContext,
  written: { id: number | null; type: FieldType; configuration: FieldConfiguration; typeChanged: boolean },
) {
  const structure = await loadStructure(tx, context.form.id);
  const summaries = pageSummaries(structure, { id: written.id, containerId: context.container.id, type: written.type });
  const ownPage = pageOf(structure.containers, context.container.id);
  const offered = new Set(transitionTargets(summaries, ownPage?.identity).map((p) => p.identity));
  const issues: FieldIssue[] = [];
  for (const [i, option] of written.configuration.options.entries()) {
    const t = option.transition;
    const pointer = `/data/attributes/configuration/options/${i}/transition/identity`;
    if (t?.to === 'page' && !offered.has(t.identity)) issues.push({ pointer, detail: TRANSITION_PAGE_INVALID });
    if (t?.to === 'survey') {
      // Another survey the user may reach (another sponsor's identities are not confirmed).
      const [other] = await tx
        .select({ id: oForms.id })
        .from(oForms)
        .innerJoin(engagements, eq(engagements.id, oForms.engagementId))
        .where(and(eq(oForms.identity, t.identity), ne(oForms.identity, context.form.identity), engagementScope(user)))
        .limit(1);
      if (!other) issues.push({ pointer, detail: TRANSITION_SURVEY_INVALID });
    }
  }
  if (issues.length) throw invalid(issues);
  if (written.typeChanged && written.type === 'dob' && ownPage) {
    const page = summaries.find((p) => p.identity === ownPage.identity);
    const others = structure.fields.filter((f) => f.id !== written.id && pageOf(structure.containers, f.containerId)?.id !== ownPage.id);
    if (page?.fieldTypes.every((t) => t === 'dob') && optionsJumpingTo(others, ownPage.identity).length) {
      throw invalid([{ pointer: '/data/attributes/oFormFieldTypeId', detail: DOB_PAGE_IS_TARGET }]);
    }
  }
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
    const id = await db.transaction(async (tx) => {
      const [created] = await tx
        .insert(oForms)
        .values({ ...attributes, identity: randomUUID(), version: 1, sponsorId: engagement.sponsorId, containerCount: 1 })
        .returning({ id: oForms.id });
      if (!created) throw new Error('insert returned no row');
      await tx.insert(oFormContainers).values({ oFormId: created.id, identity: randomUUID(), title: newPageTitle(0), displayOrder: 1 });
      await writeFormLanguages(tx, created.id, languageIds ?? []);
      return created.id;
    });
    return sendForm(c, db, id, user, 201);
  });

  app.patch('/o-forms/:id', describe({ summary: 'Update a versioned survey', body: { resource: OFORM_TYPE, attributes: OFormPatch }, answer: { resource: OFORM_TYPE } }), async (c) => {
    const user = c.get('user');
    const id = parseId(c.req.param('id'));
    const existing = await findForm(db, id, user);
    if (!existing || id === null) throw notFound('survey');
    const { attributes, relationships } = await readResource(c, OFormPatch, { type: OFORM_TYPE, id });
    const languageIds = await readLanguagesRelationship(db, relationships);
    await db.transaction(async (tx) => {
      // isActive alone (toggle_active) is not content: an approved version may still be switched.
      const onlyActive = Object.keys(attributes).every((k) => k === 'isActive') && languageIds === undefined;
      if (!onlyActive) await lockEditable(tx, id);
      if (Object.keys(attributes).length) await tx.update(oForms).set({ ...attributes, modified: sql`now()` }).where(eq(oForms.id, id));
      if (languageIds !== undefined) await writeFormLanguages(tx, id, languageIds);
    });
    return sendForm(c, db, id, user);
  });

  app.delete('/o-forms/:id', describe({ summary: 'Delete a versioned survey', answer: { empty: true } }), async (c) => {
    const id = parseId(c.req.param('id'));
    const existing = await findForm(db, id, c.get('user'));
    if (!existing || id === null) throw notFound('survey');
    await db.transaction(async (tx) => {
      await lockEditable(tx, id);
      await tx.delete(oForms).where(eq(oForms.id, id));
    });
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
    const id = await db.transaction(async (tx) => {
      await lockEditable(tx, form.id);
      if (attributes.parentId !== null) {
        const [parent] = await tx.select().from(oFormContainers).where(eq(oFormContainers.id, attributes.parentId));
        if (!parent || parent.oFormId !== form.id || parent.parentId !== null) {
          throw invalid([{ pointer: '/data/attributes/parentId', detail: PARENT_CONTAINER_INVALID }]);
        }
      }
      const siblings = await containerSiblings(tx, form.id, attributes.parentId);
      const pages = attributes.parentId === null ? siblings.length : (await containerSiblings(tx, form.id, null)).length;
      const [created] = await tx
        .insert(oFormContainers)
        .values({
          oFormId: form.id,
          identity: randomUUID(),
          title: attributes.title ?? newPageTitle(pages),
          isActive: attributes.isActive,
          containerType: attributes.parentId === null ? 'root_container' : 'child_container',
          parentId: attributes.parentId,
          displayOrder: siblings.length + 1,
          translations: attributes.translations,
        })
        .returning({ id: oFormContainers.id });
      if (!created) throw new Error('insert returned no row');
      await closeGaps(tx, oFormContainers, siblings);
      await recountPages(tx, form.id);
      return created.id;
    });
    return sendContainer(c, db, id, user, 201);
  });

  app.patch('/o-form-containers/:id', describe({ summary: 'Update a survey page', body: { resource: OFORM_CONTAINER_TYPE, attributes: ContainerPatch }, answer: { resource: OFORM_CONTAINER_TYPE } }), async (c) => {
    const user = c.get('user');
    const id = parseId(c.req.param('id'));
    const context = await findContainer(db, id, user);
    if (!context || id === null) throw notFound('page');
    const { attributes } = await readResource(c, ContainerPatch, { type: OFORM_CONTAINER_TYPE, id });
    const { displayOrder, ...rest } = attributes;
    await db.transaction(async (tx) => {
      await lockEditable(tx, context.form.id);
      if (Object.keys(rest).length) await tx.update(oFormContainers).set(rest).where(eq(oFormContainers.id, id));
      if (displayOrder !== undefined) {
        await moveTo(tx, oFormContainers, await containerSiblings(tx, context.form.id, context.container.parentId), id, displayOrder);
      }
    });
    return sendContainer(c, db, id, user);
  });

  app.delete('/o-form-containers/:id', describe({ summary: 'Delete a survey page', answer: { empty: true } }), async (c) => {
    const id = parseId(c.req.param('id'));
    const context = await findContainer(db, id, c.get('user'));
    if (!context || id === null) throw notFound('page');
    await db.transaction(async (tx) => {
      await lockEditable(tx, context.form.id);
      const structure = await loadStructure(tx, context.form.id);
      // Options outside the page (and its child containers) that jump to it.
      const inside = new Set(structure.containers.filter((x) => x.id === id || x.parentId === id).map((x) => x.id));
      const refs = optionsJumpingTo(
        structure.fields.filter((f) => !inside.has(f.containerId)),
        context.container.identity,
      );
      if (refs.length) throw conflict(pageInUseMessage(refs));
      await tx.delete(oFormContainers).where(eq(oFormContainers.id, id));
      await closeGaps(tx, oFormContainers, await containerSiblings(tx, context.form.id, context.container.parentId));
      await recountPages(tx, context.form.id);
    });
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
    const type = attributes.oFormFieldTypeId ?? 'placeholder';
    const configuration = parseConfiguration(type, attributes.configuration);
    await assertCategory(db, attributes.categoryId, '/data/attributes/categoryId');
    await assertTags(db, attributes.tagIds);
    const id = await db.transaction(async (tx) => {
      await lockEditable(tx, context.form.id);
      await assertTransitions(tx, user, context, { id: null, type, configuration, typeChanged: true });
      const siblings = await fieldSiblings(tx, context.container.id);
      const [created] = await tx
        .insert(oFormFields)
        .values({
          identity: randomUUID(),
          containerId: context.container.id,
          title: attributes.title ?? PLACEHOLDER_TITLE,
          type,
          categoryId: attributes.categoryId ?? null,
          isActive: attributes.isActive,
          displayOrder: siblings.length + 1,
          configuration,
        })
        .returning({ id: oFormFields.id });
      if (!created) throw new Error('insert returned no row');
      await closeGaps(tx, oFormFields, siblings);
      await writeTags(tx, { field: created.id }, attributes.tagIds);
      return created.id;
    });
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
    const { tagIds, displayOrder, configuration: rawConfiguration, oFormFieldTypeId: newType, ...values } = attributes;
    const type = newType ?? (context.field.type as FieldType);
    const typeChanged = type !== context.field.type;
    const configuration =
      rawConfiguration !== undefined || typeChanged ? parseConfiguration(type, rawConfiguration ?? context.field.configuration) : undefined;
    await assertCategory(db, values.categoryId, '/data/attributes/categoryId');
    await assertTags(db, tagIds);
    await db.transaction(async (tx) => {
      await lockEditable(tx, context.form.id);
      if (configuration) await assertTransitions(tx, user, context, { id, type, configuration, typeChanged });
      const set = { ...values, ...(typeChanged ? { type } : {}), ...(configuration ? { configuration } : {}) };
      if (Object.keys(set).length) await tx.update(oFormFields).set(set).where(eq(oFormFields.id, id));
      await writeTags(tx, { field: id }, tagIds);
      if (displayOrder !== undefined) await moveTo(tx, oFormFields, await fieldSiblings(tx, context.container.id), id, displayOrder);
    });
    return sendField(c, db, id, user);
  });

  app.delete('/o-form-fields/:id', describe({ summary: 'Delete a survey question', answer: { empty: true } }), async (c) => {
    const id = parseId(c.req.param('id'));
    const context = await findField(db, id, c.get('user'));
    if (!context || id === null) throw notFound('question');
    await db.transaction(async (tx) => {
      await lockEditable(tx, context.form.id);
      // Would the page be left with only date-of-birth questions while options jump to it?
      const structure = await loadStructure(tx, context.form.id);
      const page = pageOf(structure.containers, context.container.id);
      const summary = page && pageSummaries(structure).find((p) => p.identity === page.identity);
      const left = summary ? [...summary.fieldTypes] : [];
      left.splice(left.indexOf(context.field.type as FieldType), 1);
      const outside = structure.fields.filter((f) => pageOf(structure.containers, f.containerId)?.id !== page?.id);
      if (page && left.length > 0 && left.every((t) => t === 'dob') && optionsJumpingTo(outside, page.identity).length) {
        throw conflict(DOB_PAGE_IS_TARGET);
      }
      await tx.delete(oFormFields).where(eq(oFormFields.id, id));
      await closeGaps(tx, oFormFields, await fieldSiblings(tx, context.container.id));
    });
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
