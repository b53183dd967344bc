/**
 * What hangs off a screener: the engagements it serves (POST /api/engagements-screeners/update/
 * {screenerId}), its contact fields with their weights (/api/contact-fields-screeners) and its
 * surveys with their flow (/api/screener-surveys). Reads follow the screener's sponsor scope;
 * writes need Admin or Super User and an unlocked screener, and each replaces or changes rows
 * in one transaction.
 */
import { Hono, type Context } from 'hono';
import { and, asc, count, eq, inArray, ne, type SQL } from 'drizzle-orm';
import * as v from 'valibot';
import {
  CONTACT_FIELD_SCREENER_DEFAULT_SORT,
  CONTACT_FIELD_SCREENER_LIMIT,
  CONTACT_FIELD_SCREENER_SORTS,
  CONTACT_FIELD_SCREENER_TYPE,
  ContactFieldScreenersUpdate,
} from '@core/model/contactFieldScreener';
import {
  SCREENER_SURVEY_DEFAULT_SORT,
  SCREENER_SURVEY_SORTS,
  SCREENER_SURVEY_TYPE,
  ScreenerSurveyInput,
  ScreenerSurveyPatch,
  type ScreenerFlow,
  type ScreenerFlowEdge,
} from '@core/model/screenerSurvey';
import { message } from '@core/validation/messages';
import type { AppEnv, Deps } from '../context';
import { contactFieldScreeners, contactFields, engagementScreeners, engagements, oFormContainers, oFormFields, oForms, screenerSurveys, screeners } from '../db/schema';
import { UNKNOWN_IDENTITY } from '@core/model/oformDoc';
import type { FieldConfiguration } from '@core/model/oform';
import { engagementScope } from '../domain/engagementAccess';
import { copyIntoScreener, screenerCopyIdentity } from '../oform/copy';
import { readScreenerSurveyLink, screenerSurveyResource, selectScreenerSurveyLinks } from '../domain/screenerSurveyLinks';
import { STAFF_ADMIN_ROLES, authenticate, requireRole } from '../auth/guards';
import { readResource } from '../http/body';
import { badRequest, conflict, invalid, notFound } from '../http/errors';
import { parseId, parseListQuery } from '../http/query';
import { sendDocument, sendList, toResource } from '../http/serialize';
import { pgErrorCode } from '../http/sql';
import { editableScreener, engagementIdsProblem, findScreener, writeEngagements } from './screeners';
import { screenerScope } from '../domain/screenerAccess';
import { joinedPage } from '../http/list';
import { describe } from '../openapi/describe';

export const UNKNOWN_CONTACT_FIELD = 'Choose contact fields from the list.';
export const SURVEY_ALREADY_LINKED = 'This survey is already part of the screener.';
export const SURVEY_OF_ANOTHER_SPONSOR = "Choose a survey of the screener's sponsor: this one belongs to another sponsor's engagement.";

const screenerIdFilter = (raw: string | undefined): number | undefined => {
  if (raw === undefined) return undefined;
  const id = parseId(raw);
  if (id === null) throw badRequest("'screenerId' must be a screener id.", 'screenerId');
  return id;
};

// ---------------------------------------------------------------------------------------------

const EngagementsUpdate = v.strictObject({
  engagementIds: v.pipe(
    v.array(v.pipe(v.number(message('integer')), v.integer(message('integer')), v.minValue(1, message('integer')))),
    v.maxLength(1000, 'At most 1000 engagements.'),
  ),
});

/** A screener's contact-field link as the API shows it: the link with its field's details. */
const contactFieldLinkColumns = {
  id: contactFieldScreeners.id,
  screenerId: contactFieldScreeners.screenerId,
  contactFieldId: contactFieldScreeners.contactFieldId,
  weight: contactFieldScreeners.weight,
  label: contactFields.label,
  name: contactFields.name,
  required: contactFields.required,
  fieldType: contactFields.fieldType,
};

