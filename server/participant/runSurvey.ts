/**
 * What a participant's run needs from the database: which survey a channel or screener runs
 * and whether it may run (SPEC section 4, "Participant access"), the survey's pages and active
 * questions as the participant sees them, where a page's answers lead (core/survey/navigation.ts),
 * and the engagements a run refers to. Shared by the participant routes and the contact steps;
 * the path and its qualification are path.ts and qualification.ts.
 */
import { and, asc, eq, sql, type Placeholder, type SQLWrapper } from 'drizzle-orm';
import * as v from 'valibot';
import type { ChildContainer, PageContainer, PageDocument, PageField } from '@core/participant/responses';
import { isChoiceType, type FieldConfiguration } from '@core/model/survey';
import { OFORM_CONTAINER_TYPE as CONTAINER_TYPE, OFORM_FIELD_TYPE as FIELD_TYPE } from '@core/model/surveyDoc';
import { checkAnswers, type Answers } from '@core/survey/answers';
import { impliedOptions } from '@core/survey/impliedOptions';
import { nextPage, type Answer } from '@core/survey/navigation';
import { message } from '@core/validation/messages';
import type { Db } from '../db/open';
import { keptPerDatabase } from '../db/rowCache';
import { preparedQuery } from '../db/prepared';
import { parseJsonColumn } from '../db/rows';
import {
  engagementScreeners,
  engagements,
  mediaChannelSurveys,
  mediaChannels,
  oFormContainers,
  oFormPageMetrics,
  oFormLanguages,
  languages,
  oForms,
  screenerSurveys,
  screeners,
} from '../db/schema';
import { loadStructure, pageOf, type ContainerRow, type Structure } from '../surveys';
import type { SubmissionRow } from './access';
import { pageAfterIfCannotEnd } from './cannotEnd';

export type ChannelRow = typeof mediaChannels.$inferSelect;
import type { FormRow, Survey, SurveyField } from './survey';
export type { FormRow, Survey, SurveyField };

/** A version's pages, containers and questions as the participant sees them: everything of a Survey but the version's own row. */
type ParticipantStructure = Omit<Survey, 'form'>;

/**
 * Approved versions never change (server/surveys/versions.ts lockEditable refuses every write), so
 * what participants see of them is read once per process and kept: queries fewer on every call.
 */
const approvedStructures = keptPerDatabase<number, ParticipantStructure>(256);

/** A media channel by its id, whether active or not. */
export async function findChannelById(db: Db, id: number): Promise<ChannelRow | undefined> {
  const [channel] = await db.select().from(mediaChannels).where(eq(mediaChannels.id, id));
  return channel;
}

/** A screener's styles for the widget, or undefined for an unknown screener. */
export async function screenerStyles(db: Db, screenerId: number) {
  const [screener] = await db.select({ styles: screeners.styles }).from(screeners).where(eq(screeners.id, screenerId));
  return screener?.styles;
}

/** Keeps how long a page was shown. */
export async function recordPageMetric(db: Db, values: typeof oFormPageMetrics.$inferInsert) {
  const [row] = await db.insert(oFormPageMetrics).values(values).returning();
  return row;
}

/** The survey version a page belongs to, or null for an unknown page. */
export async function surveyIdOfPage(db: Db, pageId: number): Promise<number | null> {
  const [page] = await db.select({ oFormId: oFormContainers.oFormId }).from(oFormContainers).where(eq(oFormContainers.id, pageId));
  return page?.oFormId ?? null;
}

/** The version's active pages and questions as the participant sees them (read-only: shared when approved). */
export async function loadSurvey(db: Db, form: FormRow): Promise<Survey> {
  if (form.approvedAt === null) return { form, ...participantView(await loadStructure(db, form.id)) };
  let structure = approvedStructures.get(db, form.id);
  if (!structure) approvedStructures.set(db, form.id, (structure = participantView(await loadStructure(db, form.id))));
  return { form, ...structure };
}

