/**
 * Screeners (SPEC sections 3, 7): list, read, create, update, delete; clone and clone delete;
 * additional languages; the toggle of a screener's survey link. Everyone signed in reads the
 * screeners of the sponsors they may see; only Admin and Super User change them, and a locked
 * screener refuses every change until it is unlocked.
 */
import { Hono } from 'hono';
import { and, asc, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import * as v from 'valibot';
import {
  SCREENER_DEFAULT_SORT,
  SCREENER_LANGUAGE_TYPE,
  SCREENER_OUTCOMES,
  SCREENER_SORTS,
  SCREENER_TYPE,
  ScreenerInput,
  ScreenerPatch,
  defaultScreenerStyles,
  emptyScreenerMessage,
  type Screener,
  type ScreenerMessage,
  type ScreenerMessageInput,
  type ScreenerOutcome,
  type ScreenerStyles,
} from '@core/model/screener';
import { SCREENER_SURVEY_TYPE, ScreenerSurveyToggle } from '@core/model/screenerSurvey';
import { requiredText } from '@core/model/fields';
import { VERSION_RACE } from '@core/model/oformDoc';
import type { AppEnv, Deps } from '../context';
import type { Db, Tx } from '../db/open';
import { readScreenerSurveyLink } from './surveyLinks';
import { editableScreener, findScreener, lockedProblem, screenerColumns, screenerScope, selectScreeners, type ScreenerRow } from './access';
import { engagementIdsProblem, writeEngagements } from './engagements';
import {
  contactFieldScreeners,
  engagementScreeners,
  engagements,
  languages,
  mediaChannels,
  oForms,
  screenerLanguages,
  screenerMessages,
  screenerSurveys,
  screeners,
  sponsors,
} from '../db/schema';
import { STAFF_ADMIN_ROLES, authenticate, requireRole } from '../auth/guards';
import { readResource, toManyIds } from '../http/body';
import { badRequest, conflict, invalid, notFound } from '../http/errors';
import { parseId, parseListQuery, parseReadQuery, type ListSpec } from '../http/query';
import { sendList, sendResource, toResource } from '../http/serialize';
import { joinedPage } from '../http/list';
import { ilikeAny, parseBooleanFilter, pgErrorCode, rethrowConstraint } from '../http/sql';
import { assertTranslationLanguages } from '../languages';
import { copiesMadeFor, copyIntoScreener, existingIdentities, screenerCopyIdentity } from '../surveys';
import { describe } from '../openapi/describe';
import { chooseFromList } from '@core/validation/chooseFromList';

export const UNKNOWN_SCREENER_SPONSOR = chooseFromList('a sponsor');
export const NOT_A_CLONE = 'This screener is not a clone; delete it with DELETE /api/screeners/{id}.';
export const SCREENER_HAS_MEDIA_CHANNELS = (n: number) =>
  `This screener has ${n} media channel${n === 1 ? '' : 's'}; deactivate it instead of deleting it.`;

/** One survey of a clone brought up to date: the new version of its copy, and where it came from. */
interface SurveyRefresh {
  sourceIdentity: string;
  sourceVersionId: string;
  oFormIdentity: string;
  oFormId: string;
}

const ATTRIBUTES = [...Object.keys(screenerColumns).filter((k) => k !== 'id'), 'messages', 'engagements', 'languages'] as const;

const listSpec: ListSpec<(typeof SCREENER_SORTS)[number], 'searchQuery' | 'sponsorId' | 'isActive'> = {
  type: SCREENER_TYPE,
  sorts: SCREENER_SORTS,
  defaultSort: SCREENER_DEFAULT_SORT,
  filters: ['searchQuery', 'sponsorId', 'isActive'],
  fields: ATTRIBUTES,
};

const sortColumns = {
  title: screeners.title,
  isActive: screeners.isActive,
  isLocked: screeners.isLocked,
  isTest: screeners.isTest,
  screenerType: screeners.screenerType,
  sponsorName: sponsors.name,
  created: screeners.created,
  modified: screeners.modified,
};

interface Related {
  messages: Map<number, Record<ScreenerOutcome, ScreenerMessage>>;
  engagements: Map<number, { id: number; name: string }[]>;
  languages: Map<number, { id: number; description: string; isoCode: string }[]>;
}

async function loadRelated(db: Db, ids: number[]): Promise<Related> {
  const out: Related = { messages: new Map(), engagements: new Map(), languages: new Map() };
  if (ids.length === 0) return out;
  for (const id of ids) {
    out.messages.set(id, Object.fromEntries(SCREENER_OUTCOMES.map((o) => [o, emptyScreenerMessage()])) as Record<ScreenerOutcome, ScreenerMessage>);
  }
  for (const m of await db.select().from(screenerMessages).where(inArray(screenerMessages.screenerId, ids))) {
    const map = out.messages.get(m.screenerId);
    if (map) map[m.outcome as ScreenerOutcome] = { consentMessage: m.consentMessage, contactFormMessage: m.contactFormMessage, translations: m.translations };
  }
  const linked = await db
    .select({ screenerId: engagementScreeners.screenerId, id: engagements.id, name: engagements.name })
    .from(engagementScreeners)
    .innerJoin(engagements, eq(engagements.id, engagementScreeners.engagementId))
    .where(inArray(engagementScreeners.screenerId, ids))
    .orderBy(engagements.name, engagements.id);
  for (const { screenerId, ...e } of linked) out.engagements.set(screenerId, [...(out.engagements.get(screenerId) ?? []), e]);
  const langs = await db
    .select({ screenerId: screenerLanguages.screenerId, id: languages.id, description: languages.description, isoCode: languages.isoCode })
    .from(screenerLanguages)
    .innerJoin(languages, eq(languages.id, screenerLanguages.languageId))
    .where(inArray(screenerLanguages.screenerId, ids))
    .orderBy(languages.description);
  for (const { screenerId, ...l } of langs) out.languages.set(screenerId, [...(out.languages.get(screenerId) ?? []), l]);
  return out;
}

function toScreener(row: ScreenerRow, related: Related): Screener {
  const { id, created, modified, styles, ...rest } = row;
  return {
    ...rest,
    id: String(id),
    // Stored styles were validated on the way in; older or empty ones get their defaults.
    styles: { ...defaultScreenerStyles(), ...(styles as Partial<ScreenerStyles>) },
    messages: related.messages.get(id) ?? (Object.fromEntries(SCREENER_OUTCOMES.map((o) => [o, emptyScreenerMessage()])) as Screener['messages']),
    engagements: related.engagements.get(id) ?? [],
    languages: related.languages.get(id) ?? [],
    created: created.toISOString(),
    modified: modified.toISOString(),
  };
}

function serialize(row: ScreenerRow, related: Related, fields: Set<string> | null = null) {
  const { id, ...attributes } = toScreener(row, related);
  return toResource(SCREENER_TYPE, id, attributes, { fields });
}

export async function sendScreener(c: Parameters<typeof sendResource>[0], db: Db, id: number, status: 200 | 201 = 200) {
  const [row] = (await selectScreeners(db).where(eq(screeners.id, id))) as ScreenerRow[];
  if (!row) throw notFound('screener');
  return sendResource(c, serialize(row, await loadRelated(db, [id])), status);
}

async function assertSponsor(db: Db, sponsorId: number | undefined) {
  if (sponsorId === undefined) return;
  const [found] = await db.select({ id: sponsors.id }).from(sponsors).where(eq(sponsors.id, sponsorId));
  if (!found) throw invalid([{ pointer: '/data/attributes/sponsorId', detail: UNKNOWN_SCREENER_SPONSOR }]);
}

/** Every language code a write names must be a non-default language. */
async function assertLanguageCodes(db: Db, attributes: { translations?: Record<string, unknown>; messages?: Partial<Record<ScreenerOutcome, ScreenerMessageInput>> }) {
  const keysOf = (map: Record<string, unknown> | undefined) => Object.fromEntries(Object.keys(map ?? {}).map((k) => [k, k]));
  await assertTranslationLanguages(db, keysOf(attributes.translations), '/data/attributes/translations');
  for (const [outcome, m] of Object.entries(attributes.messages ?? {})) {
    if (m) await assertTranslationLanguages(db, keysOf(m.translations), `/data/attributes/messages/${outcome}/translations`);
  }
}

export const ADDITIONAL_LANGUAGE_INVALID = 'Choose additional languages from the list (not the default language).';

/** The `languages` and `engagements` relationships of a write, checked before anything is written. */
async function readRelationships(db: Db, relationships: Record<string, { data: unknown }>, sponsorId: number) {
  const out: { languages?: number[]; engagements?: number[] } = {};
  const issues: { pointer: string; detail: string }[] = [];
  for (const [name, rel] of Object.entries(relationships)) {
    const pointer = `/data/relationships/${name}/data`;
    if (name !== 'languages' && name !== 'engagements') {
      issues.push({ pointer: `/data/relationships/${name}`, detail: 'Unknown relationship. Set languages or engagements.' });
      continue;
    }
    const ids = toManyIds(rel.data, name);
    if (ids === null) {
      issues.push({ pointer, detail: `Must be a list of ${name} identifiers.` });
      continue;
    }
    if (name === 'languages') {
      const found = ids.length ? await db.select({ id: languages.id, isDefault: languages.isDefault }).from(languages).where(inArray(languages.id, ids)) : [];
      if (found.length !== ids.length || found.some((l) => l.isDefault)) issues.push({ pointer, detail: ADDITIONAL_LANGUAGE_INVALID });
      else out.languages = ids;
    } else {
      const problem = await engagementIdsProblem(db, ids, sponsorId);
      if (problem) issues.push({ pointer, detail: problem });
      else out.engagements = ids;
    }
  }
  if (issues.length) throw invalid(issues);
  return out;
}

async function writeMessages(tx: Tx, screenerId: number, messages: Partial<Record<ScreenerOutcome, ScreenerMessageInput>>) {
  for (const [outcome, m] of Object.entries(messages)) {
    if (!m) continue;
    const values = { consentMessage: m.consentMessage, contactFormMessage: m.contactFormMessage, translations: m.translations };
    await tx
      .insert(screenerMessages)
      .values({ screenerId, outcome, ...values })
      .onConflictDoUpdate({ target: [screenerMessages.screenerId, screenerMessages.outcome], set: values });
  }
}

async function writeLanguages(tx: Tx, screenerId: number, ids: number[]) {
  await tx.delete(screenerLanguages).where(eq(screenerLanguages.screenerId, screenerId));
  if (ids.length) await tx.insert(screenerLanguages).values(ids.map((languageId) => ({ screenerId, languageId })));
}

const onConstraint = (error: unknown): never =>
  rethrowConstraint(error, {
    // A sponsor, language or engagement removed between the check and the write.
    foreignKey: () => invalid([{ pointer: '/data', detail: 'Something this screener refers to no longer exists. Reload and try again.' }]),
  });

const mediaChannelCount = async (db: Db, screenerId: number) =>
  (await db.select({ n: count() }).from(mediaChannels).where(eq(mediaChannels.screenerId, screenerId)))[0]?.n ?? 0;

const CloneInput = v.strictObject({ title: v.optional(requiredText(255)) });

/** Copies a screener with everything hanging off it, in the caller's transaction. */
async function cloneScreener(tx: Tx, source: ScreenerRow, title: string, userId: number): Promise<number> {
  const [copy] = await tx
    .insert(screeners)
    .values({
      title,
      description: source.description,
      sponsorId: source.sponsorId,
      userId,
      screenerType: source.screenerType,
      isActive: source.isActive,
      isLocked: false,
      isTest: source.isTest,
      isInterestVisible: source.isInterestVisible,
      translations: source.translations,
      styles: source.styles,
      clonedFromId: source.id,
    })
    .returning({ id: screeners.id });
  if (!copy) throw new Error('insert returned no row');
  const id = copy.id;
  const from = source.id;
  await tx.execute(sql`insert into ${screenerMessages} (screener_id, outcome, consent_message, contact_form_message, translations)
    select ${id}, outcome, consent_message, contact_form_message, translations from ${screenerMessages} where screener_id = ${from}`);
  await tx.execute(sql`insert into ${screenerLanguages} (screener_id, language_id) select ${id}, language_id from ${screenerLanguages} where screener_id = ${from}`);
  await tx.execute(sql`insert into ${engagementScreeners} (screener_id, engagement_id) select ${id}, engagement_id from ${engagementScreeners} where screener_id = ${from}`);
  await tx.execute(sql`insert into ${contactFieldScreeners} (screener_id, contact_field_id, weight) select ${id}, contact_field_id, weight from ${contactFieldScreeners} where screener_id = ${from}`);
  // Each survey becomes a survey of the clone's own (a deep copy of its latest version); a link
  // naming an identity without versions is copied as it is.
  const links = await tx.select().from(screenerSurveys).where(eq(screenerSurveys.screenerId, from)).orderBy(asc(screenerSurveys.id));
  const surveys = await existingIdentities(tx, links.map((l) => l.oFormIdentity));
  const linked = new Set([...surveys].map((identity) => screenerCopyIdentity(id, identity)));
  for (const link of links) {
    const copy = surveys.has(link.oFormIdentity) ? await copyIntoScreener(tx, id, link.oFormIdentity, { preferApproved: false, linked }) : null;
    await tx
      .insert(screenerSurveys)
      .values({ screenerId: id, oFormIdentity: copy?.identity ?? link.oFormIdentity, isActive: link.isActive, displayOrder: link.displayOrder });
  }
  return id;
}

export function screenersRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  const canEdit = requireRole(...STAFF_ADMIN_ROLES);
  app.use('*', authenticate(deps));

  app.get('/', describe({ summary: 'List screeners', list: listSpec, answer: { list: listSpec.type } }), async (c) => {
    const user = c.get('user');
    const q = parseListQuery(new URL(c.req.url).searchParams, listSpec);
    const isActive = parseBooleanFilter(q.filters.isActive, 'isActive');
    const conditions: (SQL | undefined)[] = [screenerScope(user)];
    if (q.filters.sponsorId !== undefined) {
      const sponsorId = parseId(q.filters.sponsorId);
      if (sponsorId === null) throw badRequest("'sponsorId' must be a sponsor id.", 'sponsorId');
      conditions.push(eq(screeners.sponsorId, sponsorId));
    }
    if (q.filters.searchQuery?.trim()) conditions.push(ilikeAny([screeners.title, screeners.description, sponsors.name], q.filters.searchQuery));
    if (isActive !== undefined) conditions.push(eq(screeners.isActive, isActive));
    const where = and(...conditions);
    const counted = db.select({ n: count() }).from(screeners).innerJoin(sponsors, eq(sponsors.id, screeners.sponsorId)).$dynamic();
    const page = await joinedPage(selectScreeners(db).$dynamic(), counted, q, { where, sorts: sortColumns, id: screeners.id });
    const rows = page.rows as ScreenerRow[];
    const related = await loadRelated(db, rows.map((r) => r.id));
    return sendList(c, rows.map((r) => serialize(r, related, q.fields)), { total: page.total, page: q.page, limit: q.limit });
  });

  // Before '/:id'. A screener's additional languages; screenerId narrows to one screener.
  const languagesSpec = {
    type: SCREENER_LANGUAGE_TYPE,
    sorts: ['description', 'isoCode'] as const,
    defaultSort: 'description',
    defaultLimit: 1000,
    filters: ['screenerId'] as const,
  };
  app.get('/languages-screeners', describe({ summary: "List a screener's languages", list: languagesSpec, answer: { list: languagesSpec.type } }), async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, languagesSpec);
    const conditions: (SQL | undefined)[] = [screenerScope(c.get('user'))];
    if (q.filters.screenerId !== undefined) {
      const screenerId = parseId(q.filters.screenerId);
      if (screenerId === null) throw badRequest("'screenerId' must be a screener id.", 'screenerId');
      conditions.push(eq(screenerLanguages.screenerId, screenerId));
    }
    const where = and(...conditions);
    const select = db
      .select({ screenerId: screenerLanguages.screenerId, languageId: languages.id, description: languages.description, isoCode: languages.isoCode })
      .from(screenerLanguages)
      .innerJoin(languages, eq(languages.id, screenerLanguages.languageId))
      .innerJoin(screeners, eq(screeners.id, screenerLanguages.screenerId))
      .$dynamic();
    const counted = db.select({ n: count() }).from(screenerLanguages).innerJoin(screeners, eq(screeners.id, screenerLanguages.screenerId)).$dynamic();
    const sorts = { description: languages.description, isoCode: languages.isoCode };
    const { rows, total } = await joinedPage(select, counted, q, { where, sorts, id: [screenerLanguages.screenerId, languages.id] });
    return sendList(
      c,
      rows.map((r) => toResource(SCREENER_LANGUAGE_TYPE, `${r.screenerId}_${r.languageId}`, r)),
      { total, page: q.page, limit: q.limit },
    );
  });

  app.get('/:id', describe({ summary: 'Read a screener' }), async (c) => {
    const q = parseReadQuery(new URL(c.req.url).searchParams, listSpec);
    const row = await findScreener(db, parseId(c.req.param('id')), c.get('user'));
    if (!row) throw notFound('screener');
    return sendResource(c, serialize(row, await loadRelated(db, [row.id]), q.fields));
  });

  app.post('/', describe({ summary: 'Create a screener', body: { resource: SCREENER_TYPE, attributes: ScreenerInput }, answer: { resource: SCREENER_TYPE, status: 201 } }), canEdit, async (c) => {
    const user = c.get('user');
    const { attributes, relationships } = await readResource(c, ScreenerInput, { type: SCREENER_TYPE });
    await assertSponsor(db, attributes.sponsorId);
    await assertLanguageCodes(db, attributes);
    const links = await readRelationships(db, relationships, attributes.sponsorId);
    const { messages, ...values } = attributes;
    const id = await db
      .transaction(async (tx) => {
        const [row] = await tx.insert(screeners).values({ ...values, userId: user.id }).returning({ id: screeners.id });
        if (!row) throw new Error('insert returned no row');
        await writeMessages(tx, row.id, messages);
        if (links.languages) await writeLanguages(tx, row.id, links.languages);
        if (links.engagements) await writeEngagements(tx, row.id, links.engagements);
        return row.id;
      })
      .catch(onConstraint);
    return sendScreener(c, db, id, 201);
  });

  app.patch('/:id', describe({ summary: 'Update a screener', body: { resource: SCREENER_TYPE, attributes: ScreenerPatch }, answer: { resource: SCREENER_TYPE } }), canEdit, async (c) => {
    const user = c.get('user');
    const id = parseId(c.req.param('id'));
    const existing = await findScreener(db, id, user);
    if (!existing || id === null) throw notFound('screener');
    const { attributes, relationships } = await readResource(c, ScreenerPatch, { type: SCREENER_TYPE, id });
    // A locked screener takes only its unlocking.
    const keys = Object.keys(attributes);
    const unlockOnly = keys.length === 1 && attributes.isLocked === false && Object.keys(relationships).length === 0;
    if (existing.isLocked && !unlockOnly) throw lockedProblem();
    await assertSponsor(db, attributes.sponsorId);
    await assertLanguageCodes(db, attributes);
    const sponsorId = attributes.sponsorId ?? existing.sponsorId;
    const links = await readRelationships(db, relationships, sponsorId);
    if (sponsorId !== existing.sponsorId && !links.engagements) {
      const current = await db.select({ id: engagementScreeners.engagementId }).from(engagementScreeners).where(eq(engagementScreeners.screenerId, id));
      if (await engagementIdsProblem(db, current.map((e) => e.id), sponsorId)) {
        throw invalid([{ pointer: '/data/attributes/sponsorId', detail: 'This screener serves engagements of its current sponsor: change its engagements too.' }]);
      }
    }
    const { messages, ...values } = attributes;
    await db
      .transaction(async (tx) => {
        await tx
          .update(screeners)
          .set({ ...values, modified: sql`now()` })
          .where(eq(screeners.id, id));
        if (messages) await writeMessages(tx, id, messages);
        if (links.languages) await writeLanguages(tx, id, links.languages);
        if (links.engagements) await writeEngagements(tx, id, links.engagements);
      })
      .catch(onConstraint);
    return sendScreener(c, db, id);
  });

  app.delete('/:id', describe({ summary: 'Delete a screener', answer: { empty: true } }), canEdit, async (c) => {
    const id = parseId(c.req.param('id'));
    const existing = await editableScreener(db, id, c.get('user'));
    const channels = await mediaChannelCount(db, existing.id);
    if (channels > 0) throw conflict(SCREENER_HAS_MEDIA_CHANNELS(channels));
    // Messages, languages and the engagement, contact-field and survey links go with it (cascade).
    await db.delete(screeners).where(eq(screeners.id, existing.id));
    return c.body(null, 204);
  });

  // Cloning: POST /api/screeners/{id}/clone (optional attributes.title), answering the copy.
  app.post('/:id/clone', describe({ summary: 'Clone a screener', body: { resource: SCREENER_TYPE, attributes: CloneInput }, answer: { resource: SCREENER_TYPE, status: 201 } }), canEdit, async (c) => {
    const user = c.get('user');
    const source = await findScreener(db, parseId(c.req.param('id')), user);
    if (!source) throw notFound('screener');
    // The body is optional: without one the copy is titled "{title} (Copy)".
    const hasBody = c.req.header('content-type') !== undefined || Number(c.req.header('content-length') ?? 0) > 0;
    const { attributes } = hasBody ? await readResource(c, CloneInput, { type: SCREENER_TYPE }) : { attributes: {} as v.InferOutput<typeof CloneInput> };
    const id = await db.transaction((tx) => cloneScreener(tx, source, attributes.title ?? `${source.title} (Copy)`, user.id)).catch(onConstraint);
    return sendScreener(c, db, id, 201);
  });

  app.delete('/clone/:id', describe({ summary: 'Delete a screener clone', answer: { empty: true } }), canEdit, async (c) => {
    const existing = await findScreener(db, parseId(c.req.param('id')), c.get('user'));
    if (!existing) throw notFound('screener');
    if (existing.clonedFromId === null) throw conflict(NOT_A_CLONE);
    if (existing.isLocked) throw lockedProblem();
    const channels = await mediaChannelCount(db, existing.id);
    if (channels > 0) throw conflict(SCREENER_HAS_MEDIA_CHANNELS(channels));
    await db.transaction(async (tx) => {
      // The surveys copied for it go with it, every version; the rest hangs off it (ON DELETE CASCADE).
      const copies = await copiesMadeFor(tx, existing.id);
      if (copies.length) await tx.delete(oForms).where(inArray(oForms.identity, copies));
      await tx.delete(screeners).where(eq(screeners.id, existing.id));
    });
    return c.body(null, 204);
  });

  /**
   * Brings a clone's surveys up to date with its source's: each survey the clone still has
   * gets a new, unapproved version copied from the source survey's approved version (its
   * latest when none is approved). Answers the versions made.
   */
  app.patch('/update-surveys/:id', describe({ summary: "Set a screener's surveys", answer: { list: null } }), canEdit, async (c) => {
    const existing = await findScreener(db, parseId(c.req.param('id')), c.get('user'));
    if (!existing) throw notFound('screener');
    if (existing.clonedFromId === null) throw conflict('Only a clone takes its surveys from its source.');
    if (existing.isLocked) throw lockedProblem();
    const sourceId = existing.clonedFromId;
    const refreshed = await db
      .transaction(async (tx) => {
        const own = await tx.select().from(screenerSurveys).where(eq(screenerSurveys.screenerId, existing.id));
        const linked = new Set(own.map((l) => l.oFormIdentity));
        const sources = await tx
          .select({ identity: screenerSurveys.oFormIdentity })
          .from(screenerSurveys)
          .where(eq(screenerSurveys.screenerId, sourceId))
          .orderBy(asc(screenerSurveys.displayOrder), asc(screenerSurveys.id));
        const out: SurveyRefresh[] = [];
        // Only the surveys the clone still has: one removed from the clone stays removed.
        for (const { identity } of sources) {
          if (!linked.has(screenerCopyIdentity(existing.id, identity))) continue;
          const copy = await copyIntoScreener(tx, existing.id, identity, { preferApproved: true, linked });
          if (copy) out.push({ sourceIdentity: identity, sourceVersionId: String(copy.sourceVersionId), oFormIdentity: copy.identity, oFormId: String(copy.versionId) });
        }
        return out;
      })
      .catch((error: unknown) => {
        // Two refreshes at once: the second would number the same versions.
        if (pgErrorCode(error).code === '23505') throw conflict(VERSION_RACE);
        throw error;
      });
    const rows = await db
      .select({ id: oForms.id, identity: oForms.identity, version: oForms.version, title: oForms.title })
      .from(oForms)
      .where(inArray(oForms.id, refreshed.length ? refreshed.map((r) => Number(r.oFormId)) : [0]));
    const data = refreshed.map((r) => {
      const row = rows.find((x) => String(x.id) === r.oFormId);
      return toResource('o-forms', r.oFormId, { identity: r.oFormIdentity, version: row?.version ?? 1, title: row?.title ?? '', sourceIdentity: r.sourceIdentity, sourceVersionId: r.sourceVersionId });
    });
    return sendList(c, data, { total: data.length, page: 1, limit: Math.max(1, data.length) });
  });

  // toggle_active of one of a screener's survey links.
  app.patch('/surveys/:id', describe({ summary: "Turn a screener's survey on or off", body: { resource: SCREENER_SURVEY_TYPE, attributes: ScreenerSurveyToggle }, answer: { resource: SCREENER_SURVEY_TYPE } }), canEdit, async (c) => {
    const id = parseId(c.req.param('id'));
    const [link] = id === null ? [] : await db.select().from(screenerSurveys).where(eq(screenerSurveys.id, id));
    if (!link || id === null) throw notFound('screener survey');
    await editableScreener(db, link.screenerId, c.get('user'));
    await readResource(c, ScreenerSurveyToggle, { type: SCREENER_SURVEY_TYPE, id });
    const [row] = await db
      .update(screenerSurveys)
      .set({ isActive: sql`not ${screenerSurveys.isActive}` })
      .where(eq(screenerSurveys.id, id))
      .returning();
    const answer = row && (await readScreenerSurveyLink(db, row.id));
    if (!answer) throw notFound('screener survey');
    return sendResource(c, answer);
  });

  return app;
}
