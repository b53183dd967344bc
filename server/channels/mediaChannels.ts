/**
 * Media channels (SPEC sections 3, 7): where a screener is embedded, and the survey identities
 * each serves. Staff reach the channels of the screeners of their sponsors (screenerAccess.ts);
 * the figures are counted by the participant runner (channelFigures.ts). Also the channel a
 * participant continues on when a survey transitions to another survey.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { ChannelFigure } from '../participant';
import { MEDIA_CHANNEL_TYPES, type MEDIA_CHANNEL_SORTS, type MediaChannel, type ServedSurvey } from '@core/model/mediaChannel';
import type { AuthUser } from '../context';
import type { Db } from '../db/open';
import { rowWithId, insertedRow } from '../db/rows';
import { mediaChannelSurveys, mediaChannels, oForms, screenerSurveys, screeners, sponsors } from '../db/schema';
import { Conflict, Invalid } from '../errors';
import { booleanFilter, choiceFilter, filterConditions, idFilter } from '../http/filters';
import { searchParam } from '../http/params';
import { ilikeAny, rethrowConstraint } from '../http/sql';
import { countOf, joinedPage } from '../http/list';
import type { ListQuery } from '../http/query';
import { currentVersionId, namingColumns } from '../surveys';
import { resolveStart, servedIdentities } from '../participant';
import { screenerScope } from '../screeners';
import { chooseFromList } from '@core/validation/chooseFromList';

export const UNKNOWN_MEDIA_CHANNEL_SCREENER = chooseFromList('a screener');
export const SURVEY_NOT_IN_SCREENER = "Choose one of the surveys of this channel's screener.";
export const SURVEY_ALREADY_ON_CHANNEL = 'This media channel already serves this survey.';

export const channelColumns = {
  id: mediaChannels.id,
  title: mediaChannels.title,
  domain: mediaChannels.domain,
  screenerId: mediaChannels.screenerId,
  screenerName: screeners.title,
  sponsorId: screeners.sponsorId,
  sponsorName: sponsors.name,
  channelType: mediaChannels.channelType,
  isActive: mediaChannels.isActive,
  retakeWindowDays: mediaChannels.retakeWindowDays,
  hiddenFields: mediaChannels.hiddenFields,
  eventsPolicy: mediaChannels.eventsPolicy,
  locale: mediaChannels.locale,
  isolation: mediaChannels.isolation,
  created: mediaChannels.created,
  modified: mediaChannels.modified,
};
export type ChannelRow = Omit<MediaChannel, 'id' | 'created' | 'modified' | 'channelType' | 'recruitmentPause' | ChannelFigure> & {
  id: number;
  channelType: string;
  created: Date;
  modified: Date;
};

/** Channels with their screener and sponsor (for the names and the scope): add the conditions. */
export const selectChannels = (db: Db) =>
  db
    .select(channelColumns)
    .from(mediaChannels)
    .innerJoin(screeners, eq(screeners.id, mediaChannels.screenerId))
    .innerJoin(sponsors, eq(sponsors.id, screeners.sponsorId));

/** A channel the user may reach, or undefined. */
export async function findChannel(db: Db, id: number | null, user: AuthUser): Promise<ChannelRow | undefined> {
  return (await rowWithId(selectChannels(db), mediaChannels.id, id, screenerScope(user))) as ChannelRow | undefined;
}

const FILTERS = {
  screenerId: idFilter(mediaChannels.screenerId, 'screener'),
  sponsorId: idFilter(screeners.sponsorId, 'sponsor'),
  channelType: choiceFilter(mediaChannels.channelType, MEDIA_CHANNEL_TYPES),
  isActive: booleanFilter(mediaChannels.isActive),
};
/** The channels list's filters: the search beside FILTERS. */
export const CHANNEL_FILTERS = { ...FILTERS, searchQuery: searchParam };
export type ChannelFilter = typeof CHANNEL_FILTERS;

const sortColumns = {
  title: mediaChannels.title,
  domain: mediaChannels.domain,
  channelType: mediaChannels.channelType,
  isActive: mediaChannels.isActive,
  screenerName: screeners.title,
  created: mediaChannels.created,
  modified: mediaChannels.modified,
};

