/** POST /api/o-forms/o-form-page-metrics: time spent on a page. */
import { PageMetricAttributes } from '@core/participant/requests';
import { PAGE_METRIC_TYPE } from '@core/participant/wire';
import type { Deps } from '../context';
import { invalid, unauthorized } from '../http/errors';
import { sendResource, toResource } from '../http/serialize';
import { MISSING_TOKEN, submissionForToken, tokenOf } from './access';
import { UNKNOWN_PAGE, type ParticipantApp } from './api';
import { assertChannelOfRequest } from './cors';
import { loadSurvey, recordPageMetric } from './runSurvey';
import { participantCall } from './callDescription';

export function participantOFormPageMetricsRoutes(app: ParticipantApp, deps: Deps) {
  const { db } = deps;

  /** Page timing: when a page was shown and left. */
  app.post(
    '/o-form-page-metrics',
    participantCall({
      summary: 'Participant: record time spent on a page',
      access: 'participant',
      attributes: PageMetricAttributes,
      answer: 'metric',
      status: 201,
    }),
    async (c) => {
      if (tokenOf(c) === null) throw unauthorized(MISSING_TOKEN.metrics);
      // No submission named is a missing token (401), answered before the attributes are judged.
      const body = await c.var.body.json();
      const attributes = (body as { data?: { attributes?: { oFormSubmissionId?: unknown } } } | null)?.data?.attributes;
      if (!attributes || attributes.oFormSubmissionId === undefined || attributes.oFormSubmissionId === null) throw unauthorized(MISSING_TOKEN.metrics);
      const input = c.var.body.parse(attributes);
      const { submission, form } = await submissionForToken(db, c, input.oFormSubmissionId, MISSING_TOKEN.metrics);
      assertChannelOfRequest(c, deps, submission.mediaChannelId);
      const survey = await loadSurvey(db, form);
      if (!survey.containers.some((x) => x.identity === input.identity && x.parentId === null)) {
        throw invalid([{ pointer: '/data/attributes/identity', detail: UNKNOWN_PAGE }]);
      }
      const row = await recordPageMetric(db, {
        submissionId: submission.id,
        oFormId: submission.oFormId,
        type: input.metricType,
        identity: input.identity,
        start: input.start,
        stop: input.stop,
      });
      return sendResource(
        c,
        toResource(PAGE_METRIC_TYPE, row!.id, {
          start: row!.start.toISOString(),
          stop: row!.stop?.toISOString() ?? null,
          metricType: row!.type,
          identity: row!.identity,
          oFormSubmissionId: row!.submissionId,
        }),
        201,
      );
    },
  );
}
