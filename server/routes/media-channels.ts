/**
 * Media channels (SPEC sections 3, 7): where a screener is embedded. Staff see and change the
 * channels of the screeners of their sponsors; the figures are read-only (counted by the
 * participant runner). Also the survey identities each channel serves (/api/media-channel-surveys).
 */
import { CHANNEL_FIGURES, channelFigures, type ChannelFigure, type ChannelFigures } from '../domain/channelFigures';
import { Hono } from 'hono';
import { and, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  MEDIA_CHANNEL_DEFAULT_SORT,
  MEDIA_CHANNEL_SORTS,
  MEDIA_CHANNEL_SURVEY_TYPE,
  MEDIA_CHANNEL_TYPE,
  MEDIA_CHANNEL_TYPES,
  MediaChannelInput,
  MediaChannelPatch,
  MediaChannelSurveyInput,
  MediaChannelSurveyPatch,
  SERVED_SURVEY_TYPE,
  type MediaChannel,
  type ServedSurvey,
  type MediaChannelKind,
} from '@core/model/mediaChannel';
import type { AppEnv, AuthUser, Deps } from '../context';
import type { Db } from '../db/open';
import { mediaChannelSurveys, mediaChannels, oForms, screenerSurveys, screeners, sponsors } from '../db/schema';
import { currentVersionId, namingColumns } from '../oform/versions';
import { resolveStart, servedIdentities } from '../participant/run';
import { authenticate } from '../auth/guards';
import { readResource } from '../http/body';
import { badRequest, conflict, invalid, notFound } from '../http/errors';
import { parseId, parseListQuery, parseReadQuery, type ListSpec } from '../http/query';
import { sendList, sendResource, toResource } from '../http/serialize';
import { joinedPage } from '../http/list';
import { ilikeAny, pgErrorCode } from '../http/sql';
import { booleanFilter, choiceFilter, filterConditions, filterNames, idFilter } from '../http/filters';
import { findScreener } from './screeners';
import { screenerScope } from '../domain/screenerAccess';
import { participantCors } from '../participant/cors';
import { describe } from '../openapi/describe';
import { PARTICIPANT_ANSWERS } from '@core/participant/responses';
import { EMBED_PROBLEM_TYPE, type EmbedProblemCode, type EmbedProblemRecord } from '@core/participant/embedProblems';
import { embedProblemsOf } from '../participant/embedProblems';

export const UNKNOWN_MEDIA_CHANNEL_SCREENER = 'Choose a screener from the list.';
export const SURVEY_NOT_IN_SCREENER = "Choose one of the surveys of this channel's screener.";
export const SURVEY_ALREADY_ON_CHANNEL = 'This media channel already serves this survey.';

const columns = {
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
  created: mediaChannels.created,
  modified: mediaChannels.modified,
};
type Row = Omit<MediaChannel, 'id' | 'created' | 'modified' | 'channelType' | ChannelFigure> & { id: number; channelType: string; created: Date; modified: Date };

const FILTERS = {
  screenerId: idFilter(mediaChannels.screenerId, 'screener'),
  sponsorId: idFilter(screeners.sponsorId, 'sponsor'),
  channelType: choiceFilter(mediaChannels.channelType, MEDIA_CHANNEL_TYPES),
  isActive: booleanFilter(mediaChannels.isActive),
};

const listSpec: ListSpec<(typeof MEDIA_CHANNEL_SORTS)[number], 'searchQuery' | keyof typeof FILTERS> = {
  type: MEDIA_CHANNEL_TYPE,
  sorts: MEDIA_CHANNEL_SORTS,
  defaultSort: MEDIA_CHANNEL_DEFAULT_SORT,
  filters: ['searchQuery', ...filterNames(FILTERS)],
  fields: [...Object.keys(columns).filter((k) => k !== 'id'), ...CHANNEL_FIGURES],
};

const sortColumns = {
  title: mediaChannels.title,
  domain: mediaChannels.domain,
  channelType: mediaChannels.channelType,
  isActive: mediaChannels.isActive,
  screenerName: screeners.title,
  created: mediaChannels.created,
  modified: mediaChannels.modified,
};

const selectChannels = (db: Db) =>
  db
    .select(columns)
    .from(mediaChannels)
    .innerJoin(screeners, eq(screeners.id, mediaChannels.screenerId))
    .innerJoin(sponsors, eq(sponsors.id, screeners.sponsorId));

function serialize(row: Row, figures: ChannelFigures | undefined, fields: Set<string> | null = null) {
  const { id, created, modified, channelType, ...rest } = row;
  return toResource(
    MEDIA_CHANNEL_TYPE,
    id,
    { ...rest, ...figures, channelType: channelType as MediaChannelKind, created: created.toISOString(), modified: modified.toISOString() },
    { fields },
  );
}