/** A page of the channels the user may reach, filtered as the list asks. */
export function channelPage(db: Db, user: AuthUser, q: ListQuery<(typeof MEDIA_CHANNEL_SORTS)[number], ChannelFilter>) {
  const search = ilikeAny([mediaChannels.title, mediaChannels.domain, screeners.title], q.filters.searchQuery);
  const where = and(screenerScope(user), ...filterConditions(q.filters, FILTERS), search);
  const counted = countOf(db, mediaChannels).innerJoin(screeners, eq(screeners.id, mediaChannels.screenerId)).$dynamic();
  return joinedPage(selectChannels(db).$dynamic(), counted, q, { where, sorts: sortColumns, id: mediaChannels.id });
}

/** A channel by its id, whoever's it is: for answering a write the caller has already scoped. */
export async function channelById(db: Db, id: number): Promise<ChannelRow | undefined> {
  const [row] = (await selectChannels(db).where(eq(mediaChannels.id, id))) as ChannelRow[];
  return row;
}

const onConstraint = (error: unknown): never =>
  rethrowConstraint(error, { foreignKey: () => new Invalid([{ pointer: '/data/attributes/screenerId', detail: UNKNOWN_MEDIA_CHANNEL_SCREENER }]) });

type ChannelValues = typeof mediaChannels.$inferInsert;

/** Stores a new channel; answers its id. */
export async function createChannel(db: Db, values: ChannelValues): Promise<number> {
  const row = await insertedRow(db.insert(mediaChannels).values(values).returning({ id: mediaChannels.id }).catch(onConstraint));
  return row.id;
}

/** Changes a channel; one moved to another screener keeps only the surveys that screener has. */
export async function updateChannel(db: Db, existing: ChannelRow, changes: Partial<ChannelValues>): Promise<void> {
  const id = existing.id;
  await db
    .transaction(async (tx) => {
      await tx
        .update(mediaChannels)
        .set({ ...changes, modified: sql`now()` })
        .where(eq(mediaChannels.id, id));
      if (changes.screenerId !== undefined && changes.screenerId !== existing.screenerId) {
        await tx.execute(sql`delete from ${mediaChannelSurveys} where media_channel_id = ${id}
        and o_form_identity not in (select o_form_identity from ${screenerSurveys} where screener_id = ${changes.screenerId})`);
      }
    })
    .catch(onConstraint);
}

/**
 * What the channel serves participants, by the participant start's own rule: the identities
 * in the order it tries them, each named by its current version; `starts` marks the one a
 * participant gets now (none while the channel, its screener or every survey is off).
 * Undefined when the channel is gone.
 */
