/**
 * After qualification (docs/participant-api.md): the trial sites near the participant's ZIP
 * code, the screener's contact fields, and the contact itself. Public routes, opened by the
 * submission's access token (server/participant/access.ts).
 *
 * The contact is stored first (values sealed with the PHI key), together with its referral, its
 * record-system outbox row, the submission marked completed and the channel's completed count,
 * all in one transaction (a duplicate of an earlier referral, participant/duplicates.ts, gets
 * neither referral nor outbox row: an audit row says why it is not sent); the first delivery attempt runs after that, in the background, so a
 * record system that is slow or down never fails (or delays) the participant's request. Failed
 * attempts are retried on RMS_RETRY_SCHEDULE (rms/worker.ts); every attempt leaves an audit.
 */
import { createHash } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import * as v from 'valibot';
import type { Resource } from '@core/jsonapi';
import { toFieldIssues, type FieldIssue } from '@core/model/fields';
import { CONTACT_FIELD_TYPE, CONTACT_FIELD_TYPES, type ContactFieldType } from '@core/model/contactField';
import { ACCEPT_TERMS, checkContact, contactValues, type ContactFormField } from '@core/oform/contact';
import { message } from '@core/validation/messages';
import { nowOf, type AppEnv, type Deps } from '../context';
import type { Db } from '../db/open';
import {
  contactFieldScreeners,
  contactFields,
  contacts,
  engagementSiteLocations,
  engagements,
  oFormSubmissions,
  referrals,
  siteLocations,
} from '../db/schema';
import { readJson } from '../http/body';
import { ApiProblem, conflict, invalid } from '../http/errors';
import { parseId } from '../http/query';
import { sendDocument, toResource } from '../http/serialize';
import { ContactAttributes } from '@core/participant/requests';
import { PARTICIPANT_ANSWERS, type ParticipantAnswer, type TrialSiteAttributes } from '@core/participant/responses';
import { TRIAL_SITE_TYPE } from '@core/participant/wire';
import { submissionForToken, type SubmissionRow } from '../participant/access';
import { countOnChannel } from '../domain/channelFigures';
import { assertChannelOfRequest, participantCors } from '../participant/cors';
import { haversineMiles, zipCentroid, type LatLon } from '../participant/distance';
import { outcomeMessages } from '../participant/messages';
import { runOfSubmission } from '../participant/run';
import { qualify, type QualificationResult } from '../participant/qualification';
import { enqueueDelivery, noteDuplicate } from '../rms/outbox';
import { duplicateNote, firstReferralOf, matchKeysOf } from '../participant/duplicates';
import { contactMatcherOf } from '../security/contactMatch';
import { deliverSoon, deliveryOptionsOf } from '../rms/worker';
import { phiOf } from '../security/phi';
import { describe } from '../openapi/describe';

/** SPEC: an engagement's radius defaults to 25 miles. */
export const DEFAULT_RADIUS_MILES = 25;

export const MISSING_CONTACT_TOKEN = 'Cannot send contact details without a submission access token';
export const RUN_ALREADY_COMPLETE = 'This survey run is already complete.';
export const NOT_QUALIFIED_FOR_CONTACT = 'Only a participant who qualified can leave contact details.';
export const SCREENING_INCOMPLETE = 'The screening is not complete: answer every page of the survey first.';

/** A path that stops before the survey's end goes no further: nothing after qualification happens on it (409, nothing written). */
function assertComplete(qualification: QualificationResult): asserts qualification is QualificationResult & { outcome: Exclude<QualificationResult['outcome'], 'incomplete'> } {
  if (qualification.outcome === 'incomplete') throw conflict(SCREENING_INCOMPLETE);
}

const PATHS = ['/o-form-submission-sites/*', '/o-form-submission-contact-fields/*', '/o-form-submission-contact/*'];

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

/** The screener's contact fields in weight order (then name, so equal weights keep one order). */
export async function screenerContactFields(db: Db, screenerId: number | null) {
  if (screenerId === null) return [];
  const rows = await db
    .select({ field: contactFields, weight: contactFieldScreeners.weight })
    .from(contactFieldScreeners)
    .innerJoin(contactFields, eq(contactFields.id, contactFieldScreeners.contactFieldId))
    .where(eq(contactFieldScreeners.screenerId, screenerId))
    .orderBy(asc(contactFieldScreeners.weight), asc(contactFields.name));
  return rows.map((r) => ({
    ...r.field,
    fieldType: ((CONTACT_FIELD_TYPES as readonly string[]).includes(r.field.fieldType) ? r.field.fieldType : 'text') as ContactFieldType,
  }));
}

