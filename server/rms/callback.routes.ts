/**
 * The callbacks by which a record system reports where a referral stands on its status ladder
 * (rms/callbacks.ts): public, but refused with one 401 unless they carry the provider's secret;
 * a move the ladder refuses is a 409 naming where the referral stands.
 */
import { Hono, type Context } from 'hono';
import { toFieldIssues } from '@core/model/fields';
import { FHIR_SUBJECT_STATUSES, REFERRAL_STATUS_REPORT, RmsCallbackInput, callbackStatus } from '@core/model/rmsAudit';
import type { ReferralStatus } from '@core/model/referral';
import { nowOf, type AppEnv, type Deps } from '../context';
import type { Tx } from '../db/open';
import { recordAudit } from '../audit/trail';
import { clientAddress } from '../http/clientAddress';
import { moveByRecordSystem, ReferralRefused, statusOfContact } from '../referrals';
import { asProblem, badRequest, conflict, invalid, notFound, unauthorized, unsupportedMediaType } from '../http/errors';
import { parseId } from '../http/query';
import { sendResource, toResource } from '../http/serialize';
import { authenticFhirCallback, claimWebhookId, referralKeyOf, ResearchSubjectUpdate, verifySignedCallback, type Reporter } from './callbacks';
import { WEBHOOK_ID, WEBHOOK_SIGNATURE } from './standardWebhooks';
import { FHIR_CONTENT_TYPE, refusalOutcome } from './fhir';
import { phiOf } from '../security/phi';
import { describe, type BodyEnv } from '../openapi/describe';

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

  /** Moves the contact's referral (when asked to), records who reported it, and answers where it stands. */
  async function report(
    c: Parameters<typeof clientAddress>[0],
    contactId: number,
    status: ReferralStatus | null,
    note: string | null,
    reporter: Reporter,
    firstDelivery?: Parameters<typeof moveByRecordSystem>[6],
  ) {
    const at = now();
    if (status !== null) {
      const outcome = await moveByRecordSystem(db, phiOf(deps), contactId, { status, reasonNote: note }, reporter.name, at, firstDelivery).catch(
        (error: unknown) => {
          if (error instanceof ReferralRefused) throw conflict(error.message, '/status');
          throw error;
        },
      );
      if (outcome?.moved) {
        await recordAudit(db, {
          occurredAt: at,
          actor: null,
          clientAddress: clientAddress(c),
          entity: 'referrals',
          entityId: outcome.referralId,
          action: 'status',
          meta: { from: outcome.from, to: outcome.to, rmsProviderId: reporter.id, rmsProviderName: reporter.name },
        });
      }
    }
    const referral = await statusOfContact(db, contactId);
    if (!referral) throw notFound('referral');
    return referral;
  }

  app.post(
    '/',
    describe({
      summary: "Record system: report a referral's status",
      access: 'recordSystem',
      body: { json: RmsCallbackInput },
      answer: { resource: REFERRAL_STATUS_REPORT },
    }),
    async (c) => {
      const { raw, body } = await rawJson(c, /^application\/(vnd\.api\+)?json\b/i);
      const parsed = c.var.body.parse(body);
      if (!parsed.success) throw invalid(toFieldIssues(parsed.issues, ''));
      const { contactId } = parsed.output;
      const at = now();
      const reporter = await verifySignedCallback(db, phiOf(deps), contactId, (name) => c.req.header(name), raw, at);
      if (!reporter) throw unauthorized(REFUSED);
      // A verified message has its id (it is part of what is signed); each id is applied once.
      const webhookId = c.req.header(WEBHOOK_ID) ?? '';
      const referral = await report(c, contactId, callbackStatus(parsed.output), parsed.output.reason ?? null, reporter, (tx) =>
        claimWebhookId(tx, contactId, webhookId, at),
      );
      return sendResource(
        c,
        toResource(REFERRAL_STATUS_REPORT.type, referral.id, {
          contactId,
          engagementId: referral.engagementId,
          status: referral.status,
          isScreened: referral.isScreened,
          isRandomized: referral.isRandomized,
        }),
      );
    },
  );

  /** A FHIR ResearchSubject's status applied; answers the OperationOutcome that says where the referral stands. */
  async function fhirReport(c: Context<AppEnv & BodyEnv<{ json: typeof ResearchSubjectUpdate }>, '/fhir/:providerId'>) {
    const providerId = parseId(c.req.param('providerId'));
    const { raw, body } = await rawJson(c, /^application\/(fhir\+)?json\b/i);
    const parsed = c.var.body.parse(body);
    if (!parsed.success) throw invalid(toFieldIssues(parsed.issues, ''));
    const referralKey = referralKeyOf(parsed.output);
    if (!referralKey)
      throw invalid([
        { pointer: '/identifier', detail: 'The ResearchSubject needs the referral identifier (system urn:ietf:rfc:3986, value urn:uuid:<referralId>).' },
      ]);
    const found = providerId === null ? null : await authenticFhirCallback(db, phiOf(deps), providerId, referralKey, (name) => c.req.header(name), raw, now());
    if (found === null) throw unauthorized(REFUSED);
    // Signed the Standard Webhooks way, the message has an id and is applied once. A bearer-token
    // message has none; replaying one cannot undo a later move, as the ladder never steps down.
    const at = now();
    const webhookId = c.req.header(WEBHOOK_SIGNATURE) ? (c.req.header(WEBHOOK_ID) ?? '') : null;
    const firstDelivery = webhookId === null ? undefined : (tx: Tx) => claimWebhookId(tx, found.contactId, webhookId, at);
    const referral = await report(c, found.contactId, FHIR_SUBJECT_STATUSES[parsed.output.status], null, found.reporter, firstDelivery);
    return {
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'information', code: 'informational', diagnostics: `Referral ${referralKey} is ${referral.status}.` }],
    };
  }

  app.post(
    '/fhir/:providerId',
    describe({
      summary: "Record system (FHIR): report a ResearchSubject's status",
      access: 'recordSystemFhir',
      body: { json: ResearchSubjectUpdate },
      answer: {
        json: { $ref: '#/components/schemas/OperationOutcome' },
        mediaType: FHIR_CONTENT_TYPE,
        description: 'An informational OperationOutcome saying where the referral stands.',
        refusals: {
          schema: { $ref: '#/components/schemas/OperationOutcome' },
          statuses: {
            '400': 'The body is not JSON.',
            '401': 'A wrong or missing token or signature, an unknown referral, or a provider that may not report on it.',
            '409': 'A move the status ladder refuses.',
            '415': 'Not application/fhir+json or application/json.',
            '422': 'Not a ResearchSubject with the referral identifier and an R4 status.',
          },
        },
      },
    }),
    async (c) => {
      // A FHIR client reads an OperationOutcome, refusals included (same statuses as the JSON form).
      try {
        return c.body(JSON.stringify(await fhirReport(c)), 200, { 'Content-Type': FHIR_CONTENT_TYPE });
      } catch (error) {
        const problem = asProblem(error);
        if (!problem) throw error;
        return c.body(JSON.stringify(refusalOutcome(problem.status, problem.errors)), problem.status, { 'Content-Type': FHIR_CONTENT_TYPE });
      }
    },
  );

  return app;
}
