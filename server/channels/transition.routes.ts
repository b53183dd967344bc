import { Hono } from 'hono';
import { MEDIA_CHANNEL_TYPE } from '@core/model/mediaChannel';
import type { AppEnv, Deps } from '../context';
import { notFound } from '../http/errors';
import { parseId } from '../http/query';
import { sendResource, toResource } from '../http/serialize';
import { participantCall, participantCors } from '../participant';
import { transitionChannel } from './mediaChannels';

/**
 * GET /api/get-media-channel-for-transition-survey/{toOFormIdentity}/{fromMediaChannelId}: the
 * media channel a participant continues on when a survey transitions to another survey
 * (domain/mediaChannels.ts chooses it). Public (the participant is not signed in) and answering only ids.
 */
export function transitionMediaChannelRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  // The widget asks from the partner's page (naming its channel in ?mediaChannelId=, like every participant call).
  app.use('/:identity/:fromId', participantCors(deps));
  app.get(
    '/:identity/:fromId',
    participantCall({ summary: 'Find the media channel a transition survey continues on', access: 'public', answer: 'transitionChannel' }),
    async (c) => {
      const identity = c.req.param('identity');
      const fromId = parseId(c.req.param('fromId'));
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(identity) || fromId === null) throw notFound('media channel');
      const target = await transitionChannel(db, identity, fromId);
      if (!target) throw notFound('media channel');
      return sendResource(c, toResource(MEDIA_CHANNEL_TYPE, target.id, { screenerId: target.screenerId, oFormIdentity: identity }));
    },
  );
  return app;
}