/** The active pages, and the active questions on active containers in the order each page asks them. */
function participantView({ containers, fields }: Structure): ParticipantStructure {
  const pages = containers.filter((c) => c.parentId === null && c.isActive);
  const activeContainer = new Set(containers.filter((c) => c.isActive && (c.parentId === null || pageOf(containers, c.id)?.isActive)).map((c) => c.id));
  const asked: SurveyField[] = fields
    .filter((f) => f.isActive && activeContainer.has(f.containerId))
    .map((f) => {
      const container = containers.find((c) => c.id === f.containerId)!;
      return {
        id: f.id,
        identity: f.identity,
        containerId: f.containerId,
        pageId: pageOf(containers, f.containerId)!.id,
        title: f.title,
        type: f.type,
        // A child container's questions follow the page's own, in the child's order.
        displayOrder: container.parentId === null ? f.displayOrder : 10_000 * (container.displayOrder + 1) + f.displayOrder,
        configuration: f.configuration,
      };
    })
    .sort((a, b) => a.displayOrder - b.displayOrder);
  return { pages: Object.freeze(pages), containers: Object.freeze(containers), fields: Object.freeze(asked) };
}

export const fieldsOfPage = (survey: Survey, pageId: number) => survey.fields.filter((f) => f.pageId === pageId);

/** The ids of a page's active child containers: each gets an entry under the page's entry. */
export const activeChildren = (survey: Survey, pageId: number) => survey.containers.filter((c) => c.parentId === pageId && c.isActive).map((c) => c.id);

/** The survey's languages (API iso codes), English first. */
export async function surveyLanguages(db: Db, formId: number): Promise<string[]> {
  return (await offeredLanguages(db, formId)).map((l) => l.isoCode);
}

type SqlValue = SQLWrapper | Placeholder;

/**
 * The languages a version offers, with their row ids, as one JSON column (English always, and
 * the version's active languages): for offeredLanguages and for the submission start's query.
 */
export const offeredLanguagesColumn = (formId: SqlValue) =>
  sql<unknown>`(
    select json_agg(json_build_array(l.id, l.iso_code) order by l.iso_code) from ${languages} l
    where l.iso_code = 'en' or (l.is_active and exists (select 1 from ${oFormLanguages} ol where ol.o_form_id = ${formId} and ol.language_id = l.id)))`;

const LanguageRows = v.nullable(v.array(v.tuple([v.number(), v.string()])));

/** The column's value as surveyLanguages' order: English first (null id when it has no row), then by code. */
export function offeredFromColumn(value: unknown): { isoCode: string; id: number | null }[] {
  const rows = parseJsonColumn(LanguageRows, value) ?? [];
  const english = rows.find(([, code]) => code === 'en');
  return [{ isoCode: 'en', id: english?.[0] ?? null }, ...rows.filter(([, code]) => code !== 'en').map(([id, isoCode]) => ({ isoCode, id }))];
}

const offeredLanguagesQuery = preparedQuery((db) =>
  db
    .select({ languages: offeredLanguagesColumn(sql.placeholder('formId')) })
    .from(sql`(select 1) as one`)
    .prepare('participant_offered_languages'),
);

/** surveyLanguages with each language's row id (null when English has no row). */
export async function offeredLanguages(db: Db, formId: number): Promise<{ isoCode: string; id: number | null }[]> {
  const [row] = await offeredLanguagesQuery(db).execute({ formId });
  return offeredFromColumn(row?.languages ?? null);
}

/**
 * What a participant may see of a question: who it disqualifies stays on the server (it would
 * tell a participant which answer to avoid).
 */
function publicConfiguration(configuration: FieldConfiguration): FieldConfiguration {
  return {
    ...configuration,
    options: configuration.options.map(({ disqualifiedFor: _for, ...o }) => ({ ...o, isDisqualified: false })),
  };
}

/**
 * A page's document, built once per page row: an approved version's rows are shared and never
 * change (loadSurvey), so its pages' documents are too; other versions' rows are read afresh per call.
 */
const pageDocuments = new WeakMap<ContainerRow, PageDocument>();

/** One page as the containers route answers it (and a page save, the next page): the page, its child containers and questions. */
export function pageDocument(survey: Survey, page: ContainerRow): PageDocument {
  let document = pageDocuments.get(page);
  if (!document) pageDocuments.set(page, (document = buildPageDocument(survey, page)));
  return document;
}

