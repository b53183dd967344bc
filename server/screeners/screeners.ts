/**
 * The screeners themselves: their list query and the list of their additional languages, one
 * screener with its messages, engagements and languages, and create, update and delete. A locked
 * screener takes only its unlocking; one with media channels is not deleted.
 */
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type * as v from 'valibot';
import {
  SCREENER_OUTCOMES,
  emptyScreenerMessage,
  type SCREENER_SORTS,
  type ScreenerInput,
  type ScreenerMessage,
  type ScreenerMessageInput,
  type ScreenerOutcome,
  type ScreenerPatch,
} from '@core/model/screener';
import { chooseFromList } from '@core/validation/chooseFromList';
import type { AuthUser } from '../context';
import type { Db, Tx } from '../db/open';
import { rowExists, insertedRow } from '../db/rows';
import { engagementScreeners, engagements, languages, mediaChannels, screenerLanguages, screenerMessages, screeners, sponsors } from '../db/schema';
import { toManyIds } from '../http/body';
import { Conflict, Invalid } from '../errors';
import { countOf, joinedPage } from '../http/list';
import { booleanFilter, filterConditions, idFilter } from '../http/filters';
import { searchParam } from '../http/params';
import type { ListQuery } from '../http/query';
import { ilikeAny, rethrowConstraint } from '../http/sql';
import { assertTranslationLanguages } from '../languages';
import { lockedProblem, screenerScope, selectScreeners, type ScreenerRow } from './access';
import { engagementIdsProblem, writeEngagements } from './engagements';

export const UNKNOWN_SCREENER_SPONSOR = chooseFromList('a sponsor');
export const NOT_A_CLONE = 'This screener is not a clone; delete it with DELETE /api/screeners/{id}.';
export const SCREENER_HAS_MEDIA_CHANNELS = (n: number) => `This screener has ${n} media channel${n === 1 ? '' : 's'}; deactivate it instead of deleting it.`;

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

export interface Related {
  messages: Map<number, Record<ScreenerOutcome, ScreenerMessage>>;
  engagements: Map<number, { id: number; name: string }[]>;
  languages: Map<number, { id: number; description: string; isoCode: string }[]>;
}

