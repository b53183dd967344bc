/**
 * POST (or GET) /api/o-forms/o-form-submission-sites/:submissionId: the trial sites near the
 * participant's ZIP code. The widget POSTs the place in the body (`data.attributes`) with the token
 * in `meta`: no ZIP in an address, and a CORS simple request (no preflight). GET with the token
 * header and the place in the query answers the same.
 */
import { participantCall, type ParticipantCall } from './callDescription';
import { assertRunNotEnded } from './access';
import type { Resource } from '@core/jsonapi';
import { message } from '@core/validation/messages';
import type { ParticipantAnswer, TrialSiteAttributes } from '@core/participant/responses';
import { TRIAL_SITE_TYPE } from '@core/participant/wire';
import { nowOf, type Deps } from '../context';
import { ApiProblem } from '../http/errors';
import { sendDocument, toResource } from '../http/serialize';
import { assertComplete, openSubmission, PLACE_QUERY, type ParticipantApp } from './api';
import { parseParams } from '../http/params';
import { SiteSearchAttributes } from '@core/participant/requests';
import type { Context } from 'hono';
import type { AppEnv } from '../context';
import { outcomeMessages } from './messages';
import { COUNTRY_CODE, KM_PER_MILE, normalizeCountry, participantPlace } from './places';
import { runOfSubmission } from './runSurvey';
import { markNoTrialSites, qualify } from './qualification';
import { channelDistanceUnit, nearestSites } from './sites';
import { phiOf } from '../security/phi';

export function participantOFormSubmissionSitesRoutes(app: ParticipantApp, deps: Deps) {
  const { db } = deps;

  const summary = 'Participant: the study sites near the participant';
  const bodyDoc = { summary, access: 'participant', attributes: SiteSearchAttributes, answer: 'sites' } satisfies ParticipantCall;
  const queryDoc = { summary, access: 'participant', query: PLACE_QUERY, answer: 'sites' } satisfies ParticipantCall;

  /** The sites near `place` (a ZIP code; elsewhere a country with a postal code or a town). */
  const sitesNear = async <E extends AppEnv>(c: Context<E>, read: () => SitePlace | Promise<SitePlace>) => {
    const submission = await openSubmission(deps, c);
    assertRunNotEnded(submission, 'submission');
    const place = await read();
    const lang = submission.language;
    // In the US a ZIP code; elsewhere a country (ISO code) with a postal code or a town (places.ts).
    const rawCountry = place.country;
    const country = rawCountry === undefined ? null : normalizeCountry(rawCountry);
    if (rawCountry !== undefined && country === null) {
      throw new ApiProblem(422, [{ status: '422', title: 'Invalid Parameter', detail: COUNTRY_CODE, source: { parameter: 'country' } }]);
    }
    // With a country, the widget's one field (`zip`) is a postal code or a town, whichever resolves.
    const zip = place.zip;
    const from = participantPlace(country, zip ?? null, { postalCode: place.postalCode, town: place.town });
    if (!from) {
      const parameter = country === null || zip !== undefined ? 'zip' : place.town !== undefined ? 'town' : 'postalCode';
      // Outside the US a place may be a postal code this server has no table for: a town will do.
      throw new ApiProblem(422, [
        {
          status: '422',
          title: 'Invalid Parameter',
          detail: message(country === null || country === 'US' ? 'zip_unknown' : 'place_unknown', {}, lang),
          source: { parameter },
        },
      ]);
    }
    // Miles or kilometres as the channel's locale reads them, wherever the participant is.
    const unit = await channelDistanceUnit(db, submission.mediaChannelId);
    const target = await runOfSubmission(db, submission);
    const qualification = await qualify(db, submission, { today: nowOf(deps), phi: phiOf(deps) });
    assertComplete(qualification);
    const sites = qualification.isQualified ? await nearestSites(db, qualification.engagementIds, from, nowOf(deps)) : [];
    const outcome = !qualification.isQualified ? qualification.outcome : sites.length > 0 ? 'qualified' : 'noTrialSites';
    if (outcome === 'noTrialSites' && submission.status !== 'completed') {
      await markNoTrialSites(db, submission.id, nowOf(deps));
    }
    const data: Resource[] = sites.map(({ engagementSiteLocationId, engagementId, ...site }) =>
      toResource(TRIAL_SITE_TYPE, engagementSiteLocationId, {
        ...site,
        distance: unit === 'km' ? Math.round(site.distanceMiles * KM_PER_MILE * 10) / 10 : site.distanceMiles,
        distanceUnit: unit,
        engagementId: String(engagementId),
      } satisfies TrialSiteAttributes),
    );
    const messages = await outcomeMessages(db, target.screenerId, outcome, lang, submission.oFormId);
    return sendDocument(c, { data, meta: { outcome, messages } satisfies ParticipantAnswer<'sites'>['meta'] });
  };
  app.post('/o-form-submission-sites/:submissionId', participantCall(bodyDoc), (c) => sitesNear(c, () => c.var.body.read()));
  app.get('/o-form-submission-sites/:submissionId', participantCall(queryDoc), (c) =>
    sitesNear(c, () => parseParams(PLACE_QUERY, (name) => c.req.query(name))),
  );
}

type SitePlace = { zip?: string; country?: string; postalCode?: string; town?: string };
