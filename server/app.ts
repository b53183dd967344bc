/**
 * Builds the Hono app from the route modules. No side effects: tests call `createApp(deps)`
 * and `app.request()`.
 */
import { recruitmentFunnelRoutes } from './funnel/routes';
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { getPath } from 'hono/utils/url';
import { HTTPException } from 'hono/http-exception';
import { JSON_API_MEDIA_TYPE } from '@core/jsonapi';
import type { AppEnv, Deps } from './context';
import { authenticate } from './auth/guards';
import { answerText } from './http/responseText';
import { asProblem, internalError, notFound } from './http/errors';
import { bodyLimits } from './http/bodyLimit';
import { securityHeaders } from './http/security';
import { compress } from './http/compress';
import { rejectNulInQuery } from './http/query';
import { auditWrites } from './audit/middleware';
import { transactionScope } from './db/transactionScope';
import { csvLists } from './http/csvLists';
import { setAnswerHeaders } from './http/headers';
import { authRoutes } from './auth/routes';
import { healthRoutes } from './health/routes';
import { aboutRoutes } from './about/routes';
import { ssoRoutes } from './auth/sso.routes';
import { countriesRoutes } from './lookups/countries.routes';
import { engagementsRoutes } from './engagements/routes';
import { engagementFilesRoutes } from './engagements/files.routes';
import { engagementSiteLocationsRoutes } from './sites/engagementSiteLocations.routes';
import { mountLookupRoutes } from './lookups/routes';
import { referralReasonsRoutes, referralsRoutes, sitePerformanceRoutes } from './referrals';
import { siteCoordinatorsRoutes } from './sites';
import { clinicalTrialsGovRoutes } from './clinicaltrials-gov';
import { channelSpendsRoutes } from './channel-spends';
import { siteLocationsRoutes } from './sites/siteLocations.routes';
import { sponsorsRoutes } from './sponsors/routes';
import { auditEventsRoutes } from './audit-trail/routes';
import { usersRoutes } from './users/routes';
import { languagesRoutes } from './languages/routes';
import { genericMessagesRoutes } from './messages/generic.routes';
import { contactFieldsRoutes } from './contact-fields/routes';
import { legacySurveysRoutes } from './legacy-surveys/routes';
import { legacyPagesRoutes } from './legacy-surveys/pages.routes';
import { legacyQuestionsRoutes } from './legacy-surveys/questions.routes';
import { legacyOptionsRoutes } from './legacy-surveys/options.routes';
import { engagementOptionsRoutes, updateEngagementOptionsRoutes } from './legacy-surveys/engagementOptions.routes';
import { oFormsRoutes } from './surveys/routes';
import { oFormCopyRoutes } from './surveys/copy.routes';
import { oFormVersionsRoutes } from './surveys/versions.routes';
import { oFormContainersRoutes } from './surveys/pages.routes';
import { oFormFieldsRoutes } from './surveys/questions.routes';
import { oFormFieldTypesRoutes } from './surveys/questionTypes.routes';
import { oFormFieldCategoriesRoutes } from './surveys/questionCategories.routes';
import { oFormDefaultMessagesRoutes } from './surveys/defaultMessages.routes';
import { oFormMessagesRoutes } from './surveys/messages.routes';
import { languagesOFormsRoutes } from './surveys/languages.routes';
import { oFormMissingTranslationsRoutes } from './surveys/missingTranslations.routes';
import { oFormExportsRoutes } from './surveys/exports.routes';
import { participantApp } from './participant/api';
import { participantStartRoutes } from './participant/start.routes';
import { participantViewsRoutes } from './participant/views.routes';
import { participantOFormSubmissionsRoutes } from './participant/submissions.routes';
import { participantOFormContainersRoutes } from './participant/pages.routes';
import { participantOFormContainerEntriesRoutes } from './participant/pageAnswers.routes';
import { participantOFormSubmissionPageRoutes } from './participant/submissionPage.routes';
import { participantOFormSubmissionPagePreviewRoutes } from './participant/pagePreview.routes';
import { participantOFormSubmissionSanitizationRoutes } from './participant/sanitization.routes';
import { participantOFormSubmissionQualificationRoutes } from './participant/qualification.routes';
import { participantOFormSubmissionOutcomeRoutes } from './participant/outcome.routes';
import { participantOFormPageMetricsRoutes } from './participant/pageMetrics.routes';
import { participantOFormSubmissionSitesRoutes } from './participant/sites.routes';
import { participantOFormSubmissionContactFieldsRoutes } from './participant/contactFields.routes';
import { participantOFormSubmissionContactRoutes } from './participant/contact.routes';
import { exportSurveyMetricsRoutes } from './surveys/metricsExport.routes';
import { surveyPageMetricsRoutes } from './surveys/pageMetrics.routes';
import { screenersRoutes } from './screeners/routes';
import { engagementsScreenersRoutes } from './screeners/engagements.routes';
import { contactFieldsScreenersRoutes } from './screeners/contactFields.routes';
import { screenerSurveysRoutes } from './screeners/surveys.routes';
import { mediaChannelsRoutes } from './channels/routes';
import { mediaChannelSurveysRoutes } from './channels/surveys.routes';
import { transitionMediaChannelRoutes } from './channels/transition.routes';
import { rmsAuditsRoutes } from './rms/audits.routes';
import { resendRmsAuditRoutes } from './rms/resend.routes';
import { rmsCallbackRoutes } from './rms/callback.routes';
import { rmsProvidersRoutes } from './rms/providers.routes';
import { messageSettingsRoutes, messageSmsInboundRoutes, messagesRoutes, messageTemplatesRoutes, messageUnsubscribeRoutes } from './messages';
import { webRoutes } from './web/routes';
import { openApiRoutes } from './openapi/routes';
import { leadsRoutes, matchLeadsToSites, participantLeadRoutes } from './leads';