export async function servedSurveys(db: Db, channelId: number): Promise<Omit<ServedSurvey, 'id'>[] | undefined> {
  const [channel] = await db.select().from(mediaChannels).where(eq(mediaChannels.id, channelId));
  if (!channel) return undefined;
  const identities = await servedIdentities(db, channel.screenerId, channel.id);
  const start = await resolveStart(db, { channel, screenerId: null, identity: null });
  const named = identities.length
    ? await db
        .select({ identity: oForms.identity, ...namingColumns })
        .from(oForms)
        .where(and(inArray(oForms.identity, identities), eq(oForms.id, currentVersionId(oForms.identity))))
    : [];
  return identities.map((identity) => {
    const naming = named.find((n) => n.identity === identity);
    return {
      oFormIdentity: identity,
      title: naming?.title ?? null,
      version: naming?.version ?? null,
      isApproved: naming?.isApproved ?? null,
      starts: start.runnable && start.form?.identity === identity,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// The surveys a channel serves (media-channel-surveys)

type ChannelSurveyValues = typeof mediaChannelSurveys.$inferInsert;

/** Links with their channel and screener (for the scope) and the survey's current version (for its name): add the conditions. */
export const selectChannelSurveys = (db: Db) =>
  db
    .select({ link: mediaChannelSurveys, ...namingColumns })
    .from(mediaChannelSurveys)
    .innerJoin(mediaChannels, eq(mediaChannels.id, mediaChannelSurveys.mediaChannelId))
    .innerJoin(screeners, eq(screeners.id, mediaChannels.screenerId))
    .leftJoin(oForms, eq(oForms.id, currentVersionId(mediaChannelSurveys.oFormIdentity)));

export type NamedChannelSurvey = { link: typeof mediaChannelSurveys.$inferSelect; title: string | null; version: number | null; isApproved: boolean | null };

export async function namedChannelSurvey(db: Db, id: number): Promise<NamedChannelSurvey | undefined> {
  const [row] = await selectChannelSurveys(db).where(eq(mediaChannelSurveys.id, id));
  return row;
}

/** A page of the channel-survey links of the channels the user may see, of one channel when given. */
export function channelSurveyPage(
  db: Db,
  user: AuthUser,
  mediaChannelId: number | undefined,
  q: Pick<ListQuery<'oFormIdentity' | 'isActive'>, 'sort' | 'limit' | 'offset'>,
) {
  const where = and(screenerScope(user), mediaChannelId === undefined ? undefined : eq(mediaChannelSurveys.mediaChannelId, mediaChannelId));
  const counted = countOf(db, mediaChannelSurveys)
    .innerJoin(mediaChannels, eq(mediaChannels.id, mediaChannelSurveys.mediaChannelId))
    .innerJoin(screeners, eq(screeners.id, mediaChannels.screenerId))
    .$dynamic();
  const sorts = { oFormIdentity: mediaChannelSurveys.oFormIdentity, isActive: mediaChannelSurveys.isActive };
  return joinedPage(selectChannelSurveys(db).$dynamic(), counted, q, { where, sorts, id: mediaChannelSurveys.id });
}

export async function updateChannelSurvey(db: Db, id: number, changes: Partial<Pick<typeof mediaChannelSurveys.$inferInsert, 'isActive'>>) {
  const [row] = await db.update(mediaChannelSurveys).set(changes).where(eq(mediaChannelSurveys.id, id)).returning();
  return row;
}

/** Assigns a survey to a channel: one of its screener's surveys, not yet on the channel (422, 409). Answers the link's id. */
export async function addChannelSurvey(db: Db, channel: ChannelRow, values: ChannelSurveyValues): Promise<number> {
  const [served] = await db
    .select({ id: screenerSurveys.id })
    .from(screenerSurveys)
    .where(and(eq(screenerSurveys.screenerId, channel.screenerId), eq(screenerSurveys.oFormIdentity, values.oFormIdentity)));
  if (!served) throw new Invalid([{ pointer: '/data/attributes/oFormIdentity', detail: SURVEY_NOT_IN_SCREENER }]);
  const row = await insertedRow(
    db
      .insert(mediaChannelSurveys)
      .values(values)
      .returning()
      .catch((error: unknown) => rethrowConstraint(error, { unique: () => new Conflict(SURVEY_ALREADY_ON_CHANNEL, '/data/attributes/oFormIdentity') })),
  );
  return row.id;
}

/** A link of a channel the user may reach, or undefined. */
export async function findChannelSurvey(db: Db, id: number | null, user: AuthUser) {
  const [link] = id === null ? [] : await db.select().from(mediaChannelSurveys).where(eq(mediaChannelSurveys.id, id));
  return link && (await findChannel(db, link.mediaChannelId, user)) ? link : undefined;
}

// ---------------------------------------------------------------------------------------------
// Transitions

/**
 * The media channel a participant continues on when a survey transitions to survey `identity`:
 * the target survey must be served by an active link of an active channel of the same sponsor
 * as the active channel `fromId` the participant came from; that channel itself is preferred,
 * then one of the same screener, then the lowest id. Undefined when there is none.
 */
export async function transitionChannel(db: Db, identity: string, fromId: number) {
  const [from] = await db
    .select({ id: mediaChannels.id, screenerId: mediaChannels.screenerId, sponsorId: screeners.sponsorId })
    .from(mediaChannels)
    .innerJoin(screeners, eq(screeners.id, mediaChannels.screenerId))
    .where(and(eq(mediaChannels.id, fromId), eq(mediaChannels.isActive, true)));
  if (!from) return undefined;
  const [target] = await db
    .select({ id: mediaChannels.id, screenerId: mediaChannels.screenerId })
    .from(mediaChannelSurveys)
    .innerJoin(mediaChannels, eq(mediaChannels.id, mediaChannelSurveys.mediaChannelId))
    .innerJoin(screeners, eq(screeners.id, mediaChannels.screenerId))
    .where(
      and(
        eq(mediaChannelSurveys.oFormIdentity, identity),
        eq(mediaChannelSurveys.isActive, true),
        eq(mediaChannels.isActive, true),
        eq(screeners.sponsorId, from.sponsorId),
      ),
    )
    .orderBy(sql`${mediaChannels.id} = ${from.id} desc`, sql`${mediaChannels.screenerId} = ${from.screenerId} desc`, mediaChannels.id)
    .limit(1);
  return target;
}