/** The rows as resources, with their figures (one query for the page). */
async function serializeAll(db: Db, rows: readonly Row[], fields: Set<string> | null = null) {
  const figures = await channelFigures(db, rows.map((r) => r.id));
  return rows.map((r) => serialize(r, figures.get(r.id), fields));
}

async function findChannel(db: Db, id: number | null, user: AuthUser): Promise<Row | undefined> {
  if (id === null) return undefined;
  const [row] = await selectChannels(db).where(and(eq(mediaChannels.id, id), screenerScope(user)));
  return row as Row | undefined;
}

async function assertScreener(db: Db, screenerId: number | undefined, user: AuthUser) {
  if (screenerId === undefined) return;
  if (!(await findScreener(db, screenerId, user))) throw invalid([{ pointer: '/data/attributes/screenerId', detail: UNKNOWN_MEDIA_CHANNEL_SCREENER }]);
}

function rethrowConstraint(error: unknown): never {
  if (pgErrorCode(error).code === '23503') throw invalid([{ pointer: '/data/attributes/screenerId', detail: UNKNOWN_MEDIA_CHANNEL_SCREENER }]);
  throw error;
}

export function mediaChannelsRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  const sendOne = async (c: Parameters<typeof sendResource>[0], id: number, status: 200 | 201 = 200) => {
    const [row] = (await selectChannels(db).where(eq(mediaChannels.id, id))) as Row[];
    if (!row) throw notFound('media channel');
    return sendResource(c, (await serializeAll(db, [row]))[0]!, status);
  };

  app.get('/', describe({ summary: 'List media channels', list: listSpec, answer: { list: listSpec.type } }), async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, listSpec);
    const conditions: (SQL | undefined)[] = [screenerScope(c.get('user')), ...filterConditions(q.filters, FILTERS)];
    if (q.filters.searchQuery?.trim()) conditions.push(ilikeAny([mediaChannels.title, mediaChannels.domain, screeners.title], q.filters.searchQuery));
    const where = and(...conditions);
    const counted = db.select({ n: count() }).from(mediaChannels).innerJoin(screeners, eq(screeners.id, mediaChannels.screenerId)).$dynamic();
    const { rows, total } = await joinedPage(selectChannels(db).$dynamic(), counted, q, { where, sorts: sortColumns, id: mediaChannels.id });
    return sendList(c, await serializeAll(db, rows as Row[], q.fields), { total, page: q.page, limit: q.limit });
  });

  app.get('/:id', describe({ summary: 'Read a media channel' }), async (c) => {
    const q = parseReadQuery(new URL(c.req.url).searchParams, listSpec);
    const row = await findChannel(db, parseId(c.req.param('id')), c.get('user'));
    if (!row) throw notFound('media channel');
    return sendResource(c, (await serializeAll(db, [row], q.fields))[0]!);
  });

  /**
   * What the channel serves participants, by the participant start's own rule: the identities
   * in the order it tries them, each named by its current version; `starts` marks the one a
   * participant gets now (none while the channel, its screener or every survey is off).
   */
  app.get('/:id/served-surveys', describe({ summary: 'The surveys a media channel serves participants, and which one starts', answer: { list: null } }), async (c) => {
    const found = await findChannel(db, parseId(c.req.param('id')), c.get('user'));
    const [channel] = found ? await db.select().from(mediaChannels).where(eq(mediaChannels.id, found.id)) : [];
    if (!channel) throw notFound('media channel');
    const identities = await servedIdentities(db, channel.screenerId, channel.id);
    const start = await resolveStart(db, { channel, screenerId: null, identity: null });
    const named = identities.length
      ? await db
          .select({ identity: oForms.identity, ...namingColumns })
          .from(oForms)
          .where(and(inArray(oForms.identity, identities), eq(oForms.id, currentVersionId(oForms.identity))))
      : [];
    const data = identities.map((identity) => {
      const naming = named.find((n) => n.identity === identity);
      return toResource(SERVED_SURVEY_TYPE, identity, {
        oFormIdentity: identity,
        title: naming?.title ?? null,
        version: naming?.version ?? null,
        isApproved: naming?.isApproved ?? null,
        starts: start.runnable && start.form?.identity === identity,
      } satisfies Omit<ServedSurvey, 'id'>);
    });
    return sendList(c, data, { total: data.length, page: 1, limit: Math.max(1, data.length) });
  });

  /** The last distinct embed problems seen on partner pages for the channel (page origin and cause, counted), most recent first. */
  app.get('/:id/embed-problems', describe({ summary: 'The embed problems seen for a media channel on partner pages', answer: { list: EMBED_PROBLEM_TYPE } }), async (c) => {
    const found = await findChannel(db, parseId(c.req.param('id')), c.get('user'));
    if (!found) throw notFound('media channel');
    const rows = await embedProblemsOf(db, found.id);
    const data = rows.map((r) =>
      toResource(EMBED_PROBLEM_TYPE, `${r.mediaChannelId}:${r.cause}:${r.origin}`, {
        mediaChannelId: r.mediaChannelId,
        origin: r.origin,
        cause: r.cause as EmbedProblemCode,
        firstSeen: r.firstSeen.toISOString(),
        lastSeen: r.lastSeen.toISOString(),
        count: r.count,
      } satisfies Omit<EmbedProblemRecord, 'id'>),
    );
    return sendList(c, data, { total: data.length, page: 1, limit: Math.max(1, data.length) });
  });

  app.post('/', describe({ summary: 'Create a media channel', body: { resource: MEDIA_CHANNEL_TYPE, attributes: MediaChannelInput }, answer: { resource: MEDIA_CHANNEL_TYPE, status: 201 } }), async (c) => {
    const { attributes } = await readResource(c, MediaChannelInput, { type: MEDIA_CHANNEL_TYPE });
    await assertScreener(db, attributes.screenerId, c.get('user'));
    const [row] = await db.insert(mediaChannels).values(attributes).returning({ id: mediaChannels.id }).catch(rethrowConstraint);
    if (!row) throw new Error('insert returned no row');
    return sendOne(c, row.id, 201);
  });

  app.patch('/:id', describe({ summary: 'Update a media channel', body: { resource: MEDIA_CHANNEL_TYPE, attributes: MediaChannelPatch }, answer: { resource: MEDIA_CHANNEL_TYPE } }), async (c) => {
    const id = parseId(c.req.param('id'));
    const existing = await findChannel(db, id, c.get('user'));
    if (!existing || id === null) throw notFound('media channel');
    const { attributes } = await readResource(c, MediaChannelPatch, { type: MEDIA_CHANNEL_TYPE, id });
    await assertScreener(db, attributes.screenerId, c.get('user'));
    await db.transaction(async (tx) => {
      await tx
        .update(mediaChannels)
        .set({ ...attributes, modified: sql`now()` })
        .where(eq(mediaChannels.id, id));
      // A channel moved to another screener keeps only the surveys that screener has.
      if (attributes.screenerId !== undefined && attributes.screenerId !== existing.screenerId) {
        await tx.execute(sql`delete from ${mediaChannelSurveys} where media_channel_id = ${id}
          and o_form_identity not in (select o_form_identity from ${screenerSurveys} where screener_id = ${attributes.screenerId})`);
      }
    }).catch(rethrowConstraint);
    return sendOne(c, id);
  });

  return app;
}