export function engagementsScreenersRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps), requireRole(...STAFF_ADMIN_ROLES));

  /** Replaces the engagements a screener serves: `{data: {type, attributes: {engagementIds}}}`. */
  app.post('/update/:screenerId', describe({ summary: "Set a screener's engagements", body: { resource: 'engagements-screeners', attributes: EngagementsUpdate }, answer: { list: null } }), async (c) => {
    const screener = await editableScreener(db, parseId(c.req.param('screenerId')), c.get('user'));
    const { attributes } = await readResource(c, EngagementsUpdate, { type: 'engagements-screeners' });
    const ids = [...new Set(attributes.engagementIds)];
    const problem = await engagementIdsProblem(db, ids, screener.sponsorId);
    if (problem) throw invalid([{ pointer: '/data/attributes/engagementIds', detail: problem }]);
    await db
      .transaction((tx) => writeEngagements(tx, screener.id, ids))
      .catch((error: unknown) => {
        if (pgErrorCode(error).code === '23503') throw invalid([{ pointer: '/data/attributes/engagementIds', detail: problem ?? 'An engagement no longer exists.' }]);
        throw error;
      });
    const rows = await db
      .select({ engagementId: engagements.id, name: engagements.name })
      .from(engagementScreeners)
      .innerJoin(engagements, eq(engagements.id, engagementScreeners.engagementId))
      .where(eq(engagementScreeners.screenerId, screener.id))
      .orderBy(engagements.name, engagements.id);
    return sendList(
      c,
      rows.map((r) => toResource('engagements-screeners', `${screener.id}_${r.engagementId}`, { screenerId: screener.id, engagementId: r.engagementId, engagementName: r.name })),
      { total: rows.length, page: 1, limit: rows.length },
    );
  });

  return app;
}

// ---------------------------------------------------------------------------------------------

export function contactFieldsScreenersRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  app.get('/', describe({ summary: "List a screener's contact fields", answer: { list: null } }), async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, {
      type: CONTACT_FIELD_SCREENER_TYPE,
      sorts: CONTACT_FIELD_SCREENER_SORTS,
      defaultSort: CONTACT_FIELD_SCREENER_DEFAULT_SORT,
      defaultLimit: CONTACT_FIELD_SCREENER_LIMIT,
      filters: ['screenerId'] as const,
    });
    const screenerId = screenerIdFilter(q.filters.screenerId);
    const where = and(screenerScope(c.get('user')), screenerId === undefined ? undefined : eq(contactFieldScreeners.screenerId, screenerId));
    const counted = db.select({ n: count() }).from(contactFieldScreeners).innerJoin(screeners, eq(screeners.id, contactFieldScreeners.screenerId)).$dynamic();
    const select = db
      .select(contactFieldLinkColumns)
      .from(contactFieldScreeners)
      .innerJoin(screeners, eq(screeners.id, contactFieldScreeners.screenerId))
      .innerJoin(contactFields, eq(contactFields.id, contactFieldScreeners.contactFieldId))
      .$dynamic();
    const sorts = { weight: contactFieldScreeners.weight, label: contactFields.label };
    const { rows, total } = await joinedPage(select, counted, q, { where, sorts, id: contactFieldScreeners.id });
    return sendList(
      c,
      rows.map(({ id, ...attributes }) => toResource(CONTACT_FIELD_SCREENER_TYPE, id, attributes)),
      { total, page: q.page, limit: q.limit },
    );
  });

  /** Replaces a screener's contact fields and their weights in one transaction. */
  app.post('/update/:screenerId', describe({ summary: "Set a screener's contact fields", body: { resource: CONTACT_FIELD_SCREENER_TYPE, attributes: ContactFieldScreenersUpdate }, answer: { list: null } }), requireRole(...STAFF_ADMIN_ROLES), async (c) => {
    const screener = await editableScreener(db, parseId(c.req.param('screenerId')), c.get('user'));
    const { attributes } = await readResource(c, ContactFieldScreenersUpdate, { type: CONTACT_FIELD_SCREENER_TYPE });
    const list = attributes.contactFieldScreeners;
    const ids = list.map((l) => l.contactFieldId);
    const found = ids.length ? await db.select({ id: contactFields.id }).from(contactFields).where(inArray(contactFields.id, ids)) : [];
    const known = new Set(found.map((f) => f.id));
    const issues = list.flatMap((l, i) =>
      known.has(l.contactFieldId) ? [] : [{ pointer: `/data/attributes/contactFieldScreeners/${i}/contactFieldId`, detail: UNKNOWN_CONTACT_FIELD }],
    );
    if (issues.length) throw invalid(issues);
    await db
      .transaction(async (tx) => {
        await tx.delete(contactFieldScreeners).where(eq(contactFieldScreeners.screenerId, screener.id));
        if (list.length) await tx.insert(contactFieldScreeners).values(list.map((l) => ({ screenerId: screener.id, ...l })));
      })
      .catch((error: unknown) => {
        if (pgErrorCode(error).code === '23503') throw invalid([{ pointer: '/data/attributes/contactFieldScreeners', detail: UNKNOWN_CONTACT_FIELD }]);
        throw error;
      });
    const rows = await db
      .select(contactFieldLinkColumns)
      .from(contactFieldScreeners)
      .innerJoin(contactFields, eq(contactFields.id, contactFieldScreeners.contactFieldId))
      .where(eq(contactFieldScreeners.screenerId, screener.id))
      .orderBy(asc(contactFieldScreeners.weight), asc(contactFieldScreeners.id));
    return sendList(
      c,
      rows.map(({ id, ...a }) => toResource(CONTACT_FIELD_SCREENER_TYPE, id, a)),
      { total: rows.length, page: 1, limit: CONTACT_FIELD_SCREENER_LIMIT },
    );
  });

  return app;
}

