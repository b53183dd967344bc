/** GET /api/o-forms/participant-start: what the widget runs for a channel, screener or survey identity. */
import { SURVEY_IDENTITY } from '@core/model/screenerSurvey';
import type { ParticipantAnswer } from '@core/participant/responses';
import { nowOf, type Deps } from '../context';
import { offeredRunEngagements } from './qualification';
import { badRequest, notFound } from '../http/errors';
import { idParam, languageParam, parseParams, patternParam } from '../http/params';
import { sendDocument } from '../http/serialize';
import { NOTHING_TO_START, type ParticipantApp } from './api';
import { CHANNEL_QUERY, recordPageProblem } from './cors';
import { channelInactive, channelUnknown, screenerMismatch } from './embedProblems';
import { outcomeMessages } from './messages';
import { notActiveRun } from './notActiveRun';
import { findChannelById, loadSurvey, pageDocument, resolveStart, screenerStyles, surveyLanguages, type ChannelRow } from './runSurvey';
import { participantCall } from './callDescription';
import { regionOfChannel } from './sites';

/** What to start: a channel, a screener or a survey identity (at least one), and a language. */
const START_QUERY = {
  ...CHANNEL_QUERY,
  screenerId: idParam('screener', 'Its screener.'),
  oFormIdentity: patternParam(SURVEY_IDENTITY, 'a survey identity', 'A survey to run instead of the current one (preview, transition).'),
  language: languageParam('The preferred language.'),
};

export function participantStartRoutes(app: ParticipantApp, deps: Deps) {
  const { db } = deps;

  /**
   * Start: what the widget runs for a channel (or screener, or survey identity). Counts nothing: a
   * view is the widget seen. Refused as notActive, it may make the submission a lead is left through.
   */
  app.get(
    '/participant-start',
    participantCall({
      summary: "Participant: what a media channel's run starts with",
      access: 'public',
      query: START_QUERY,
      answer: 'start',
    }),
    async (c) => {
      const query = parseParams(START_QUERY, (name) => c.req.query(name));
      const channelId = query.mediaChannelId ?? null;
      const screenerId = query.screenerId ?? null;
      const language = query.language ?? null;
      const identity = query.oFormIdentity ?? null;
      if (channelId === null && screenerId === null && identity === null) throw badRequest(NOTHING_TO_START);

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
      const target = await resolveStart(db, { channel, screenerId, identity });
      // Every engagement of the run at its target or past its dates: not offered, as if switched off.
      if (!target.runnable || !target.form || (await offeredRunEngagements(db, target, nowOf(deps))) === null) {
        const messages = await outcomeMessages(db, target.screenerId, 'notActive', language, target.form?.id ?? null);
        // A channel switched off: participants read its not-active message, the console why.
        const inactive = channel !== null && !channel.isActive ? channel : null;
        if (inactive) await recordPageProblem(c, deps, inactive.id, 'channel-inactive');
        const problem = inactive ? { problem: channelInactive(inactive.id) } : {};
        // Its lead form is still offered: through a submission made at notActive (notActiveRun.ts).
        const submissionId = await notActiveRun(c, deps, target, language);
        const lead = submissionId === null ? {} : { submissionId };
        return sendDocument(c, { meta: { runnable: false, outcome: 'notActive', messages, ...problem, ...lead } } satisfies ParticipantAnswer<'start'>);
      }
      const languages = await surveyLanguages(db, target.form.id);
      const region = regionOfChannel(channel);
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
