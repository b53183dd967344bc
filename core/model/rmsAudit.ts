/**
 * Record-system audits (SPEC section 3): one per attempt to deliver a participant's contact to
 * the engagement's record system, each with the state of that contact's delivery, and the
 * callbacks by which the record system reports a referral screened or randomized.
 */
import * as v from 'valibot';
import { flag, idNumber } from './fields';
import type { RmsProviderKind } from './rmsProvider';

export const RMS_AUDIT_TYPE = 'rms-audits';

/**
 * pending: the first attempt is due; retrying: an attempt failed and the next is scheduled;
 * delivered: the record system accepted it; undelivered: no attempt is left, waiting for a resend.
 */
export const RMS_DELIVERY_STATUSES = ['pending', 'retrying', 'delivered', 'undelivered'] as const;
export type RmsDeliveryStatus = (typeof RMS_DELIVERY_STATUSES)[number];

export interface RmsAuditProvider {
  id: string;
  name: string;
  kind: RmsProviderKind;
}

export interface RmsAudit {
  id: string;
  contactId: number;
  created: string;
  rmsProviderId: number | null;
  rmsProviderName: string;
  succeeded: boolean;
  /** 1 for a round's first try, counting up through its retries. */
  attempt: number;
  responseMessage: string;
  responseBody: string;
  /** The engagement the contact was referred to. */
  engagementId: number;
  /** Where the contact's delivery stands now (not at this attempt). */
  deliveryStatus: RmsDeliveryStatus | null;
  /** When the next attempt is due, for a pending or retrying delivery. */
  nextAttemptAt: string | null;
  /** When the record system first accepted the contact. */
  deliveredAt: string | null;
  /** The referral's idempotency key, the same in every attempt and resend. */
  referralId: string | null;
  /** The contact's first referral, when this contact is its duplicate (not sent: an audit of attempt 0 says so). */
  duplicateOf: number | null;
  /** The contact's run was started from the same client address and channel as a run finished within the channel's retake window (staff judge; it is sent as usual). */
  possibleRetake: boolean;
  /** The contact's consent proof: when, in which language, the approved survey version answered, the text as shown (HTML) and its SHA-256 (hex). */
  consentedAt: string | null;
  consentLanguage: string;
  consentSurveyVersion: number | null;
  consentText: string | null;
  consentTextSha256: string | null;
  /** Where the contact came from: the campaign parameters (utm_source…) and the channel's hidden fields stored with its run. */
  utm: Partial<Record<string, string>>;
  hiddenFields: Record<string, string>;
  /** Present when the list was asked to include rmsProviders (null: no provider row). */
  rmsProviders?: RmsAuditProvider | null;
}

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

/** The record system's callback body: which contact, and what became of its referral. */
export const RmsCallbackInput = v.strictObject({
  contactId: idNumber(),
  screened: v.optional(flag()),
  randomized: v.optional(flag()),
});
export type RmsCallbackInput = v.InferOutput<typeof RmsCallbackInput>;

/** FHIR ResearchSubject statuses the FHIR callback understands, and what each says of the referral. */
export const FHIR_SUBJECT_STATUSES = {
  screening: { screened: true },
  eligible: { screened: true },
  ineligible: { screened: true },
  'on-study': { randomized: true },
  'on-study-intervention': { randomized: true },
  'on-study-observation': { randomized: true },
  randomized: { randomized: true },
} as const satisfies Record<string, { screened?: true; randomized?: true }>;