export async function loadRelated(db: Db, ids: number[]): Promise<Related> {
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

/** One screener by id, whoever may see it; undefined when there is none. */
export async function screenerById(db: Db, id: number): Promise<ScreenerRow | undefined> {
  const [row] = (await selectScreeners(db).where(eq(screeners.id, id))) as ScreenerRow[];
  return row;
}

/** The screeners list's filters: one sponsor's, active or not, beside the search. */
const SCREENER_FILTERS = { sponsorId: idFilter(screeners.sponsorId, 'sponsor'), isActive: booleanFilter(screeners.isActive) };
export const SCREENER_LIST_FILTERS = { ...SCREENER_FILTERS, searchQuery: searchParam };

/** One page of the screeners the user may see, with what hangs off them. */
export async function screenerPage(db: Db, user: AuthUser, q: ListQuery<(typeof SCREENER_SORTS)[number], typeof SCREENER_LIST_FILTERS>) {
  const search = ilikeAny([screeners.title, screeners.description, sponsors.name], q.filters.searchQuery);
  const where = and(screenerScope(user), ...filterConditions(q.filters, SCREENER_FILTERS), search);
  const counted = countOf(db, screeners).innerJoin(sponsors, eq(sponsors.id, screeners.sponsorId)).$dynamic();
  const page = await joinedPage(selectScreeners(db).$dynamic(), counted, q, { where, sorts: sortColumns, id: screeners.id });
  const rows = page.rows as ScreenerRow[];
  const related = await loadRelated(
    db,
    rows.map((r) => r.id),
  );
  return { rows, total: page.total, related };
}

/** The additional languages list's filters: one screener's. */
export const SCREENER_LANGUAGE_FILTERS = { screenerId: idFilter(screenerLanguages.screenerId, 'screener') };

/** One page of screeners' additional languages (of the screeners the user may see). */
export async function screenerLanguagePage(db: Db, user: AuthUser, q: ListQuery<'description' | 'isoCode', typeof SCREENER_LANGUAGE_FILTERS>) {
  const where = and(screenerScope(user), ...filterConditions(q.filters, SCREENER_LANGUAGE_FILTERS));
  const select = db
    .select({ screenerId: screenerLanguages.screenerId, languageId: languages.id, description: languages.description, isoCode: languages.isoCode })
    .from(screenerLanguages)
    .innerJoin(languages, eq(languages.id, screenerLanguages.languageId))
    .innerJoin(screeners, eq(screeners.id, screenerLanguages.screenerId))
    .$dynamic();
  const counted = countOf(db, screenerLanguages).innerJoin(screeners, eq(screeners.id, screenerLanguages.screenerId)).$dynamic();
  const sorts = { description: languages.description, isoCode: languages.isoCode };
  const { rows, total } = await joinedPage(select, counted, q, { where, sorts, id: [screenerLanguages.screenerId, languages.id] });
  return { rows, total };
}

async function assertSponsor(db: Db, sponsorId: number | undefined) {
  if (sponsorId === undefined) return;
  if (!(await rowExists(db, sponsors.id, sponsorId))) throw new Invalid([{ pointer: '/data/attributes/sponsorId', detail: UNKNOWN_SCREENER_SPONSOR }]);
}

/** Every language code a write names must be a non-default language. */
async function assertLanguageCodes(
  db: Db,
  attributes: { translations?: Record<string, unknown>; messages?: Partial<Record<ScreenerOutcome, ScreenerMessageInput>> },
) {
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
  if (issues.length) throw new Invalid(issues);
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

export const onConstraint = (error: unknown): never =>
  rethrowConstraint(error, {
    // A sponsor, language or engagement removed between the check and the write.
    foreignKey: () => new Invalid([{ pointer: '/data', detail: 'Something this screener refers to no longer exists. Reload and try again.' }]),
  });

export const mediaChannelCount = async (db: Db, screenerId: number) =>
  (await db.select({ n: count() }).from(mediaChannels).where(eq(mediaChannels.screenerId, screenerId)))[0]?.n ?? 0;

/** Creates a screener with its messages, languages and engagements; answers its id. */
export async function createScreener(
  db: Db,
  user: AuthUser,
  attributes: v.InferOutput<typeof ScreenerInput>,
  relationships: Record<string, { data: unknown }>,
): Promise<number> {
  await assertSponsor(db, attributes.sponsorId);
  await assertLanguageCodes(db, attributes);
  const links = await readRelationships(db, relationships, attributes.sponsorId);
  const { messages, ...values } = attributes;
  return db
    .transaction(async (tx) => {
      const row = await insertedRow(
        tx
          .insert(screeners)
          .values({ ...values, userId: user.id })
          .returning({ id: screeners.id }),
      );
      await writeMessages(tx, row.id, messages);
      if (links.languages) await writeLanguages(tx, row.id, links.languages);
      if (links.engagements) await writeEngagements(tx, row.id, links.engagements);
      return row.id;
    })
    .catch(onConstraint);
}

/** Updates a screener; a locked one takes only its unlocking. */
export async function updateScreener(
  db: Db,
  existing: ScreenerRow,
  attributes: v.InferOutput<typeof ScreenerPatch>,
  relationships: Record<string, { data: unknown }>,
): Promise<void> {
  const id = existing.id;
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
    if (
      await engagementIdsProblem(
        db,
        current.map((e) => e.id),
        sponsorId,
      )
    ) {
      throw new Invalid([
        { pointer: '/data/attributes/sponsorId', detail: 'This screener serves engagements of its current sponsor: change its engagements too.' },
      ]);
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
}

/** Deletes a screener that no media channel uses. */
export async function deleteScreener(db: Db, existing: ScreenerRow): Promise<void> {
  const channels = await mediaChannelCount(db, existing.id);
  if (channels > 0) throw new Conflict(SCREENER_HAS_MEDIA_CHANNELS(channels));
  // Messages, languages and the engagement, contact-field and survey links go with it (cascade).
  await db.delete(screeners).where(eq(screeners.id, existing.id));
}
