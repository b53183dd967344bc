/**
 * Record-system providers: where an engagement's referrals go and how. The signing secret and
 * a FHIR server's bearer token are write-only: a provider is answered with `hasSecret` and
 * `hasBearerToken`, never with the values.
 */
import * as v from 'valibot';
import { flag, requiredText } from './fields';
import { answered, count, instant, nullableText, resourceAnswer, type Answered } from './answers';

export const RMS_PROVIDER_TYPE = 'rms-providers';
export const RMS_PROVIDER_TEST_TYPE = 'rms-provider-tests';

export const RMS_PROVIDER_KINDS = ['none', 'webhook', 'fhir'] as const;
export type RmsProviderKind = (typeof RMS_PROVIDER_KINDS)[number];

export const RMS_PROVIDER_KIND_LABELS: Record<RmsProviderKind, string> = {
  none: 'None (record only)',
  webhook: 'Webhook (Standard Webhooks)',
  fhir: 'FHIR R4 server',
};

/** Standard Webhooks: a symmetric secret is 24 to 64 random bytes, base64 after `whsec_`. */
export const SECRET_PREFIX = 'whsec_';
export const SECRET_MIN_BYTES = 24;
export const SECRET_MAX_BYTES = 64;
export const TIMEOUT_MIN_MS = 100;
export const TIMEOUT_MAX_MS = 120_000;
export const TIMEOUT_DEFAULT_MS = 5000;