type LinkRow = typeof mediaChannelSurveys.$inferSelect;
type NamedLink = { link: LinkRow; title: string | null; version: number | null; isApproved: boolean | null };
const linkResource = ({ link: { id, ...attributes }, ...naming }: NamedLink) => toResource(MEDIA_CHANNEL_SURVEY_TYPE, id, { ...attributes, ...naming });

/** Links with their channel and screener (for the scope) and the survey's current version (for its name). */
const selectLinks = (db: Db) =>
  db
    .select({ link: mediaChannelSurveys, ...namingColumns })
    .from(mediaChannelSurveys)
    .innerJoin(mediaChannels, eq(mediaChannels.id, mediaChannelSurveys.mediaChannelId))
    .innerJoin(screeners, eq(screeners.id, mediaChannels.screenerId))
    .leftJoin(oForms, eq(oForms.id, currentVersionId(mediaChannelSurveys.oFormIdentity)));

async function sendLink(c: Parameters<typeof sendResource>[0], db: Db, id: number, status: 200 | 201 = 200) {
  const [row] = await selectLinks(db).where(eq(mediaChannelSurveys.id, id));
  if (!row) throw notFound('media channel survey');
  return sendResource(c, linkResource(row), status);
}

export function mediaChannelSurveysRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  app.get('/', describe({ summary: "List a media channel's surveys", answer: { list: null } }), async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, {
      type: MEDIA_CHANNEL_SURVEY_TYPE,
      sorts: ['oFormIdentity', 'isActive'] as const,
      defaultSort: 'oFormIdentity',
      defaultLimit: 100,
      filters: ['mediaChannelId'] as const,
    });
    const conditions: (SQL | undefined)[] = [screenerScope(c.get('user'))];
    if (q.filters.mediaChannelId !== undefined) {
      const id = parseId(q.filters.mediaChannelId);
      if (id === null) throw badRequest("'mediaChannelId' must be a media channel id.", 'mediaChannelId');
      conditions.push(eq(mediaChannelSurveys.mediaChannelId, id));
    }
    const where = and(...conditions);
    const counted = db
      .select({ n: count() })
      .from(mediaChannelSurveys)
      .innerJoin(mediaChannels, eq(mediaChannels.id, mediaChannelSurveys.mediaChannelId))
      .innerJoin(screeners, eq(screeners.id, mediaChannels.screenerId))
      .$dynamic();
    const sorts = { oFormIdentity: mediaChannelSurveys.oFormIdentity, isActive: mediaChannelSurveys.isActive };
    const { rows, total } = await joinedPage(selectLinks(db).$dynamic(), counted, q, { where, sorts, id: mediaChannelSurveys.id });
    return sendList(c, rows.map(linkResource), { total, page: q.page, limit: q.limit });
  });

  app.post('/', describe({ summary: 'Assign a survey to a media channel', body: { resource: MEDIA_CHANNEL_SURVEY_TYPE, attributes: MediaChannelSurveyInput }, answer: { resource: MEDIA_CHANNEL_SURVEY_TYPE, status: 201 } }), async (c) => {
    const { attributes } = await readResource(c, MediaChannelSurveyInput, { type: MEDIA_CHANNEL_SURVEY_TYPE });
    const channel = await findChannel(db, attributes.mediaChannelId, c.get('user'));
    if (!channel) throw invalid([{ pointer: '/data/attributes/mediaChannelId', detail: 'Choose a media channel from the list.' }]);
    const [served] = await db
      .select({ id: screenerSurveys.id })
      .from(screenerSurveys)
      .where(and(eq(screenerSurveys.screenerId, channel.screenerId), eq(screenerSurveys.oFormIdentity, attributes.oFormIdentity)));
    if (!served) throw invalid([{ pointer: '/data/attributes/oFormIdentity', detail: SURVEY_NOT_IN_SCREENER }]);
    const [row] = await db
      .insert(mediaChannelSurveys)
      .values(attributes)
      .returning()
      .catch((error: unknown) => {
        if (pgErrorCode(error).code === '23505') throw conflict(SURVEY_ALREADY_ON_CHANNEL, '/data/attributes/oFormIdentity');
        throw error;
      });
    if (!row) throw new Error('insert returned no row');
    return sendLink(c, db, row.id, 201);
  });

  app.patch('/:id', describe({ summary: "Update a media channel's survey", body: { resource: MEDIA_CHANNEL_SURVEY_TYPE, attributes: MediaChannelSurveyPatch }, answer: { resource: MEDIA_CHANNEL_SURVEY_TYPE } }), async (c) => {
    const id = parseId(c.req.param('id'));
    const [link] = id === null ? [] : await db.select().from(mediaChannelSurveys).where(eq(mediaChannelSurveys.id, id));
    if (!link || id === null || !(await findChannel(db, link.mediaChannelId, c.get('user')))) throw notFound('media channel survey');
    const { attributes } = await readResource(c, MediaChannelSurveyPatch, { type: MEDIA_CHANNEL_SURVEY_TYPE, id });
    const [row] = await db.update(mediaChannelSurveys).set(attributes).where(eq(mediaChannelSurveys.id, id)).returning();
    if (!row) throw notFound('media channel survey');
    return sendLink(c, db, row.id);
  });

  return app;
}

