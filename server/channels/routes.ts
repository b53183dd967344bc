/**
 * Media channels (SPEC sections 3, 7): where a screener is embedded. Staff see and change the
 * channels of the screeners of their sponsors (domain/mediaChannels.ts); the figures are
 * read-only (counted by the participant runner). The surveys each channel serves are
 * /api/media-channel-surveys.
 */
import { channelFigures, type ChannelFigures } from '../participant';
import { Hono } from 'hono';
import {
  EMBED_PROBLEM,
  MEDIA_CHANNEL,
  MEDIA_CHANNEL_DEFAULT_SORT,
  MEDIA_CHANNEL_SORTS,
  MEDIA_CHANNEL_TYPE,
  MediaChannelInput,
  MediaChannelPatch,
  SERVED_SURVEY,
  SERVED_SURVEY_TYPE,
  type EmbedProblemRecord,
  type MediaChannel,
  type MediaChannelKind,
} from '@core/model/mediaChannel';
import { nowOf, type AppEnv, type AuthUser, type Deps } from '../context';
import { screenerPauses } from '../engagements';
import type { Db } from '../db/open';
import { authenticate } from '../auth/guards';
import { invalid, notFound } from '../http/errors';
import { parseId, parseListQuery, type ListSpec } from '../http/query';
import { rowAtPath } from '../http/pathRow';
import { memberRead, rowDocument } from '../http/memberRead';
import { answerList } from '../http/listAnswer';
import { sendResource, toResource } from '../http/serialize';
import { findScreener } from '../screeners';
import {
  CHANNEL_FILTERS,
  UNKNOWN_MEDIA_CHANNEL_SCREENER,
  channelById,
  channelPage,
  createChannel,
  findChannel,
  type ChannelFilter,
  servedSurveys,
  updateChannel,
  type ChannelRow,
} from './mediaChannels';
import { describe } from '../openapi/describe';
import { answerWholeList, wholeListRead } from '../http/wholeList';
import { resourceCreation, resourceUpdate } from '../http/resourceWrites';
import type { EmbedProblemCode } from '@core/model/embedProblem';
import { embedProblemsOf } from '../participant';

const listSpec: ListSpec<(typeof MEDIA_CHANNEL_SORTS)[number], ChannelFilter> = {
  type: MEDIA_CHANNEL_TYPE,
  sorts: MEDIA_CHANNEL_SORTS,
  defaultSort: MEDIA_CHANNEL_DEFAULT_SORT,
  filters: CHANNEL_FILTERS,
  fields: MEDIA_CHANNEL.names,
};

function serialize(row: ChannelRow, figures: ChannelFigures, fields: Set<string> | null = null) {
  const { id, created, modified, channelType, ...rest } = row;
  return toResource(
    MEDIA_CHANNEL_TYPE,
    id,
    { ...rest, ...figures, channelType: channelType as MediaChannelKind, created: created.toISOString(), modified: modified.toISOString() } satisfies Omit<
      MediaChannel,
      'id'
    >,
    { fields },
  );
}

/** The rows as resources, with their figures (one query for the page). */
async function serializeAll(db: Db, rows: readonly ChannelRow[], fields: Set<string> | null = null) {
  const figures = await channelFigures(
    db,
    rows.map((r) => r.id),
  );
  // channelFigures answers every id it is asked for (zeros for a channel not yet counted).
  return rows.map((r) => serialize(r, figures.get(r.id)!, fields));
}

async function assertScreener(db: Db, screenerId: number | undefined, user: AuthUser) {
  if (screenerId === undefined) return;
  if (!(await findScreener(db, screenerId, user))) throw invalid([{ pointer: '/data/attributes/screenerId', detail: UNKNOWN_MEDIA_CHANNEL_SCREENER }]);
}

export function mediaChannelsRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  const sendOne = async (c: Parameters<typeof sendResource>[0], id: number, status: 200 | 201 = 200) => {
    const row = await channelById(db, id);
    if (!row) throw notFound('media channel');
    return sendResource(c, (await serializeAll(db, [row]))[0]!, status);
  };

  app.get('/', describe({ summary: 'List media channels', list: listSpec, answer: { list: MEDIA_CHANNEL } }), async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, listSpec);
    return answerList(c, q, async (window) => {
      const { rows, total } = await channelPage(db, c.get('user'), { ...q, ...window });
      return { data: await serializeAll(db, rows as ChannelRow[], q.fields), total };
    });
  });

  const readChannel = rowDocument(db, findChannel, async (row, q) => {
    const resource = (await serializeAll(db, [row], q.fields))[0]!;
    // Why its participants reach notActive, if they do: engagements at their target or past their dates.
    if (!q.fields || q.fields.has('recruitmentPause'))
      resource.attributes = { ...resource.attributes, recruitmentPause: await screenerPauses(db, row.screenerId, nowOf(deps)) };
    return { data: resource };
  });
  app.get(
    '/:id',
    describe({ summary: 'Read a media channel', read: listSpec, answer: { resource: MEDIA_CHANNEL } }),
    memberRead(listSpec, 'media channel', readChannel),
  );

  /** What the channel serves participants, and which survey a participant starts now (domain/mediaChannels.ts). */
  app.get('/:id/served-surveys', describe(wholeListRead('The surveys a media channel serves participants, and which one starts', SERVED_SURVEY)), (c) =>
    answerWholeList(c, async () => {
      const found = await findChannel(db, parseId(c.req.param('id')), c.get('user'));
      const served = found ? await servedSurveys(db, found.id) : undefined;
      if (!served) throw notFound('media channel');
      return served.map((survey) => toResource(SERVED_SURVEY_TYPE, survey.oFormIdentity, survey));
    }),
  );

  /** The last distinct embed problems seen on partner pages for the channel (page origin and cause, counted), most recent first. */
  app.get('/:id/embed-problems', describe(wholeListRead('The embed problems seen for a media channel on partner pages', EMBED_PROBLEM)), (c) =>
    answerWholeList(c, async () => {
      const { row: found } = await rowAtPath(c, 'media channel', (id) => findChannel(db, id, c.get('user')));
      const rows = await embedProblemsOf(db, found.id);
      return rows.map((r) =>
        toResource(EMBED_PROBLEM.type, `${r.mediaChannelId}:${r.cause}:${r.origin}`, {
          mediaChannelId: r.mediaChannelId,
          origin: r.origin,
          cause: r.cause as EmbedProblemCode,
          firstSeen: r.firstSeen.toISOString(),
          lastSeen: r.lastSeen.toISOString(),
          count: r.count,
        } satisfies Omit<EmbedProblemRecord, 'id'>),
      );
    }),
  );

  app.post('/', describe(resourceCreation('Create a media channel', MEDIA_CHANNEL, MediaChannelInput)), async (c) => {
    const { attributes } = await c.var.body.read();
    await assertScreener(db, attributes.screenerId, c.get('user'));
    return sendOne(c, await createChannel(db, attributes), 201);
  });

  app.patch('/:id', describe(resourceUpdate('Update a media channel', MEDIA_CHANNEL, MediaChannelPatch)), async (c) => {
    const { id, row: existing } = await rowAtPath(c, 'media channel', (id) => findChannel(db, id, c.get('user')));
    const { attributes } = await c.var.body.read({ id });
    await assertScreener(db, attributes.screenerId, c.get('user'));
    await updateChannel(db, existing, attributes);
    return sendOne(c, id);
  });

  return app;
}