// ---------------------------------------------------------------------------------------------

export function screenerSurveysRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  const canEdit = requireRole(...STAFF_ADMIN_ROLES);
  app.use('*', authenticate(deps));

  app.get('/', describe({ summary: "List a screener's surveys", answer: { list: null } }), async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, {
      type: SCREENER_SURVEY_TYPE,
      sorts: SCREENER_SURVEY_SORTS,
      defaultSort: SCREENER_SURVEY_DEFAULT_SORT,
      defaultLimit: 100,
      filters: ['screenerId', 'oFormIdentity'] as const,
    });
    const screenerId = screenerIdFilter(q.filters.screenerId);
    const conditions: (SQL | undefined)[] = [screenerScope(c.get('user'))];
    if (screenerId !== undefined) conditions.push(eq(screenerSurveys.screenerId, screenerId));
    if (q.filters.oFormIdentity !== undefined) conditions.push(eq(screenerSurveys.oFormIdentity, q.filters.oFormIdentity));
    const where = and(...conditions);
    const counted = db.select({ n: count() }).from(screenerSurveys).innerJoin(screeners, eq(screeners.id, screenerSurveys.screenerId)).$dynamic();
    const sorts = { displayOrder: screenerSurveys.displayOrder, created: screenerSurveys.created, oFormIdentity: screenerSurveys.oFormIdentity };
    const { rows, total } = await joinedPage(selectScreenerSurveyLinks(db).$dynamic(), counted, q, { where, sorts, id: screenerSurveys.id });
    return sendList(c, rows.map(screenerSurveyResource), { total, page: q.page, limit: q.limit });
  });

  /**
   * The screener's flow: its surveys as nodes, and as edges the options of one survey that lead
   * to another of the screener's surveys (labelled with those options). Each survey is read in
   * the version participants get: the approved one, else the latest.
   */
  app.get('/flow/:id', describe({ summary: "Read a screener's survey flow" }), async (c) => {
    const screener = await findScreener(db, parseId(c.req.param('id')), c.get('user'));
    if (!screener) throw notFound('screener');
    const rows = await db
      .select()
      .from(screenerSurveys)
      .where(eq(screenerSurveys.screenerId, screener.id))
      .orderBy(asc(screenerSurveys.displayOrder), asc(screenerSurveys.id));
    const identities = [...new Set(rows.map((r) => r.oFormIdentity))];
    const versions = identities.length
      ? await db
          .select({ id: oForms.id, identity: oForms.identity, version: oForms.version, title: oForms.title, isApproved: oForms.isApproved })
          .from(oForms)
          .where(inArray(oForms.identity, identities))
      : [];
    const shown = new Map<string, (typeof versions)[number]>();
    for (const v of versions) {
      const current = shown.get(v.identity);
      if (!current || (v.isApproved && !current.isApproved) || (v.isApproved === current.isApproved && v.version > current.version)) shown.set(v.identity, v);
    }
    const shownIds = [...shown.values()].map((v) => v.id);
    const fields = shownIds.length
      ? await db
          .select({ formId: oFormContainers.oFormId, configuration: oFormFields.configuration })
          .from(oFormFields)
          .innerJoin(oFormContainers, eq(oFormContainers.id, oFormFields.containerId))
          .where(and(inArray(oFormContainers.oFormId, shownIds), eq(oFormFields.isActive, true)))
          .orderBy(asc(oFormContainers.displayOrder), asc(oFormFields.displayOrder))
      : [];
    const edges = new Map<string, ScreenerFlowEdge>();
    for (const from of rows) {
      const version = shown.get(from.oFormIdentity);
      if (!version) continue;
      for (const field of fields.filter((f) => f.formId === version.id)) {
        for (const option of (field.configuration as Partial<FieldConfiguration>).options ?? []) {
          if (option.transition?.to !== 'survey') continue;
          const targetIdentity = option.transition.identity;
          for (const to of rows.filter((r) => r.oFormIdentity === targetIdentity && r.id !== from.id)) {
            const id = `${from.id}-${to.id}`;
            const edge = edges.get(id) ?? { id, source: String(from.id), target: String(to.id), label: '' };
            const labels = edge.label ? edge.label.split(', ') : [];
            if (!labels.includes(option.label)) labels.push(option.label);
            edges.set(id, { ...edge, label: labels.join(', ') });
          }
        }
      }
    }
    const flow: Omit<ScreenerFlow, 'id'> = {
      nodes: rows.map((r) => ({ id: String(r.id), oFormIdentity: r.oFormIdentity, title: shown.get(r.oFormIdentity)?.title ?? r.oFormIdentity, isActive: r.isActive })),
      edges: [...edges.values()],
    };
    return sendDocument(c, { data: toResource('screener-flows', screener.id, { ...flow }) });
  });

  app.post('/', describe({ summary: 'Add a survey to a screener', body: { resource: SCREENER_SURVEY_TYPE, attributes: ScreenerSurveyInput }, answer: { resource: SCREENER_SURVEY_TYPE, status: 201 } }), canEdit, async (c) => {
    const { attributes } = await readResource(c, ScreenerSurveyInput, { type: SCREENER_SURVEY_TYPE });
    const screener = await findScreener(db, attributes.screenerId, c.get('user'));
    if (!screener) throw invalid([{ pointer: '/data/attributes/screenerId', detail: 'Choose a screener from the list.' }]);
    await editableScreener(db, screener.id, c.get('user'));
    const { cloneSurvey, ...values } = attributes;
    // A screener runs its own sponsor's surveys: linked to another's, the survey would vanish
    // for the screener's sponsor-scoped users (who cannot see it) and run under the wrong sponsor.
    const [foreign] = await db
      .select({ id: oForms.id })
      .from(oForms)
      .innerJoin(engagements, eq(engagements.id, oForms.engagementId))
      .where(and(eq(oForms.identity, values.oFormIdentity), ne(engagements.sponsorId, screener.sponsorId)))
      .limit(1);
    if (foreign) throw invalid([{ pointer: '/data/attributes/oFormIdentity', detail: SURVEY_OF_ANOTHER_SPONSOR }]);
    if (cloneSurvey) {
      // The survey must be one the user may reach; its copy becomes a survey of this screener's own.
      const [source] = await db
        .select({ id: oForms.id })
        .from(oForms)
        .innerJoin(engagements, eq(engagements.id, oForms.engagementId))
        .where(and(eq(oForms.identity, values.oFormIdentity), engagementScope(c.get('user'))))
        .limit(1);
      if (!source) throw invalid([{ pointer: '/data/attributes/oFormIdentity', detail: UNKNOWN_IDENTITY }]);
    }
    const [row] = await db
      .transaction(async (tx) => {
        if (!cloneSurvey) return tx.insert(screenerSurveys).values(values).returning();
        const copyIdentity = screenerCopyIdentity(screener.id, values.oFormIdentity);
        const [linked] = await tx
          .select({ id: screenerSurveys.id })
          .from(screenerSurveys)
          .where(and(eq(screenerSurveys.screenerId, screener.id), eq(screenerSurveys.oFormIdentity, copyIdentity)));
        if (linked) throw conflict(SURVEY_ALREADY_LINKED, '/data/attributes/oFormIdentity');
        const own = await tx.select({ identity: screenerSurveys.oFormIdentity }).from(screenerSurveys).where(eq(screenerSurveys.screenerId, screener.id));
        const copy = await copyIntoScreener(tx, screener.id, values.oFormIdentity, {
          preferApproved: false,
          linked: new Set([...own.map((l) => l.identity), copyIdentity]),
        });
        if (!copy) throw invalid([{ pointer: '/data/attributes/oFormIdentity', detail: UNKNOWN_IDENTITY }]);
        return tx.insert(screenerSurveys).values({ ...values, oFormIdentity: copy.identity }).returning();
      })
      .catch((error: unknown) => {
        if (pgErrorCode(error).code === '23505') throw conflict(SURVEY_ALREADY_LINKED, '/data/attributes/oFormIdentity');
        if (pgErrorCode(error).code === '23503') throw invalid([{ pointer: '/data/attributes/screenerId', detail: 'Choose a screener from the list.' }]);
        throw error;
      });
    if (!row) throw new Error('insert returned no row');
    return sendLink(c, row.id, 201);
  });

  const sendLink = async (c: Context<AppEnv>, id: number, status: 200 | 201 = 200) => {
    const link = await readScreenerSurveyLink(db, id);
    if (!link) throw notFound('screener survey');
    return sendDocument(c, { data: link }, status);
  };

  const findLink = async (raw: string | undefined) => {
    const id = parseId(raw);
    const [link] = id === null ? [] : await db.select().from(screenerSurveys).where(eq(screenerSurveys.id, id));
    return link;
  };

  app.patch('/:id', describe({ summary: "Update a screener's survey", body: { resource: SCREENER_SURVEY_TYPE, attributes: ScreenerSurveyPatch }, answer: { resource: SCREENER_SURVEY_TYPE } }), canEdit, async (c) => {
    const link = await findLink(c.req.param('id'));
    if (!link || !(await findScreener(db, link.screenerId, c.get('user')))) throw notFound('screener survey');
    await editableScreener(db, link.screenerId, c.get('user'));
    const { attributes } = await readResource(c, ScreenerSurveyPatch, { type: SCREENER_SURVEY_TYPE, id: link.id });
    const [row] = Object.keys(attributes).length
      ? await db.update(screenerSurveys).set(attributes).where(eq(screenerSurveys.id, link.id)).returning()
      : [link];
    if (!row) throw notFound('screener survey');
    return sendLink(c, row.id);
  });

  app.delete('/:id', describe({ summary: 'Remove a survey from a screener', answer: { empty: true } }), canEdit, async (c) => {
    const link = await findLink(c.req.param('id'));
    if (!link || !(await findScreener(db, link.screenerId, c.get('user')))) throw notFound('screener survey');
    await editableScreener(db, link.screenerId, c.get('user'));
    await db.delete(screenerSurveys).where(eq(screenerSurveys.id, link.id));
    return c.body(null, 204);
  });

  return app;
}