function buildPageDocument(survey: Survey, page: ContainerRow): PageDocument {
  const children = survey.containers.filter((c) => c.parentId === page.id && c.isActive);
  const fields = fieldsOfPage(survey, page.id);
  const ref = (id: number) => ({ type: CONTAINER_TYPE, id: String(id) }) as const;
  const base = (c: ContainerRow): Omit<ChildContainer, 'relationships'> => ({
    type: CONTAINER_TYPE,
    id: String(c.id),
    attributes: {
      identity: c.identity,
      title: c.title,
      displayOrder: c.displayOrder,
      isActive: c.isActive,
      oFormVersionId: String(survey.form.id),
      oFormIdentity: survey.form.identity,
      oFormContainerTypeId: c.containerType,
      parentId: c.parentId === null ? null : String(c.parentId),
      translations: c.translations,
    },
  });
  const container: PageContainer = {
    ...base(page),
    relationships: {
      parentOFormContainer: { data: page.parentId === null ? null : ref(page.parentId) },
      childOFormContainers: { data: children.map((x) => ref(x.id)) },
      oFormFields: { data: fields.map((f) => ({ type: FIELD_TYPE, id: String(f.id) })) },
    },
  };
  const included: (ChildContainer | PageField)[] = [
    ...children.map((c): ChildContainer => ({ ...base(c), relationships: { parentOFormContainer: { data: c.parentId === null ? null : ref(c.parentId) } } })),
    ...fields.map(
      (f): PageField => ({
        type: FIELD_TYPE,
        id: String(f.id),
        attributes: {
          identity: f.identity,
          title: f.title,
          oFormFieldTypeId: f.type,
          displayOrder: f.displayOrder,
          containerId: String(f.containerId),
          oFormContainerIdentity: page.identity,
          configuration: publicConfiguration(f.configuration),
        },
      }),
    ),
  ];
  const following = pageAfterIfCannotEnd(survey, page);
  if (!following) return { data: container, included };
  // The following page's own meta stays out: a page document carries one page ahead, not a chain.
  const { data, included: alsoIncluded } = pageDocument(survey, following);
  return { data: container, included, meta: { cannotEnd: true, nextPage: { data, included: alsoIncluded } } };
}

// ---------------------------------------------------------------------------------------------
// Which survey runs, and whether it may

export interface RunTarget {
  form: FormRow | null;
  channel: ChannelRow | null;
  screenerId: number | null;
  runnable: boolean;
}

/** The approved version of an identity, active or not (null when none is approved). */
export async function approvedVersion(db: Db, identity: string): Promise<FormRow | null> {
  const [row] = await db
    .select()
    .from(oForms)
    .where(and(eq(oForms.identity, identity), eq(oForms.isApproved, true)));
  return row ?? null;
}

/** The identities a screener serves through a channel: the channel's active links when it has any, else the screener's. */
export async function servedIdentities(db: Db, screenerId: number, channelId: number | null): Promise<string[]> {
  const own = await db
    .select({ identity: screenerSurveys.oFormIdentity })
    .from(screenerSurveys)
    .where(and(eq(screenerSurveys.screenerId, screenerId), eq(screenerSurveys.isActive, true)))
    .orderBy(asc(screenerSurveys.displayOrder), asc(screenerSurveys.id));
  const identities = own.map((r) => r.identity);
  if (channelId === null) return identities;
  const links = await db
    .select({ identity: mediaChannelSurveys.oFormIdentity, isActive: mediaChannelSurveys.isActive })
    .from(mediaChannelSurveys)
    .where(eq(mediaChannelSurveys.mediaChannelId, channelId));
  if (links.length === 0) return identities;
  const active = new Set(links.filter((l) => l.isActive).map((l) => l.identity));
  return identities.filter((i) => active.has(i));
}

const screenerActive = async (db: Db, screenerId: number) =>
  (await db.select({ isActive: screeners.isActive }).from(screeners).where(eq(screeners.id, screenerId)))[0]?.isActive === true;

/**
 * What decides whether a version may run through a channel, as columns of one query (for
 * checkRunnable's own query and for the submission start's): servedIdentities' rule asked of
 * one identity.
 */
export const runFactColumns = (identity: SqlValue, channelId: SqlValue, screenerId: SqlValue) => ({
  screenerActive: sql<boolean | null>`(select s.is_active from ${screeners} s where s.id = ${screenerId})`,
  byScreener: sql<boolean>`exists (select 1 from ${screenerSurveys} ss where ss.screener_id = ${screenerId} and ss.is_active and ss.o_form_identity = ${identity})`,
  channelNamesSurveys: sql<boolean>`exists (select 1 from ${mediaChannelSurveys} l where l.media_channel_id = ${channelId})`,
  byChannel: sql<boolean>`exists (select 1 from ${mediaChannelSurveys} l where l.media_channel_id = ${channelId} and l.is_active and l.o_form_identity = ${identity})`,
});

