/**
 * A screener's survey links as the API shows them: each link with the survey's name (the title,
 * version and approval of its current version), for the list, the writes' answers and the toggle;
 * adding a survey to a screener (its own copy, when cloned), changing and removing a link, and
 * the flow between its surveys.
 */
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type * as valibot from 'valibot';
import { UNKNOWN_IDENTITY } from '@core/model/surveyDoc';
import type { FieldConfiguration } from '@core/model/survey';
import {
  SCREENER_SURVEY_TYPE,
  type SCREENER_SURVEY_SORTS,
  type ScreenerFlow,
  type ScreenerFlowEdge,
  type ScreenerSurvey,
  type ScreenerSurveyInput,
  type ScreenerSurveyPatch,
} from '@core/model/screenerSurvey';
import type { AuthUser } from '../context';
import type { Conn, Db } from '../db/open';
import { engagements, oFormContainers, oFormFields, oForms, screenerSurveys, screeners } from '../db/schema';
import { Conflict, Invalid, NotFound } from '../errors';
import { countOf, joinedPage } from '../http/list';
import { filterConditions, idFilter } from '../http/filters';
import { mapParam, textParam } from '../http/params';
import type { ListQuery } from '../http/query';
import { toResource } from '../http/serialize';
import { rethrowConstraint } from '../http/sql';
import { copyIntoScreener, screenerCopyIdentity } from '../surveys';
import { currentVersionId, namingColumns } from '../surveys';
import { engagementScope } from '../engagements';
import { chooseFromList } from '@core/validation/chooseFromList';
import { editableScreener, findScreener, screenerScope } from './access';

export const SURVEY_ALREADY_LINKED = 'This survey is already part of the screener.';
export const SURVEY_OF_ANOTHER_SPONSOR = "Choose a survey of the screener's sponsor: this one belongs to another sponsor's engagement.";

type NamedLink = { link: typeof screenerSurveys.$inferSelect; title: string | null; version: number | null; isApproved: boolean | null };

/** Links with their screener (for the scope) and the survey's current version (for its name): add the conditions. */
export const selectScreenerSurveyLinks = (db: Conn) =>
  db
    .select({ link: screenerSurveys, ...namingColumns })
    .from(screenerSurveys)
    .innerJoin(screeners, eq(screeners.id, screenerSurveys.screenerId))
    .leftJoin(oForms, eq(oForms.id, currentVersionId(screenerSurveys.oFormIdentity)));

export const screenerSurveyResource = ({ link: { id, created, ...rest }, ...naming }: NamedLink) =>
  toResource(SCREENER_SURVEY_TYPE, id, { ...rest, ...naming, created: created.toISOString() } satisfies Omit<ScreenerSurvey, 'id'>);

/** One link as a resource, or undefined when it is gone. */
/** The list's filters: one screener's links, or one survey's. */
export const SCREENER_SURVEY_FILTERS = {
  screenerId: idFilter(screenerSurveys.screenerId, 'screener'),
  oFormIdentity: mapParam(textParam('Only links to this survey (its identity).'), (identity) => eq(screenerSurveys.oFormIdentity, identity)),
};

/** A page of the links in the user's screener scope, of one screener or one survey identity when given. */
export function screenerSurveyLinkPage(db: Db, user: AuthUser, q: ListQuery<(typeof SCREENER_SURVEY_SORTS)[number], typeof SCREENER_SURVEY_FILTERS>) {
  const where = and(screenerScope(user), ...filterConditions(q.filters, SCREENER_SURVEY_FILTERS));
  const counted = countOf(db, screenerSurveys).innerJoin(screeners, eq(screeners.id, screenerSurveys.screenerId)).$dynamic();
  const sorts = { displayOrder: screenerSurveys.displayOrder, created: screenerSurveys.created, oFormIdentity: screenerSurveys.oFormIdentity };
  return joinedPage(selectScreenerSurveyLinks(db).$dynamic(), counted, q, { where, sorts, id: screenerSurveys.id });
}

/** The link's own row, whoever's screener it is in: the caller checks the scope. */
export async function findScreenerSurveyLink(db: Db, id: number | null) {
  const [link] = id === null ? [] : await db.select().from(screenerSurveys).where(eq(screenerSurveys.id, id));
  return link;
}

/**
 * A link the user may change: its screener in their scope (else 404 as an unknown link) and not
 * locked (else 409).
 */
export async function editableScreenerSurveyLink(db: Db, id: number | null, user: AuthUser) {
  const link = await findScreenerSurveyLink(db, id);
  if (!link || !(await findScreener(db, link.screenerId, user))) throw new NotFound('screener survey');
  await editableScreener(db, link.screenerId, user);
  return link;
}

/** The link changed; undefined when it went in the meantime. */
export async function updateScreenerSurveyLink(db: Db, link: typeof screenerSurveys.$inferSelect, attributes: valibot.InferOutput<typeof ScreenerSurveyPatch>) {
  const [row] = Object.keys(attributes).length ? await db.update(screenerSurveys).set(attributes).where(eq(screenerSurveys.id, link.id)).returning() : [link];
  return row;
}

