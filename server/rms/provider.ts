/**
 * Record-system providers behind one interface: each makes one attempt to hand a referral over
 * and says what came of it. Retries, their schedule and the audit of every attempt belong to
 * the outbox (outbox.ts, worker.ts), so a provider stays "send this once".
 *
 * - `none`: nothing leaves the server; the attempt is recorded as succeeded.
 * - `webhook`: POST of the referral as JSON, signed as Standard Webhooks says (standardWebhooks.ts).
 * - `fhir`: POST of a FHIR R4 transaction Bundle (fhir.ts), with the bearer token when one is set.
 */
import { failure, postOnce, type AttemptResult } from './attempt';
import { describeOperationOutcome, FHIR_CONTENT_TYPE, referralBundle } from './fhir';
import { webhookBody, type ReferralFacts } from './payload';
import type { ProviderSecrets, RmsProviderRow } from './providers';
import { signMessage } from './standardWebhooks';
import type { PrivateHostAllowance } from '../security/privateHosts';

export interface RmsProvider {
  /** Stored in each audit row, so audits stay readable if the provider row changes or goes. */
  readonly name: string;
  readonly providerId: number | null;
  send(facts: ReferralFacts, attempt: number, now: Date): Promise<AttemptResult>;
}

export const NONE_PROVIDER_NAME = 'none';
export const NONE_RECORDED_MESSAGE = 'Recorded only: no record system is configured for this engagement.';

export function noneProvider(row: RmsProviderRow | null): RmsProvider {
  return {
    name: row?.name ?? NONE_PROVIDER_NAME,
    providerId: row?.id ?? null,
    send: () =>
      Promise.resolve({ succeeded: true, status: null, responseMessage: NONE_RECORDED_MESSAGE, responseBody: '', retryable: false, retryAfterSeconds: null }),
  };
}

const missingEndpoint = () => failure('The record system has no endpoint URL configured.', false);

/** A provider that POSTs to the row's endpoint with `post`; without an endpoint, every attempt fails for good. */
function endpointProvider(row: RmsProviderRow, post: (url: string, facts: ReferralFacts, attempt: number, now: Date) => Promise<AttemptResult>): RmsProvider {
  return {
    name: row.name,
    providerId: row.id,
    send: (facts, attempt, now) => (row.endpointUrl ? post(row.endpointUrl, facts, attempt, now) : Promise.resolve(missingEndpoint())),
  };
}

function webhookProvider(row: RmsProviderRow, secrets: ProviderSecrets, allowance: PrivateHostAllowance): RmsProvider {
  return endpointProvider(row, async (url, facts, attempt, now) => {
    // Contact details are only sent signed, so the receiver can tell our pushes from forgeries.
    if (!secrets.secret) return failure('The record system has no signing secret configured.', false);
    const body = webhookBody(facts);
    let signed: ReturnType<typeof signMessage>;
    try {
      // The referral's key is the webhook-id: the same in every retry and resend (idempotency).
      signed = signMessage(secrets.secret, `msg_${facts.referralId}`, now, body);
    } catch {
      return failure('The signing secret is not a Standard Webhooks secret (whsec_…): set a new one.', false);
    }
    return postOnce({
      url,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/plain;q=0.9, */*;q=0.5', 'X-Rms-Attempt': String(attempt), ...signed },
      body,
      timeoutMs: row.timeoutMs,
      now,
      allowance,
    });
  });
}

function fhirProvider(row: RmsProviderRow, secrets: ProviderSecrets, allowance: PrivateHostAllowance): RmsProvider {
  return endpointProvider(row, async (url, facts, _attempt, now) =>
    postOnce({
      url,
      headers: {
        'Content-Type': FHIR_CONTENT_TYPE,
        Accept: FHIR_CONTENT_TYPE,
        ...(secrets.bearerToken ? { Authorization: `Bearer ${secrets.bearerToken}` } : {}),
      },
      body: JSON.stringify(referralBundle(facts)),
      timeoutMs: row.timeoutMs,
      now,
      describeFailure: describeOperationOutcome,
      allowance,
    }),
  );
}

/**
 * The provider a row describes; no row (the engagement has none) records only. `allowance`: the
 * private hosts its endpoint may reach (RMS_ALLOW_PRIVATE_HOSTS).
 */
export function providerFor(row: RmsProviderRow | null, secrets: ProviderSecrets, allowance: PrivateHostAllowance): RmsProvider {
  if (row?.kind === 'webhook') return webhookProvider(row, secrets, allowance);
  if (row?.kind === 'fhir') return fhirProvider(row, secrets, allowance);
  return noneProvider(row);
}