export interface RunFacts {
  screenerActive: boolean | null;
  byScreener: boolean;
  channelNamesSurveys: boolean;
  byChannel: boolean;
  /** screenerForIdentity's answer, when the caller's query read it (a run without a channel). */
  identityScreener?: number | null;
}

/** screenerForIdentity as a column of another query. */
export const identityScreenerColumn = (identity: SqlValue) =>
  sql<number | null>`(
    select ss.screener_id from ${screenerSurveys} ss join ${screeners} s on s.id = ss.screener_id
    where ss.o_form_identity = ${identity} and ss.is_active and s.is_active
    order by ss.display_order, ss.screener_id limit 1)`;

const runFactsQuery = preparedQuery((db) =>
  db
    .select(runFactColumns(sql.placeholder('identity'), sql.placeholder('channelId'), sql.placeholder('screenerId')))
    .from(sql`(select 1) as one`)
    .prepare('participant_run_facts'),
);

/**
 * Whether `form` may run, through `channel` when given: the version approved and active; the
 * channel active, of an active screener that serves the survey's identity (and, when the channel
 * names its surveys, one of those). `facts` when the caller's query already read them.
 */
export async function checkRunnable(db: Db, form: FormRow, channel: ChannelRow | null, facts?: RunFacts): Promise<RunTarget> {
  if (channel) {
    const known = facts ?? (await runFactsQuery(db).execute({ screenerId: channel.screenerId, channelId: channel.id, identity: form.identity }))[0];
    const served = known !== undefined && known.byScreener && (!known.channelNamesSurveys || known.byChannel);
    const runnable = form.isApproved && form.isActive && channel.isActive && served && known.screenerActive === true;
    return { form, channel, screenerId: channel.screenerId, runnable };
  }
  const screenerId = facts?.identityScreener !== undefined ? facts.identityScreener : await screenerForIdentity(db, form.identity);
  return { form, channel: null, screenerId, runnable: form.isApproved && form.isActive };
}

/** A run without a channel belongs to the first active screener that serves the identity, if any. */
export async function screenerForIdentity(db: Db, identity: string): Promise<number | null> {
  const [row] = await db
    .select({ id: screenerSurveys.screenerId })
    .from(screenerSurveys)
    .innerJoin(screeners, eq(screeners.id, screenerSurveys.screenerId))
    .where(and(eq(screenerSurveys.oFormIdentity, identity), eq(screenerSurveys.isActive, true), eq(screeners.isActive, true)))
    .orderBy(asc(screenerSurveys.displayOrder), asc(screenerSurveys.screenerId))
    .limit(1);
  return row?.id ?? null;
}

/**
 * The survey a channel (or a screener) starts: the identity asked for when it serves it, else
 * its first served identity with an approved version.
 */
export async function resolveStart(db: Db, options: { channel: ChannelRow | null; screenerId: number | null; identity: string | null }): Promise<RunTarget> {
  const { channel } = options;
  const screenerId = channel?.screenerId ?? options.screenerId;
  if (screenerId === null) {
    const form = options.identity ? await approvedVersion(db, options.identity) : null;
    return form ? checkRunnable(db, form, null) : { form: null, channel: null, screenerId: null, runnable: false };
  }
  const notRunnable = (form: FormRow | null = null): RunTarget => ({ form, channel, screenerId, runnable: false });
  if (channel && options.screenerId !== null && options.screenerId !== channel.screenerId) return notRunnable();
  const served = await servedIdentities(db, screenerId, channel?.id ?? null);
  const candidates = options.identity ? served.filter((i) => i === options.identity) : served;
  // Nothing runs: the first served survey is still the run's, the one a notActive lead is left through.
  let first: FormRow | null = null;
  for (const identity of candidates) {
    const form = await approvedVersion(db, identity);
    if (!form) continue;
    const target = channel
      ? await checkRunnable(db, form, channel)
      : { form, channel: null, screenerId, runnable: form.isApproved && form.isActive && (await screenerActive(db, screenerId)) };
    if (target.runnable || options.identity) return target;
    first ??= form;
  }
  return notRunnable(first);
}

