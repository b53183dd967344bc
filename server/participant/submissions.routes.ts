/** POST /api/o-forms/o-form-submissions: a new submission and its access token. */
import { keepHiddenFields, pageAttribution } from '@core/participant/attribution';
import { SubmissionAttributes } from '@core/participant/requests';
import type { ParticipantAnswer } from '@core/participant/responses';
import { SUBMISSION_TOKEN_HEADER } from '@core/participant/wire';
import { nowOf, type Deps } from '../context';
import { clientAddress } from '../http/clientAddress';
import { invalid } from '../http/errors';
import { windowOf } from '../http/rateLimit';
import { sendDocument } from '../http/serialize';
import { issueToken, rememberPageEntry, rememberSubmission, type AnswerTarget } from './access';
import {
  countedChecks,
  enforceLimits,
  FIRST_PAGE_ONLY,
  limitExceeded,
  pageLimitChecks,
  runLanguage,
  submissionLimitChecks,
  submissionResource,
  UNKNOWN_CHANNEL,
  UNKNOWN_SURVEY,
  type ParticipantApp,
} from './api';
import { assertChannelOfRequest } from './cors';
import { createSubmissionWithOthers } from './batchedStarts';
import { outcomeMessages } from './messages';
import { savePage } from './pageSave';
import { phiOf } from '../security/phi';
import { notActiveRun } from './notActiveRun';
import { activeChildren, checkRunnable, loadSurvey, offeredFromColumn, type RunTarget } from './runSurvey';
import { forgetStartFacts, keepStartFacts, startFacts } from './startFacts';
import { regionOfChannel } from './sites';
import { contactMatcherOf } from '../security/contactMatch';
import { participantCall } from './callDescription';

export function participantOFormSubmissionsRoutes(app: ParticipantApp, deps: Deps) {
  const { db, config } = deps;
  const limits = config.participantLimits;
  const matcher = contactMatcherOf(deps);
  const phi = phiOf(deps);

  /** A new submission (in_progress) and its token, once, in the response header. */
  app.post(
    '/o-form-submissions',
    participantCall({
      summary: 'Participant: start a submission (answers the submission token)',
      access: 'public',
      attributes: SubmissionAttributes,
      answer: 'submission',
      status: 201,
    }),
    async (c) => {
      const input = await c.var.body.read();
      /**
       * Not offered: the notActive texts, and the submission its lead form is left through where
       * the screener asks contact fields (notActiveRun.ts; this call is counted against the limits already).
       */
      const refused = async (target: RunTarget) => {
        const messages = await outcomeMessages(db, target.screenerId, 'notActive', input.language, input.oFormId);
        const submissionId = await notActiveRun(c, deps, target, input.language, true);
        return sendDocument(c, {
          data: null,
          meta: { outcome: 'notActive', messages, ...(submissionId === null ? {} : { submissionId }) },
        } satisfies ParticipantAnswer<'submission'>);
      };
      // Until a write does not find the read it decided on stale (startFacts.ts says which read).
      for (let attempt = 0; ; attempt++) {
        const { found, settingsVersion } = await startFacts(db, input.oFormId, input.mediaChannelId, attempt);
        if (!found) throw invalid([{ pointer: '/data/attributes/oFormId', detail: UNKNOWN_SURVEY }]);
        const { form, channel, facts } = found;
        if (input.mediaChannelId !== null && !channel) throw invalid([{ pointer: '/data/attributes/mediaChannelId', detail: UNKNOWN_CHANNEL }]);
        assertChannelOfRequest(c, deps, channel?.id ?? null);
        const address = clientAddress(c);
        const now = nowOf(deps);
        const limitChecks = submissionLimitChecks(deps, c, channel?.id ?? null);
        const target = await checkRunnable(db, form, channel, facts);
        if (!target.runnable) {
          // Counted apart (a rare answer); a submission's creation counts inside its own statement.
          await enforceLimits(db, c, now, limits.windowSeconds, limitChecks);
          return refused(target);
        }
        // The first page opened with it: checked before anything is written.
        const survey = input.oFormContainerId === null ? null : await loadSurvey(db, form);
        const firstPage = survey?.pages[0];
        if (survey && firstPage?.id !== input.oFormContainerId) throw invalid([{ pointer: '/data/attributes/oFormContainerId', detail: FIRST_PAGE_ONLY }]);
        const offered = offeredFromColumn(found.languages);
        const language = runLanguage(
          input.language,
          offered.map((l) => l.isoCode),
        );
        const { token, hash } = issueToken();
        const page = input.mediaChannelUrl === null ? { url: null, utm: {} } : pageAttribution(input.mediaChannelUrl);
        const window = windowOf(limits.windowSeconds, now.getTime());
        const created = await createSubmissionWithOthers(db, {
          values: {
            oFormId: form.id,
            mediaChannelId: channel?.id ?? null,
            language,
            languageId: offered.find((l) => l.isoCode === language)?.id ?? null,
            mediaChannelUrl: page.url,
            utm: { ...page.utm, ...input.utm },
            hiddenFields: keepHiddenFields(channel?.hiddenFields ?? [], input.fields),
            tokenHash: hash,
            // The address only as its keyed hash, and only with a channel: a possible retake is per channel.
            clientMatch: channel ? matcher.clientAddress(address) : null,
          },
          limits: { windowStart: window.windowStart, checks: countedChecks(limitChecks) },
          now,
          firstPage: survey && firstPage ? { pageId: firstPage.id, childContainerIds: activeChildren(survey, firstPage.id) } : null,
          settingsVersion,
        });
        if (created.status === 'stale') {
          forgetStartFacts(db, input.oFormId, input.mediaChannelId);
          continue;
        }
        if (created.status === 'limited') throw limitExceeded(c, window.resetAt, now);
        if (created.status === 'paused') {
          // Every engagement of the run at its target or past its dates (decided in the write): not offered, as if switched off.
          return refused(target);
        }
        keepStartFacts(db, input.oFormId, input.mediaChannelId, found);
        const row = created.submission;
        const region = regionOfChannel(channel);
        rememberSubmission(db, { submission: row, form, region });
        // The first page's entry, made with the run: kept for the page's saves, and saved now when its answers came along.
        const entry: AnswerTarget | null =
          created.page && firstPage
            ? { submission: row, form, region, page: { id: created.page.id, containerId: firstPage.id, children: created.page.children } }
            : null;
        if (entry) rememberPageEntry(db, entry.page.id, entry);
        // Refused (its problems, a limit, the run closed): not saved here; the page's own save answers why, as it always has.
        const saved =
          entry && survey && firstPage && input.answers !== null
            ? await savePage(db, phi, entry, survey, firstPage, input.answers, input.timing, now, {
                windowStart: window.windowStart,
                checks: countedChecks(pageLimitChecks(deps, c, channel?.id ?? null)),
              })
            : null;
        c.header(SUBMISSION_TOKEN_HEADER, token);
        c.header('Cache-Control', 'no-store');
        const pageSaved = saved?.status === 'saved' ? { pageSaved: saved.meta } : {};
        const meta = entry ? { meta: { containerEntryId: String(entry.page.id), ...pageSaved } } : {};
        return sendDocument(c, { data: submissionResource(row), ...meta }, 201);
      }
    },
  );
}