/**
 * GET /api/get-media-channel-for-transition-survey/{toOFormIdentity}/{fromMediaChannelId}: the
 * media channel a participant continues on when a survey transitions to another survey. Public
 * (the participant is not signed in) and answering only ids. The target survey must be served
 * by an active link of an active channel of the same sponsor as the channel the participant came
 * from; that channel itself is preferred, then one of the same screener, then the lowest id.
 */
export function transitionMediaChannelRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  // The widget asks from the partner's page (naming its channel in ?mediaChannelId=, like every participant call).
  app.use('/:identity/:fromId', participantCors(deps));
  app.get('/:identity/:fromId', describe({ summary: 'Find the media channel a transition survey continues on', access: 'public', answer: { document: PARTICIPANT_ANSWERS.transitionChannel } }), async (c) => {
    const identity = c.req.param('identity');
    const fromId = parseId(c.req.param('fromId'));
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(identity) || fromId === null) throw notFound('media channel');
    const [from] = await db
      .select({ id: mediaChannels.id, screenerId: mediaChannels.screenerId, sponsorId: screeners.sponsorId })
      .from(mediaChannels)
      .innerJoin(screeners, eq(screeners.id, mediaChannels.screenerId))
      .where(and(eq(mediaChannels.id, fromId), eq(mediaChannels.isActive, true)));
    if (!from) throw notFound('media channel');
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
      .orderBy(
        sql`${mediaChannels.id} = ${from.id} desc`,
        sql`${mediaChannels.screenerId} = ${from.screenerId} desc`,
        mediaChannels.id,
      )
      .limit(1);
    if (!target) throw notFound('media channel');
    return sendResource(c, toResource(MEDIA_CHANNEL_TYPE, target.id, { screenerId: target.screenerId, oFormIdentity: identity }));
  });
  return app;
}