/**
 * The staff's /api/o-forms resources, one route file each, as one sub-app: authentication
 * runs once for everything under /api/o-forms that the participant routes before it left.
 */
function staffOFormsRoutes(deps: Deps) {
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));
  oFormFieldTypesRoutes(app);
  oFormFieldCategoriesRoutes(app, deps.db);
  oFormsRoutes(app, deps.db);
  oFormCopyRoutes(app, deps.db);
  oFormVersionsRoutes(app, deps.db);
  oFormContainersRoutes(app, deps.db);
  oFormFieldsRoutes(app, deps.db);
  oFormDefaultMessagesRoutes(app);
  oFormMessagesRoutes(app, deps.db);
  languagesOFormsRoutes(app, deps.db);
  oFormMissingTranslationsRoutes(app, deps.db);
  oFormExportsRoutes(app, deps.db);
  return app;
}

export function createApp(given: Deps) {
  // Every route's queries go through the scope's handle, so a staff update or deletion runs, with
  // the audit trail's reading of its old values, in one transaction (audit/middleware.ts).
  const scope = transactionScope(given.db);
  const deps: Deps = { ...given, db: scope.db };
  // SPEC names some API paths with a trailing slash (POST /api/contact-fields/): under /api a
  // trailing slash is ignored, so both spellings reach the same route.
  const app = new Hono<AppEnv>({
    getPath: (request) => {
      const path = getPath(request);
      return path.length > 5 && path.startsWith('/api/') && path.endsWith('/') ? path.replace(/\/+$/, '') : path;
    },
  });

  app.use('*', async (c, next) => {
    // A load balancer's request id is kept, so its logs and ours name the same request.
    const incoming = c.req.header('X-Request-Id');
    const requestId = incoming && /^[\w.:-]{8,128}$/.test(incoming) ? incoming : randomUUID();
    c.set('requestId', requestId);
    const started = performance.now();
    await next();
    setAnswerHeaders(c, { 'X-Request-Id': requestId });
    deps.log.info('request', {
      requestId,
      method: c.req.method,
      path: new URL(c.req.url).pathname,
      status: c.res.status,
      ms: Math.round(performance.now() - started),
    });
  });

  app.use('*', compress());
  app.use('*', securityHeaders({ https: deps.config.publicUrl?.startsWith('https:') ?? false }));
  app.use('/api/*', rejectNulInQuery);
  // Before anything reads a body (the audit of a write copies it).
  app.use('/api/*', bodyLimits(deps.config.uploadLimitBytes));
  app.use(
    '/api/*',
    auditWrites(deps, () => app, scope),
  );
  // Inside auditWrites, which records the export event this sets.
  app.use('/api/*', csvLists(deps));

  app.route('/api/health', healthRoutes(deps));
  app.route('/api/about', aboutRoutes(deps));
  app.route('/api/jwt', authRoutes(deps));
  app.route('/api/users', usersRoutes(deps));
  app.route('/api/languages', languagesRoutes(deps));
  app.route('/api/generic-messages', genericMessagesRoutes(deps));
  app.route('/api/contact-fields', contactFieldsRoutes(deps));
  app.route('/api/sponsors', sponsorsRoutes(deps));
  app.route('/api/audit-events', auditEventsRoutes(deps));
  app.route('/api/countries', countriesRoutes(deps));
  app.route('/api/engagements', engagementsRoutes(deps));
  app.route('/api/engagements-o-files', engagementFilesRoutes(deps));
  // A site that opens finds the leads waiting near it; the sites area, below leads, only says so.
  const sites = { sitesOpened: matchLeadsToSites };
  app.route('/api/engagements-site-locations', engagementSiteLocationsRoutes(deps, sites));
  app.route('/api/site-locations', siteLocationsRoutes(deps, sites));
  app.route('/api/referrals', referralsRoutes(deps));
  app.route('/api/referral-reasons', referralReasonsRoutes(deps));
  app.route('/api/site-performance', sitePerformanceRoutes(deps));
  app.route('/api/site-coordinators', siteCoordinatorsRoutes(deps));
  app.route('/api/clinicaltrials-gov', clinicalTrialsGovRoutes(deps));
  app.route('/api/leads', leadsRoutes(deps));
  app.route('/api/screeners', screenersRoutes(deps));
  app.route('/api/engagements-screeners', engagementsScreenersRoutes(deps));
  app.route('/api/contact-fields-screeners', contactFieldsScreenersRoutes(deps));
  app.route('/api/screener-surveys', screenerSurveysRoutes(deps));
  app.route('/api/media-channels', mediaChannelsRoutes(deps));
  app.route('/api/media-channel-surveys', mediaChannelSurveysRoutes(deps));
  app.route('/api/channel-spends', channelSpendsRoutes(deps));
  app.route('/api/get-media-channel-for-transition-survey', transitionMediaChannelRoutes(deps));
  app.route('/api/rms-providers', rmsProvidersRoutes(deps));
  mountLookupRoutes(app, deps);
  app.route('/api/surveys', legacySurveysRoutes(deps));
  app.route('/api/pages', legacyPagesRoutes(deps));
  app.route('/api/questions', legacyQuestionsRoutes(deps));
  app.route('/api/options', legacyOptionsRoutes(deps));
  app.route('/api/engagements-options', engagementOptionsRoutes(deps));
  app.route('/api/update-engagements-options', updateEngagementOptionsRoutes(deps));
  // Before the staff routes: those authenticate everything under /api/o-forms, participants are not signed in.
  // The run up to qualification, then the contact steps: each sub-app puts CORS on the paths its route files declare before their handlers, matched in this order.
  app.route(
    '/api/o-forms',
    participantApp(deps, [
      participantStartRoutes,
      participantViewsRoutes,
      participantOFormSubmissionsRoutes,
      participantOFormContainersRoutes,
      participantOFormContainerEntriesRoutes,
      participantOFormSubmissionPageRoutes,
      participantOFormSubmissionPagePreviewRoutes,
      participantOFormSubmissionSanitizationRoutes,
      participantOFormSubmissionQualificationRoutes,
      participantOFormSubmissionOutcomeRoutes,
      participantOFormPageMetricsRoutes,
    ]),
  );
  app.route(
    '/api/o-forms',
    participantApp(deps, [participantOFormSubmissionSitesRoutes, participantOFormSubmissionContactFieldsRoutes, participantOFormSubmissionContactRoutes]),
  );
  app.route('/api/o-forms', participantApp(deps, [participantLeadRoutes]));
  app.route('/api/o-forms', staffOFormsRoutes(deps));
  app.route('/api/rms-audits', rmsAuditsRoutes(deps));
  app.route('/api/resend-rms-audit', resendRmsAuditRoutes(deps));
  app.route('/api/rms-callback', rmsCallbackRoutes(deps));
  app.route('/api/messages', messagesRoutes(deps));
  app.route('/api/message-templates', messageTemplatesRoutes(deps));
  app.route('/api/message-settings', messageSettingsRoutes(deps));
  app.route('/api/message-unsubscribe', messageUnsubscribeRoutes(deps));
  app.route('/api/message-sms-inbound', messageSmsInboundRoutes(deps));
  app.route('/api/export-survey-metrics', exportSurveyMetricsRoutes(deps));
  app.route('/api/survey-page-metrics', surveyPageMetricsRoutes(deps));
  app.route('/api/recruitment-funnel', recruitmentFunnelRoutes(deps));
  app.route(
    '/api',
    openApiRoutes(() => app.routes),
  );
  app.all('/api/*', () => {
    throw notFound('API route');
  });
  app.route('/jwt/saml', ssoRoutes(deps));
  app.route('/', webRoutes(deps));

  app.onError((error, c) => {
    const requestId = c.get('requestId') ?? randomUUID();
    const send = (status: number, errors: unknown[]) =>
      answerText(c, JSON.stringify({ errors }), status as 400, { 'Content-Type': JSON_API_MEDIA_TYPE, 'X-Request-Id': requestId });
    const problem = asProblem(error);
    if (problem) return send(problem.status, problem.errors);
    if (error instanceof HTTPException && error.status < 500) {
      return send(error.status, [{ status: String(error.status), title: error.message || 'Bad Request' }]);
    }
    deps.log.error('unexpected error', {
      requestId,
      method: c.req.method,
      path: new URL(c.req.url).pathname,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    return send(500, [internalError(requestId)]);
  });

  return app;
}

export type App = ReturnType<typeof createApp>;
