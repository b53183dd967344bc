/** GET /api/o-forms/participant-start: what the widget runs for a channel, screener or survey identity. */
import { isApiIsoCode } from '@core/i18n';
import { DEFAULT_CHANNEL_LOCALE, localeRegion } from '@core/model/channelLocale';
import { PARTICIPANT_ANSWERS, type ParticipantAnswer } from '@core/participant/responses';
import { nowOf, type Deps } from '../context';
import { offeredRunEngagements } from './qualification';
import { badRequest, notFound } from '../http/errors';
import { parseId } from '../http/query';
import { sendDocument } from '../http/serialize';
import { NOTHING_TO_START, type ParticipantApp } from './api';
import { recordPageProblem } from './cors';
import { channelInactive, channelUnknown, screenerMismatch } from './embedProblems';
import { outcomeMessages } from './messages';
import { findChannelById, loadSurvey, pageDocument, resolveStart, screenerStyles, surveyLanguages, type ChannelRow } from './runSurvey';
import { describe } from '../openapi/describe';

export function participantStartRoutes(app: ParticipantApp, deps: Deps) {
  const { db } = deps;

  /** Start: what the widget runs for a channel (or screener, or survey identity). Counts nothing: a view is the widget seen (below). */
  app.get(
    '/participant-start',
    describe({
      summary: "Participant: what a media channel's run starts with",
      access: 'public',
      query: {
        mediaChannelId: 'The media channel.',
        screenerId: 'Its screener.',
        oFormIdentity: 'A survey to run instead of the current one (preview, transition).',
        language: 'The preferred language.',
      },
      answer: { document: PARTICIPANT_ANSWERS.start },
    }),
    async (c) => {
      const raw = { channel: c.req.query('mediaChannelId'), screener: c.req.query('screenerId'), identity: c.req.query('oFormIdentity') };
      const language = c.req.query('language') ?? null;
      const channelId = raw.channel === undefined ? null : parseId(raw.channel);
      const screenerId = raw.screener === undefined ? null : parseId(raw.screener);
      if (raw.channel !== undefined && channelId === null) throw badRequest("'mediaChannelId' must be a positive whole number.", 'mediaChannelId');
      if (raw.screener !== undefined && screenerId === null) throw badRequest("'screenerId' must be a positive whole number.", 'screenerId');
      if (raw.identity !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(raw.identity))
        throw badRequest("'oFormIdentity' is not a survey identity.", 'oFormIdentity');
      if (language !== null && !isApiIsoCode(language)) throw badRequest("'language' must be an API language code such as en or es_MX.", 'language');
      if (channelId === null && screenerId === null && raw.identity === undefined) throw badRequest(NOTHING_TO_START);

      let channel: ChannelRow | null = null;
      if (channelId !== null) {
        channel = (await findChannelById(db, channelId)) ?? null;
        if (!channel) throw channelUnknown(channelId);
        // A snippet whose screener is not its channel's: the webmaster's to fix, named as such.
        if (screenerId !== null && screenerId !== channel.screenerId) {
          await recordPageProblem(c, deps, channel.id, 'screener-mismatch');
          throw screenerMismatch(channel, screenerId);
        }
      }
      if (screenerId !== null && (await screenerStyles(db, screenerId)) === undefined) {
        throw notFound('screener');
      }
      const target = await resolveStart(db, { channel, screenerId, identity: raw.identity ?? null });
      // Every engagement of the run at its target or past its dates: not offered, as if switched off.
      if (!target.runnable || !target.form || (await offeredRunEngagements(db, target, nowOf(deps))) === null) {
        const messages = await outcomeMessages(db, target.screenerId, 'notActive', language, target.form?.id ?? null);
        // A channel switched off: participants read its not-active message, the console why.
        const inactive = channel !== null && !channel.isActive ? channel : null;
        if (inactive) await recordPageProblem(c, deps, inactive.id, 'channel-inactive');
        const problem = inactive ? { problem: channelInactive(inactive.id) } : {};
        return sendDocument(c, { meta: { runnable: false, outcome: 'notActive', messages, ...problem } } satisfies ParticipantAnswer<'start'>);
      }
      const languages = await surveyLanguages(db, target.form.id);
      const region = localeRegion(channel?.locale ?? DEFAULT_CHANNEL_LOCALE);
      const survey = await loadSurvey(db, target.form);
      const first = survey.pages[0];
      const styles = target.screenerId === null ? undefined : await screenerStyles(db, target.screenerId);
      return sendDocument(c, {
        meta: {
          runnable: true,
          oFormId: String(target.form.id),
          oFormIdentity: target.form.identity,
          title: target.form.title,
          containerCount: survey.pages.length,
          languages,
          styles: styles ?? {},
          screenerId: target.screenerId === null ? null : String(target.screenerId),
          mediaChannelId: channel ? String(channel.id) : null,
          retakeWindowDays: channel?.retakeWindowDays ?? 0,
          eventsPolicy: channel?.eventsPolicy ?? 'none',
          // Only outside the US: the widget reads no region as the US.
          ...(region === 'US' ? {} : { region }),
          firstPage: first ? pageDocument(survey, first) : null,
        },
      });
    },
  );
}
