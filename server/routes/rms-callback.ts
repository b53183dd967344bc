/**
 * The callbacks by which a record system reports a referral screened or randomized
 * (rms/callbacks.ts): public, but refused with one 401 unless they carry the provider's secret.
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import { toFieldIssues } from '@core/model/fields';
import { FHIR_SUBJECT_STATUSES, RmsCallbackInput } from '@core/model/rmsAudit';
import { nowOf, type AppEnv, type Deps } from '../context';
import { badRequest, invalid, notFound, unauthorized, unsupportedMediaType } from '../http/errors';
import { parseId } from '../http/query';
import { sendResource, toResource } from '../http/serialize';
import { applyReferralStatus, applySignedCallback, authenticFhirCallback, referralKeyOf, ResearchSubjectUpdate, verifySignedCallback } from '../rms/callbacks';
import { WEBHOOK_ID } from '../rms/standardWebhooks';
import { FHIR_CONTENT_TYPE } from '../rms/fhir';
import { phiOf } from '../security/phi';
import { describe } from '../openapi/describe';

async function rawJson(c: { req: { header(name: string): string | undefined; text(): Promise<string> } }, types: RegExp) {
  if (!types.test(c.req.header('content-type') ?? '')) throw unsupportedMediaType();
  // The signature covers these exact bytes, so the raw text is kept as received.
  const raw = await c.req.text();
  try {
    return { raw, body: JSON.parse(raw) as unknown };
  } catch {
    throw badRequest('The request body is not valid JSON.');
  }
}

const REFUSED = 'The signature or token is missing or does not match.';

/** POST /api/rms-callback (JSON, Standard Webhooks signed) and /api/rms-callback/fhir/{providerId} (FHIR ResearchSubject). */
export function rmsCallbackRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  const now = () => nowOf(deps);

  app.post('/', describe({ summary: "Record system: report a referral's status", access: 'public', body: { json: RmsCallbackInput } }), async (c) => {
    const { raw, body } = await rawJson(c, /^application\/(vnd\.api\+)?json\b/i);
    const parsed = v.safeParse(RmsCallbackInput, body);
    if (!parsed.success) throw invalid(toFieldIssues(parsed.issues, ''));
    const { contactId, screened, randomized } = parsed.output;
    const at = now();
    if (!(await verifySignedCallback(db, phiOf(deps), contactId, (name) => c.req.header(name), raw, at))) throw unauthorized(REFUSED);
    // A verified message has its id (it is part of what is signed).
    const referral = await applySignedCallback(db, contactId, c.req.header(WEBHOOK_ID) ?? '', { screened, randomized }, at);
    if (!referral) throw notFound('referral');
    return sendResource(
      c,
      toResource('referrals', referral.id, { contactId, engagementId: referral.engagementId, isScreened: referral.isScreened, isRandomized: referral.isRandomized }),
    );
  });

  app.post('/fhir/:providerId', describe({ summary: "Record system (FHIR): report a ResearchSubject's status", access: 'public', body: { json: ResearchSubjectUpdate } }), async (c) => {
    const providerId = parseId(c.req.param('providerId'));
    const { raw, body } = await rawJson(c, /^application\/(fhir\+)?json\b/i);
    const parsed = v.safeParse(ResearchSubjectUpdate, body);
    if (!parsed.success) throw invalid(toFieldIssues(parsed.issues, ''));
    const referralKey = referralKeyOf(parsed.output);
    if (!referralKey) throw invalid([{ pointer: '/identifier', detail: 'The ResearchSubject needs the referral identifier (system urn:ietf:rfc:3986, value urn:uuid:<referralId>).' }]);
    const contactId =
      providerId === null ? null : await authenticFhirCallback(db, phiOf(deps), providerId, referralKey, (name) => c.req.header(name), raw, now());
    if (contactId === null) throw unauthorized(REFUSED);
    const referral = await applyReferralStatus(db, contactId, FHIR_SUBJECT_STATUSES[parsed.output.status]);
    if (!referral) throw notFound('referral');
    const state = referral.isRandomized ? 'randomized' : referral.isScreened ? 'screened' : 'referred';
    return c.body(
      JSON.stringify({ resourceType: 'OperationOutcome', issue: [{ severity: 'information', code: 'informational', diagnostics: `Referral ${referralKey} is ${state}.` }] }),
      200,
      { 'Content-Type': FHIR_CONTENT_TYPE },
    );
  });

  return app;
}