/** The submission the token opens, from the channel the request names when it is cross-origin. */
async function openSubmission(deps: Deps, c: Context<AppEnv>, missing?: string): Promise<SubmissionRow> {
  const { submission } = await submissionForToken(deps.db, c, parseId(c.req.param('submissionId')), missing);
  assertChannelOfRequest(c, deps, submission.mediaChannelId);
  return submission;
}

const ContactDocument = v.object({ data: v.object({ type: v.optional(v.string()), attributes: ContactAttributes }) });

const idOf = (value: string | number | null | undefined): number | null => (value === null || value === undefined ? null : parseId(String(value)));

export function participantContactRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  for (const path of PATHS) app.use(path, participantCors(deps));

  app.get('/o-form-submission-sites/:submissionId', describe({
    summary: 'Participant: the study sites near the participant',
    access: 'participant',
    query: { zip: 'The participant\'s ZIP code: sites nearest first.' },
    answer: { document: PARTICIPANT_ANSWERS.sites },
  }), async (c) => {
    const submission = await openSubmission(deps, c);
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

  app.get('/o-form-submission-contact-fields/:submissionId', describe({ summary: "Participant: the contact form's fields", access: 'participant', answer: { document: PARTICIPANT_ANSWERS.contactFields } }), async (c) => {
    const submission = await openSubmission(deps, c);
    if (submission.status !== 'completed') {
      const qualification = await qualify(db, submission, { today: nowOf(deps), phi: phiOf(deps) });
      assertComplete(qualification);
      // The widget asks for the contact form once a site is chosen: the funnel's siteSelected (funnel/stages.ts).
      if (qualification.isQualified) {
        await db
          .update(oFormSubmissions)
          .set({ outcome: 'trialSiteSelected', modified: nowOf(deps) })
          .where(and(eq(oFormSubmissions.id, submission.id), ne(oFormSubmissions.status, 'completed')));
      }
    }
    const target = await runOfSubmission(db, submission);
    const fields = await screenerContactFields(db, target.screenerId);
    const data = fields.map((f) =>
      toResource(CONTACT_FIELD_TYPE, f.id, { name: f.name, label: f.label, fieldType: f.fieldType, required: f.required, translations: f.translations }),
    );
    // The texts around the contact form once a site is chosen.
    const messages = await outcomeMessages(db, target.screenerId, 'trialSiteSelected', submission.language, submission.oFormId);
    return sendDocument(c, { data, meta: { outcome: 'trialSiteSelected', messages } satisfies ParticipantAnswer<'contactFields'>['meta'] });
  });

  app.post('/o-form-submission-contact/:submissionId', describe({ summary: 'Participant: send contact details and the chosen site', access: 'participant', body: { json: ContactDocument }, answer: { document: PARTICIPANT_ANSWERS.contact, status: 201 } }), async (c) => {
    const submission = await openSubmission(deps, c, MISSING_CONTACT_TOKEN);
    if (submission.status === 'completed') throw conflict(RUN_ALREADY_COMPLETE);
    const lang = submission.language;

    const parsed = v.safeParse(ContactDocument, await readJson(c));
    if (!parsed.success) throw invalid(toFieldIssues(parsed.issues, ''));
    const attributes = parsed.output.data.attributes;

    const target = await runOfSubmission(db, submission);
    const qualification = await qualify(db, submission, { today: nowOf(deps), phi: phiOf(deps) });
    assertComplete(qualification);
    if (!qualification.isQualified) throw conflict(NOT_QUALIFIED_FOR_CONTACT);

    const fields = await screenerContactFields(db, target.screenerId);
    const form: ContactFormField[] = fields.map((f) => ({ name: f.name, fieldType: f.fieldType, required: f.required }));
    const issues: FieldIssue[] = Object.entries(checkContact(form, attributes.values, attributes.acceptTerms, lang)).map(([name, detail]) => ({
      pointer: name === ACCEPT_TERMS ? '/data/attributes/acceptTerms' : `/data/attributes/values/${name}`,
      detail,
    }));

    // The chosen site must be an active site of an engagement the participant qualified for;
    // without one (no site within reach) the contact is for the engagement named, else the first.
    const siteLinkId = idOf(attributes.engagementSiteLocationId);
    let engagementId: number | null = null;
    if (attributes.engagementSiteLocationId !== undefined && attributes.engagementSiteLocationId !== null) {
      const [link] =
        siteLinkId === null
          ? []
          : await db
              .select({ engagementId: engagementSiteLocations.engagementId })
              .from(engagementSiteLocations)
              .innerJoin(siteLocations, eq(siteLocations.id, engagementSiteLocations.siteLocationId))
              .where(and(eq(engagementSiteLocations.id, siteLinkId), eq(engagementSiteLocations.isActive, true), eq(siteLocations.isActive, true)));
      if (link && qualification.engagementIds.includes(link.engagementId)) engagementId = link.engagementId;
      else issues.push({ pointer: '/data/attributes/engagementSiteLocationId', detail: message('choice', {}, lang) });
    } else {
      const named = idOf(attributes.engagementId);
      engagementId = named !== null && qualification.engagementIds.includes(named) ? named : (qualification.engagementIds[0] ?? null);
    }
    if (issues.length > 0 || engagementId === null) throw invalid(issues);

    const now = nowOf(deps);
    const values = contactValues(form, attributes.values);
    const sealed = phiOf(deps).seal(JSON.stringify(values));
    const keys = matchKeysOf(contactMatcherOf(deps), form, values);
    // The consent as the contact-fields step showed it, kept word for word with its hash.
    const consentText = (await outcomeMessages(db, target.screenerId, 'trialSiteSelected', lang, submission.oFormId)).consent;
    const stored = await db.transaction(async (tx) => {
      const first = await firstReferralOf(tx, engagementId!, keys, now);
      const [contact] = await tx
        .insert(contacts)
        .values({
          submissionId: submission.id,
          engagementId: engagementId!,
          engagementSiteLocationId: siteLinkId,
          screenerId: target.screenerId,
          mediaChannelId: submission.mediaChannelId,
          language: lang,
          valuesCiphertext: sealed,
          acceptTerms: true,
          consentedAt: now,
          consentText,
          consentTextSha256: createHash('sha256').update(consentText, 'utf8').digest('hex'),
          consentSurveyId: target.form?.id ?? submission.oFormId,
          consentSurveyVersion: target.form?.version ?? null,
          ...keys,
          duplicateOf: first?.contactId ?? null,
          created: now,
        })
        .returning({ id: contacts.id });
      if (!contact) throw new Error('contact not stored');
      // Only one contact per run: a second request racing this one finds the run completed.
      const completed = await tx
        .update(oFormSubmissions)
        .set({ status: 'completed', outcome: 'completed', completedAt: now, modified: now })
        .where(and(eq(oFormSubmissions.id, submission.id), ne(oFormSubmissions.status, 'completed')))
        .returning({ id: oFormSubmissions.id });
      if (completed.length === 0) throw conflict(RUN_ALREADY_COMPLETE);
      await countOnChannel(tx, submission.mediaChannelId, 'submissionsCompleted');
      if (first) {
        // Kept for staff, never sent: the sponsor already has this person's referral.
        await noteDuplicate(tx, contact.id, engagementId!, duplicateNote(first), now);
        return { contactId: contact.id, send: false };
      }
      await tx.insert(referrals).values({ engagementId: engagementId!, engagementSiteLocationId: siteLinkId, contactId: contact.id });
      // In the same transaction: a stored contact is always on its way to its record system.
      await enqueueDelivery(tx, contact.id, now);
      return { contactId: contact.id, send: true };
    });

    // The first attempt now, in the background; retries are the delivery worker's (rms/worker.ts).
    if (stored.send) deliverSoon(deliveryOptionsOf(deps), stored.contactId);
    const messages = await outcomeMessages(db, target.screenerId, 'completed', lang, submission.oFormId);
    return sendDocument(c, { meta: { outcome: 'completed', messages } } satisfies ParticipantAnswer<'contact'>, 201);
  });

  return app;
}
