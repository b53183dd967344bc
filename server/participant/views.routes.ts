/** POST /api/o-forms/participant-views: the widget was seen (a view of the channel, rate-limited per address). */
import { ViewAttributes } from '@core/participant/requests';
import type { ParticipantAnswer } from '@core/participant/responses';
import { nowOf, type Deps } from '../context';
import { invalid } from '../http/errors';
import { sendDocument } from '../http/serialize';
import { addressLimitKey, enforceLimits, runLanguage, UNKNOWN_CHANNEL, type ParticipantApp } from './api';
import { assertChannelOfRequest } from './cors';
import { countView } from './views';
import { findChannelById, resolveStart, surveyLanguages } from './runSurvey';
import { participantCall } from './callDescription';

export function participantViewsRoutes(app: ParticipantApp, deps: Deps) {
  const { db, config } = deps;
  const limits = config.participantLimits;

  /**
   * A view: the widget, once per page load, when at least half of it is on screen. Counted on an
   * active channel only (an inactive one shows no survey); a client address counts at most
   * `viewsPerAddress` views of a channel per window, beyond which the call is a 429.
   */
  app.post(
    '/participant-views',
    participantCall({
      summary: 'Participant: the widget was seen (counts a view of the channel)',
      access: 'public',
      attributes: ViewAttributes,
      answer: 'view',
      status: 202,
    }),
    async (c) => {
      const input = await c.var.body.read();
      const channel = await findChannelById(db, input.mediaChannelId);
      if (!channel) throw invalid([{ pointer: '/data/attributes/mediaChannelId', detail: UNKNOWN_CHANNEL }]);
      assertChannelOfRequest(c, deps, channel.id);
      const addressKey = addressLimitKey(deps, c, 'views');
      await enforceLimits(db, c, nowOf(deps), limits.windowSeconds, [
        { key: addressKey === null ? null : `${addressKey}:${channel.id}`, limit: limits.viewsPerAddress },
      ]);
      if (channel.isActive) {
        // The survey the widget showed, as participant-start chose it; the funnel keeps its day, survey, language and campaign.
        const target = await resolveStart(db, { channel, screenerId: null, identity: input.oFormIdentity });
        const languages = target.form ? await surveyLanguages(db, target.form.id) : [];
        await countView(db, {
          at: nowOf(deps),
          mediaChannelId: channel.id,
          screenerId: target.screenerId,
          oFormId: target.form?.id ?? null,
          language: target.form ? runLanguage(input.language, languages) : (input.language ?? 'en'),
          utmSource: input.utm?.utm_source ?? null,
          utmCampaign: input.utm?.utm_campaign ?? null,
        });
      }
      c.header('Cache-Control', 'no-store');
      return sendDocument(c, { meta: { counted: channel.isActive } } satisfies ParticipantAnswer<'view'>, 202);
    },
  );
}