/** The run a submission belongs to, checked again now (a survey or channel may have been switched off since). */
export async function runOfSubmission(db: Db, submission: SubmissionRow): Promise<RunTarget> {
  const [form] = await db.select().from(oForms).where(eq(oForms.id, submission.oFormId));
  const [channel] = submission.mediaChannelId === null ? [] : await db.select().from(mediaChannels).where(eq(mediaChannels.id, submission.mediaChannelId));
  if (!form) return { form: null, channel: channel ?? null, screenerId: channel?.screenerId ?? null, runnable: false };
  return checkRunnable(db, form, channel ?? null);
}

// ---------------------------------------------------------------------------------------------
// Answers and navigation

/**
 * The latest birth date a participant may give on `today` (the server's clock): the calendar day
 * where it is latest on Earth (UTC+14), so anyone may enter their own today but none a later day.
 */
export function latestBirthDate(today: Date): string {
  return new Date(today.getTime() + 14 * 3_600_000).toISOString().slice(0, 10);
}

/**
 * Problems of a page's answers, by field identity: the shared checks (a ZIP a postal code of
 * `region`, the run's channel's; the US by default), then a birth date after `today`, then the
 * options offered.
 */
export function answerProblems(fields: readonly SurveyField[], answers: Answers, lang: string, today: Date, region?: string): Record<string, string> {
  const problems = checkAnswers(fields, answers, lang, region);
  const latest = latestBirthDate(today);
  for (const field of fields) {
    const value = answers[field.identity];
    // y-MM-dd (checked above) compares as text.
    if (!problems[field.identity] && field.type === 'dob' && typeof value === 'string' && value !== '' && value > latest)
      problems[field.identity] = message('dob_future', {}, lang);
  }
  for (const field of fields) {
    if (problems[field.identity] || !isChoiceType(field.type)) continue;
    const value = answers[field.identity];
    if (value === undefined || value === null || value === '') continue;
    const own = field.configuration.options;
    const offered = new Set<string>([...own.map((o) => o.value), ...impliedOptions(field.type, own)]);
    const chosen = Array.isArray(value) ? value : [value];
    const shapeOk = field.type === 'multiple' ? Array.isArray(value) : typeof value === 'string';
    if (!shapeOk || chosen.some((v) => typeof v !== 'string' || !offered.has(v))) problems[field.identity] = message('choice', {}, lang);
  }
  return problems;
}

/** Where a page's answers lead: another page of this survey, another survey, or the end. */
export function nextAfter(
  survey: Survey,
  page: ContainerRow,
  answers: Readonly<Record<string, Answer>>,
): { page: ContainerRow | null; surveyIdentity: string | null } {
  const navPages = survey.pages.map((p) => ({ identity: p.identity, displayOrder: p.displayOrder }));
  const navFields = fieldsOfPage(survey, page.id).map((f) => ({
    identity: f.identity,
    type: f.type,
    displayOrder: f.displayOrder,
    options: f.configuration.options,
  }));
  const next = nextPage(navPages, page.identity, navFields, answers);
  if (next.to === 'end') return { page: null, surveyIdentity: null };
  if (next.to === 'survey') return { page: null, surveyIdentity: next.identity };
  const target = survey.pages.find((p) => p.identity === next.identity);
  if (target) return { page: target, surveyIdentity: null };
  // A jump to a page switched off since: carry on with the next page in order.
  const fallback = nextPage(navPages, page.identity, [], {});
  return { page: fallback.to === 'page' ? (survey.pages.find((p) => p.identity === fallback.identity) ?? null) : null, surveyIdentity: null };
}

/** The active engagements a run refers to: the screener's, else the survey's own. */
export async function runEngagements(db: Db, target: RunTarget): Promise<number[]> {
  if (target.screenerId !== null) {
    const rows = await db
      .select({ id: engagements.id })
      .from(engagementScreeners)
      .innerJoin(engagements, eq(engagements.id, engagementScreeners.engagementId))
      .where(and(eq(engagementScreeners.screenerId, target.screenerId), eq(engagements.isActive, true)))
      .orderBy(asc(engagements.id));
    return rows.map((r) => r.id);
  }
  if (!target.form) return [];
  const [own] = await db
    .select({ id: engagements.id })
    .from(engagements)
    .where(and(eq(engagements.id, target.form.engagementId), eq(engagements.isActive, true)));
  return own ? [own.id] : [];
}