export async function removeScreenerSurveyLink(db: Db, id: number) {
  await db.delete(screenerSurveys).where(eq(screenerSurveys.id, id));
}

export async function readScreenerSurveyLink(db: Conn, id: number) {
  const [row] = await selectScreenerSurveyLinks(db).where(eq(screenerSurveys.id, id));
  return row && screenerSurveyResource(row);
}

/**
 * Adds a survey to the screener, or with `cloneSurvey` the screener's own copy of it (a survey
 * the user may reach). Answers the link's id; 422 or 409 naming oFormIdentity, nothing written.
 */
export async function addScreenerSurvey(
  db: Db,
  screener: { id: number; sponsorId: number },
  attributes: valibot.InferOutput<typeof ScreenerSurveyInput>,
  user: AuthUser,
): Promise<number> {
  const { cloneSurvey, ...values } = attributes;
  // A screener runs its own sponsor's surveys: linked to another's, the survey would vanish
  // for the screener's sponsor-scoped users (who cannot see it) and run under the wrong sponsor.
  const [foreign] = await db
    .select({ id: oForms.id })
    .from(oForms)
    .innerJoin(engagements, eq(engagements.id, oForms.engagementId))
    .where(and(eq(oForms.identity, values.oFormIdentity), ne(engagements.sponsorId, screener.sponsorId)))
    .limit(1);
  if (foreign) throw new Invalid([{ pointer: '/data/attributes/oFormIdentity', detail: SURVEY_OF_ANOTHER_SPONSOR }]);
  if (cloneSurvey) {
    // The survey must be one the user may reach; its copy becomes a survey of this screener's own.
    const [source] = await db
      .select({ id: oForms.id })
      .from(oForms)
      .innerJoin(engagements, eq(engagements.id, oForms.engagementId))
      .where(and(eq(oForms.identity, values.oFormIdentity), engagementScope(user)))
      .limit(1);
    if (!source) throw new Invalid([{ pointer: '/data/attributes/oFormIdentity', detail: UNKNOWN_IDENTITY }]);
  }
  const [row] = await db
    .transaction(async (tx) => {
      if (!cloneSurvey) return tx.insert(screenerSurveys).values(values).returning();
      const copyIdentity = screenerCopyIdentity(screener.id, values.oFormIdentity);
      const [linked] = await tx
        .select({ id: screenerSurveys.id })
        .from(screenerSurveys)
        .where(and(eq(screenerSurveys.screenerId, screener.id), eq(screenerSurveys.oFormIdentity, copyIdentity)));
      if (linked) throw new Conflict(SURVEY_ALREADY_LINKED, '/data/attributes/oFormIdentity');
      const own = await tx.select({ identity: screenerSurveys.oFormIdentity }).from(screenerSurveys).where(eq(screenerSurveys.screenerId, screener.id));
      const copy = await copyIntoScreener(tx, screener.id, values.oFormIdentity, {
        preferApproved: false,
        linked: new Set([...own.map((l) => l.identity), copyIdentity]),
      });
      if (!copy) throw new Invalid([{ pointer: '/data/attributes/oFormIdentity', detail: UNKNOWN_IDENTITY }]);
      return tx
        .insert(screenerSurveys)
        .values({ ...values, oFormIdentity: copy.identity })
        .returning();
    })
    .catch((error: unknown) =>
      rethrowConstraint(error, {
        unique: () => new Conflict(SURVEY_ALREADY_LINKED, '/data/attributes/oFormIdentity'),
        foreignKey: () => new Invalid([{ pointer: '/data/attributes/screenerId', detail: chooseFromList('a screener') }]),
      }),
    );
  if (!row) throw new Error('insert returned no row');
  return row.id;
}

/**
 * The screener's flow: its surveys as nodes, and as edges the options of one survey that lead
 * to another of the screener's surveys (labelled with those options). Each survey is read in
 * the version participants get: the approved one, else the latest.
 */
export async function screenerFlow(db: Db, screenerId: number): Promise<Omit<ScreenerFlow, 'id'>> {
  const rows = await db
    .select()
    .from(screenerSurveys)
    .where(eq(screenerSurveys.screenerId, screenerId))
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
  return {
    nodes: rows.map((r) => ({
      id: String(r.id),
      oFormIdentity: r.oFormIdentity,
      title: shown.get(r.oFormIdentity)?.title ?? r.oFormIdentity,
      isActive: r.isActive,
    })),
    edges: [...edges.values()],
  };
}

/** Flips a survey link's isActive; answers the link's id, or undefined when it went. */
export async function toggleScreenerSurveyLink(db: Db, id: number): Promise<number | undefined> {
  const [row] = await db
    .update(screenerSurveys)
    .set({ isActive: sql`not ${screenerSurveys.isActive}` })
    .where(eq(screenerSurveys.id, id))
    .returning({ id: screenerSurveys.id });
  return row?.id;
}
