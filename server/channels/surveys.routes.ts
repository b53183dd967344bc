/** The survey identities each media channel serves (SPEC section 7), in the channels' scope (domain/mediaChannels.ts). */
import { Hono } from 'hono';
import {
  MEDIA_CHANNEL_SURVEY,
  MEDIA_CHANNEL_SURVEY_TYPE,
  MediaChannelSurveyInput,
  MediaChannelSurveyPatch,
  type MediaChannelSurvey,
} from '@core/model/mediaChannel';
import type { AppEnv, Deps } from '../context';
import type { Db } from '../db/open';
import { authenticate } from '../auth/guards';
import { invalid, notFound } from '../http/errors';
import { rowAtPath } from '../http/pathRow';
import { answerRows } from '../http/listAnswer';
import { idParam } from '../http/params';
import { sendResource, toResource } from '../http/serialize';
import {
  addChannelSurvey,
  channelSurveyPage,
  findChannel,
  findChannelSurvey,
  namedChannelSurvey,
  updateChannelSurvey,
  type NamedChannelSurvey,
} from './mediaChannels';
import { describe } from '../openapi/describe';
import { resourceCreation, resourceUpdate } from '../http/resourceWrites';
import { chooseFromList } from '@core/validation/chooseFromList';

const linkResource = ({ link: { id, ...attributes }, ...naming }: NamedChannelSurvey) =>
  toResource(MEDIA_CHANNEL_SURVEY_TYPE, id, { ...attributes, ...naming } satisfies Omit<MediaChannelSurvey, 'id'>);

async function sendLink(c: Parameters<typeof sendResource>[0], db: Db, id: number, status: 200 | 201 = 200) {
  const row = await namedChannelSurvey(db, id);
  if (!row) throw notFound('media channel survey');
  return sendResource(c, linkResource(row), status);
}

export function mediaChannelSurveysRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  const listSpec = {
    type: MEDIA_CHANNEL_SURVEY_TYPE,
    sorts: ['oFormIdentity', 'isActive'] as const,
    defaultSort: 'oFormIdentity',
    defaultLimit: 100,
    filters: { mediaChannelId: idParam('media channel') },
  };
  app.get('/', describe({ summary: "List a media channel's surveys", list: listSpec, answer: { list: MEDIA_CHANNEL_SURVEY } }), (c) =>
    answerRows(c, listSpec, (q) => channelSurveyPage(db, c.get('user'), q.filters.mediaChannelId, q), linkResource),
  );

  app.post('/', describe(resourceCreation('Assign a survey to a media channel', MEDIA_CHANNEL_SURVEY, MediaChannelSurveyInput)), async (c) => {
    const { attributes } = await c.var.body.read();
    const channel = await findChannel(db, attributes.mediaChannelId, c.get('user'));
    if (!channel) throw invalid([{ pointer: '/data/attributes/mediaChannelId', detail: chooseFromList('a media channel') }]);
    return sendLink(c, db, await addChannelSurvey(db, channel, attributes), 201);
  });

  app.patch('/:id', describe(resourceUpdate("Update a media channel's survey", MEDIA_CHANNEL_SURVEY, MediaChannelSurveyPatch)), async (c) => {
    const { id } = await rowAtPath(c, 'media channel survey', (id) => findChannelSurvey(db, id, c.get('user')));
    const { attributes } = await c.var.body.read({ id });
    const row = await updateChannelSurvey(db, id, attributes);
    if (!row) throw notFound('media channel survey');
    return sendLink(c, db, row.id);
  });

  return app;
}
