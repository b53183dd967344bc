/**
 * Record-system audits (SPEC section 3): one per attempt to deliver a participant's contact to
 * the engagement's record system, each with the state of that contact's delivery, and the
 * callbacks by which the record system reports a referral screened or randomized.
 */
import * as v from 'valibot';
import { flag, idNumber, optionalText } from './fields';
import { REFERRAL_STATUSES, REFERRAL_TYPE, type ReferralStatus } from './referral';
import { chooseMessage } from './scalars';
import { count, instant, nullableText, recordId, resourceAnswer, whole } from './answers';
import { RMS_PROVIDER_KINDS } from './rmsProvider';

export const RMS_AUDIT_TYPE = 'rms-audits';

/**
 * pending: the first attempt is due; retrying: an attempt failed and the next is scheduled;
 * delivered: the record system accepted it; undelivered: no attempt is left, waiting for a resend.
 */
export const RMS_DELIVERY_STATUSES = ['pending', 'retrying', 'delivered', 'undelivered'] as const;
export type RmsDeliveryStatus = (typeof RMS_DELIVERY_STATUSES)[number];

export const RmsAuditProvider = v.object({ id: v.string(), name: v.string(), kind: v.picklist(RMS_PROVIDER_KINDS) });
export type RmsAuditProvider = v.InferOutput<typeof RmsAuditProvider>;

/** One attempt's own attributes. */
const ATTEMPT = {
  contactId: recordId(),
  created: instant(),
  rmsProviderId: v.nullable(recordId()),
  rmsProviderName: v.string(),
  succeeded: v.boolean(),
  attempt: v.pipe(count(), v.description("1 for a round's first try, counting up through its retries (0: a duplicate, not sent).")),
  responseMessage: v.string(),
  responseBody: v.string(),
};

/** One attempt's own record, as a resend answers it (its provider included): the attempt's attributes only. */
export const RMS_AUDIT_ATTEMPT = resourceAnswer(RMS_AUDIT_TYPE, v.object(ATTEMPT), 'rms-audit-attempts');

/** What a resend of several contacts answers: how many were queued. */
export const RmsResendQueuedDocument = v.object({ meta: v.object({ queued: v.pipe(count(), v.description('Undelivered contacts now due again.')) }) });

/** One attempt's own record, as a resend answers it. */
export const RmsAuditAttempt = v.object({
  id: v.string(),
  ...RMS_AUDIT_ATTEMPT.attributes.entries,
  /** Present when the answer includes rmsProviders (null: no provider row). */
  rmsProviders: v.optional(v.nullable(RmsAuditProvider)),
});
export type RmsAuditAttempt = v.InferOutput<typeof RmsAuditAttempt>;

/** An attempt as the list answers it, with its contact's delivery as it stands now, consent proof and origin: the one description of its attributes. */
export const RMS_AUDIT = resourceAnswer(
  RMS_AUDIT_TYPE,
  v.object({
    ...ATTEMPT,
    engagementId: v.pipe(recordId(), v.description('The engagement the contact was referred to.')),
    deliveryStatus: v.pipe(v.nullable(v.picklist(RMS_DELIVERY_STATUSES)), v.description("Where the contact's delivery stands now (not at this attempt).")),
    nextAttemptAt: v.pipe(v.nullable(instant()), v.description('When the next attempt is due, for a pending or retrying delivery.')),
    deliveredAt: v.pipe(v.nullable(instant()), v.description('When the record system first accepted the contact.')),
    referralId: v.pipe(nullableText(), v.description("The referral's idempotency key, the same in every attempt and resend.")),
    referralRecordId: v.pipe(nullableText(), v.description('The referral the contact made (its id in /api/referrals), null for a duplicate.')),
    duplicateOf: v.pipe(
      v.nullable(recordId()),
      v.description("The contact's first referral, when this contact is its duplicate (not sent: an audit of attempt 0 says so)."),
    ),
    possibleRetake: v.pipe(
      v.boolean(),
      v.description(
        "The contact's run was started from the same client address and channel as a run finished within the channel's retake window (staff judge; it is sent as usual).",
      ),
    ),
    consentedAt: v.pipe(v.nullable(instant()), v.description("The contact's consent proof: when.")),
    consentLanguage: v.string(),
    consentSurveyVersion: v.pipe(v.nullable(whole()), v.description('The approved survey version answered.')),
    consentText: v.pipe(nullableText(), v.description('The consent text as shown (HTML).')),
    consentTextSha256: v.pipe(nullableText(), v.description("The consent text's SHA-256 (hex).")),
    utm: v.pipe(v.record(v.string(), v.string()), v.description('The campaign parameters (utm_source…) stored with the run.')),
    hiddenFields: v.pipe(v.record(v.string(), v.string()), v.description("The channel's hidden fields stored with the run.")),
  }),
);

