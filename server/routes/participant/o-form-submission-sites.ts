/** GET /api/o-forms/o-form-submission-sites/:submissionId: the trial sites near the participant's ZIP code. */
import { assertRunNotEnded } from '../../participant/access';
import { and, eq, inArray } from 'drizzle-orm';
import type { Resource } from '@core/jsonapi';
import { message } from '@core/validation/messages';
import { PARTICIPANT_ANSWERS, type ParticipantAnswer, type TrialSiteAttributes } from '@core/participant/responses';
import { TRIAL_SITE_TYPE } from '@core/participant/wire';
import { nowOf, type Deps } from '../../context';
import type { Db } from '../../db/open';
import { engagementSiteLocations, engagements, oFormSubmissions, siteLocations } from '../../db/schema';
import { ApiProblem } from '../../http/errors';
import { sendDocument, toResource } from '../../http/serialize';
import { assertComplete, openSubmission, DEFAULT_RADIUS_MILES, type ParticipantApp } from '../../participant/api';
import { outcomeMessages } from '../../participant/messages';
import { runOfSubmission } from '../../participant/run';
import { qualify } from '../../participant/qualification';
import { haversineMiles, zipCentroid, type LatLon } from '../../participant/distance';
import { phiOf } from '../../security/phi';
import { describe } from '../../openapi/describe';

export interface TrialSiteMatch {
  engagementSiteLocationId: number;
  engagementId: number;
  name: string;
  address1: string | null;
  address2: string | null;
  city: string | null;
  state: string | null;
  zipCode: string | null;
  distanceMiles: number;
}

/** The active sites of active engagements `engagementIds` a participant at `from` can reach, nearest first. */
export async function nearestSites(db: Db, engagementIds: readonly number[], from: LatLon): Promise<TrialSiteMatch[]> {
  if (engagementIds.length === 0) return [];
  const rows = await db
    .select({ link: engagementSiteLocations, site: siteLocations, engagementRadius: engagements.radius })
    .from(engagementSiteLocations)
    .innerJoin(siteLocations, eq(siteLocations.id, engagementSiteLocations.siteLocationId))
    .innerJoin(engagements, eq(engagements.id, engagementSiteLocations.engagementId))
    .where(
      and(
        inArray(engagementSiteLocations.engagementId, [...engagementIds]),
        eq(engagementSiteLocations.isActive, true),
        eq(siteLocations.isActive, true),
        eq(engagements.isActive, true),
      ),
    );
  const out: TrialSiteMatch[] = [];
  for (const { link, site, engagementRadius } of rows) {
    // A site's own coordinates when it has them, else its ZIP code's centroid.
    const at = site.latitude !== null && site.longitude !== null ? { latitude: site.latitude, longitude: site.longitude } : zipCentroid(site.zipCode);
    if (!at) continue;
    const distance = haversineMiles(from, at);
    const radius = link.radius ?? engagementRadius ?? DEFAULT_RADIUS_MILES;
    if (distance > radius) continue;
    out.push({
      engagementSiteLocationId: link.id,
      engagementId: link.engagementId,
      name: site.name,
      address1: site.streetAddress,
      address2: site.unitNumber,
      city: site.city,
      state: site.state,
      zipCode: site.zipCode,
      distanceMiles: Math.round(distance * 10) / 10,
    });
  }
  return out.sort((a, b) => a.distanceMiles - b.distanceMiles || a.name.localeCompare(b.name) || a.engagementSiteLocationId - b.engagementSiteLocationId);
}

export function participantOFormSubmissionSitesRoutes(app: ParticipantApp, deps: Deps) {
  const { db } = deps;

  app.get('/o-form-submission-sites/:submissionId', describe({ summary: 'Participant: the study sites near the participant', access: 'participant', query: { zip: 'The participant\'s ZIP code: sites nearest first.' }, answer: { document: PARTICIPANT_ANSWERS.sites } }), async (c) => {
    const submission = await openSubmission(deps, c);
    assertRunNotEnded(submission, 'submission');
    const lang = submission.language;
    const from = zipCentroid(c.req.query('zip'));
    if (!from) {
      throw new ApiProblem(422, [{ status: '422', title: 'Invalid Parameter', detail: message('zip_unknown', {}, lang), source: { parameter: 'zip' } }]);
    }
    const target = await runOfSubmission(db, submission);
    const qualification = await qualify(db, submission, { today: nowOf(deps), phi: phiOf(deps) });
    assertComplete(qualification);
    const sites = qualification.isQualified ? await nearestSites(db, qualification.engagementIds, from) : [];
    const outcome = !qualification.isQualified ? qualification.outcome : sites.length > 0 ? 'qualified' : 'noTrialSites';
    if (outcome === 'noTrialSites' && submission.status !== 'completed') {
      await db.update(oFormSubmissions).set({ outcome, modified: new Date() }).where(eq(oFormSubmissions.id, submission.id));
    }
    const data: Resource[] = sites.map(({ engagementSiteLocationId, engagementId, ...site }) =>
      toResource(TRIAL_SITE_TYPE, engagementSiteLocationId, { ...site, engagementId: String(engagementId) } satisfies TrialSiteAttributes),
    );
    const messages = await outcomeMessages(db, target.screenerId, outcome, lang, submission.oFormId);
    return sendDocument(c, { data, meta: { outcome, messages } satisfies ParticipantAnswer<'sites'>['meta'] });
  });
}