export const RMS_PROVIDER_MESSAGES = {
  endpoint: 'Enter an https:// URL (http:// only to this machine: localhost, 127.0.0.1 or [::1]).',
  endpointRequired: 'A webhook or FHIR provider needs its endpoint URL.',
  secret: `Enter a Standard Webhooks secret: ${SECRET_PREFIX} followed by ${SECRET_MIN_BYTES} to ${SECRET_MAX_BYTES} bytes in base64.`,
  secretRequired: 'A webhook provider needs a signing secret: its pushes are only sent signed.',
  bearerToken: 'Enter the token without spaces, at most 4096 characters.',
  bearerOnlyFhir: 'Only a FHIR provider takes a bearer token.',
  timeout: `Enter a timeout between ${TIMEOUT_MIN_MS} and ${TIMEOUT_MAX_MS} milliseconds.`,
  kind: `Choose one of: ${RMS_PROVIDER_KINDS.join(', ')}.`,
  nameTaken: 'A record system with this name already exists.',
  inUse: (engagements: number) =>
    `This record system is used by ${engagements} engagement${engagements === 1 ? '' : 's'}: choose another one for ${engagements === 1 ? 'it' : 'them'} first.`,
} as const;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** https anywhere; http only to this machine (local receivers and tests), never elsewhere in clear. */
export function isAllowedEndpoint(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && (LOOPBACK_HOSTS.has(url.hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(url.hostname));
}

/** The key bytes of a `whsec_` secret, or null when it is not one (base64, 24..64 bytes). */
export function secretKeyBytes(secret: string): Uint8Array | null {
  if (!secret.startsWith(SECRET_PREFIX)) return null;
  const encoded = secret.slice(SECRET_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return null;
  const binary = atob(encoded);
  if (binary.length < SECRET_MIN_BYTES || binary.length > SECRET_MAX_BYTES) return null;
  return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
}

const endpoint = () =>
  v.nullable(
    v.pipe(
      v.string(RMS_PROVIDER_MESSAGES.endpoint),
      v.trim(),
      v.maxLength(2000, RMS_PROVIDER_MESSAGES.endpoint),
      v.check(isAllowedEndpoint, RMS_PROVIDER_MESSAGES.endpoint),
    ),
  );
const secret = () =>
  v.nullable(
    v.pipe(
      v.string(RMS_PROVIDER_MESSAGES.secret),
      v.trim(),
      v.check((s) => secretKeyBytes(s) !== null, RMS_PROVIDER_MESSAGES.secret),
    ),
  );
const bearerToken = () =>
  v.nullable(v.pipe(v.string(RMS_PROVIDER_MESSAGES.bearerToken), v.trim(), v.regex(/^[\x21-\x7e]{1,4096}$/, RMS_PROVIDER_MESSAGES.bearerToken)));
const timeout = () =>
  v.pipe(
    v.number(RMS_PROVIDER_MESSAGES.timeout),
    v.integer(RMS_PROVIDER_MESSAGES.timeout),
    v.minValue(TIMEOUT_MIN_MS, RMS_PROVIDER_MESSAGES.timeout),
    v.maxValue(TIMEOUT_MAX_MS, RMS_PROVIDER_MESSAGES.timeout),
  );

const fields = {
  name: requiredText(100),
  kind: v.picklist(RMS_PROVIDER_KINDS, RMS_PROVIDER_MESSAGES.kind),
  endpoint: v.optional(endpoint()),
  timeoutMs: v.optional(timeout()),
  isActive: v.optional(flag()),
  /** Write-only; null removes it. */
  secret: v.optional(secret()),
  /** Write-only, FHIR only; null removes it. */
  bearerToken: v.optional(bearerToken()),
};

/** The settings a provider ends up with, whatever mix of stored and sent values made them. */
export interface RmsProviderSettings {
  kind: RmsProviderKind;
  endpoint: string | null;
  hasSecret: boolean;
  hasBearerToken: boolean;
}

/** What a provider of a kind needs, as pointer-less messages keyed by attribute. */
export function settingsIssues(settings: RmsProviderSettings): Partial<Record<'endpoint' | 'secret' | 'bearerToken', string>> {
  const out: Partial<Record<'endpoint' | 'secret' | 'bearerToken', string>> = {};
  if (settings.kind !== 'none' && !settings.endpoint) out.endpoint = RMS_PROVIDER_MESSAGES.endpointRequired;
  if (settings.kind === 'webhook' && !settings.hasSecret) out.secret = RMS_PROVIDER_MESSAGES.secretRequired;
  if (settings.kind !== 'fhir' && settings.hasBearerToken) out.bearerToken = RMS_PROVIDER_MESSAGES.bearerOnlyFhir;
  return out;
}

export const RmsProviderInput = v.strictObject(fields);
export const RmsProviderPatch = v.partial(v.strictObject(fields));
export type RmsProviderInput = v.InferOutput<typeof RmsProviderInput>;
export type RmsProviderPatch = v.InferOutput<typeof RmsProviderPatch>;

/**
 * A provider as the API answers it: the one description of its attributes. Super Users see
 * them all; other staff see name, kind and isActive (the engagement form's picker).
 */
export const RMS_PROVIDER = resourceAnswer(
  RMS_PROVIDER_TYPE,
  v.object({
    name: v.string(),
    kind: v.picklist(RMS_PROVIDER_KINDS),
    endpoint: v.optional(nullableText()),
    timeoutMs: v.optional(count()),
    isActive: v.boolean(),
    hasSecret: v.optional(v.boolean()),
    hasBearerToken: v.optional(v.boolean()),
    engagementCount: v.pipe(v.optional(count()), v.description('Engagements that send their referrals here.')),
    created: v.optional(instant()),
    modified: v.optional(instant()),
  }),
);

export type RmsProvider = Answered<typeof RMS_PROVIDER>;

/** The answer of POST /api/rms-providers/{id}/test: what the receiver made of a test referral (id: the test referral's). */
export const RMS_PROVIDER_TEST = resourceAnswer(
  RMS_PROVIDER_TEST_TYPE,
  v.object({
    succeeded: v.boolean(),
    status: v.pipe(v.nullable(v.number()), v.description("The receiver's HTTP status, null when none came (timeout, refused connection).")),
    responseMessage: v.pipe(v.string(), v.description('The status line, or a classified failure: never what the receiver answered.')),
    durationMs: v.pipe(v.number(), v.description('How long the attempt took, in milliseconds.')),
  }),
);
export const RmsProviderTest = answered(RMS_PROVIDER_TEST);
export type RmsProviderTest = v.InferOutput<typeof RmsProviderTest>;

export const RMS_PROVIDER_SORTS = ['name', 'kind', 'isActive', 'created', 'modified'] as const;
export const RMS_PROVIDER_DEFAULT_SORT = 'name';