/** An attempt as the list shows it, with its provider where the answer included it. */
export const RmsAudit = v.object({ ...RmsAuditAttempt.entries, ...RMS_AUDIT.attributes.entries });
export type RmsAudit = v.InferOutput<typeof RmsAudit>;

export const RMS_AUDIT_SORTS = ['created', 'contactId', 'rmsProviderName', 'succeeded'] as const;
export const RMS_AUDIT_DEFAULT_SORT = '-created';
/** The list's filters besides searchQuery: all in the screen's URL. */
export const RMS_AUDIT_FILTERS = ['contactId', 'succeeded', 'status', 'rmsProviderId', 'engagementId', 'from', 'to'] as const;
export type RmsAuditFilter = (typeof RMS_AUDIT_FILTERS)[number];

export const RESEND_MESSAGES = {
  alreadyDelivered: (contactId: number, deliveredAt: string | null) =>
    `Contact ${contactId} was already delivered${deliveredAt ? ` (${deliveredAt})` : ''}; the record system would receive it twice. Send it again with again=true if that is meant.`,
  duplicate: (contactId: number, duplicateOf: number) =>
    `Contact ${contactId} is a duplicate of contact ${duplicateOf} (the same person referred to the same engagement within its window); it is not sent.`,
  busy: (contactId: number) => `Contact ${contactId} is being delivered right now, or its record system is switched off; try again shortly.`,
} as const;

/**
 * The record system's callback body: which contact, and where its referral now stands on the
 * ladder (`status`), or the older form's flags (`screened`/`randomized`: true moves the referral
 * to in-screening/enrolled; false says nothing, as the ladder never steps down).
 */
export const RmsCallbackInput = v.strictObject({
  contactId: idNumber(),
  status: v.optional(v.picklist(REFERRAL_STATUSES, chooseMessage(REFERRAL_STATUSES))),
  /** Why, for a referral closed by the record system (kept sealed as the status change's note). */
  reason: optionalText(2000),
  screened: v.optional(flag()),
  randomized: v.optional(flag()),
});
export type RmsCallbackInput = v.InferOutput<typeof RmsCallbackInput>;

/** What the callback answers: where the contact's referral stands now (a referral, in the few attributes a record system may know). */
export const REFERRAL_STATUS_REPORT = resourceAnswer(
  REFERRAL_TYPE,
  v.object({
    contactId: recordId(),
    engagementId: recordId(),
    status: v.picklist(REFERRAL_STATUSES),
    isScreened: v.pipe(v.boolean(), v.description('The referral has reached screening (kept once set).')),
    isRandomized: v.pipe(v.boolean(), v.description('The referral has reached enrolment (kept once set).')),
  }),
  'referral-status-reports',
);

/** The ladder status a JSON callback asks for, or null when it states nothing. */
export const callbackStatus = (input: RmsCallbackInput): ReferralStatus | null =>
  input.status ?? (input.randomized ? 'enrolled' : input.screened ? 'in-screening' : null);

/**
 * Every FHIR R4 ResearchSubject status, and the ladder status it stands for (null: still a
 * candidate, nothing to move). `randomized` is not R4's but was accepted before, so it stays.
 */
export const FHIR_SUBJECT_STATUSES = {
  candidate: null,
  'potential-candidate': null,
  screening: 'in-screening',
  eligible: 'eligible',
  ineligible: 'screen-failed',
  'not-registered': 'screen-failed',
  'pending-on-study': 'eligible',
  'on-study': 'enrolled',
  'on-study-intervention': 'enrolled',
  'on-study-observation': 'enrolled',
  'follow-up': 'enrolled',
  'off-study': 'enrolled',
  randomized: 'enrolled',
  withdrawn: 'withdrawn',
} as const satisfies Record<string, ReferralStatus | null>;
