import * as v from 'valibot';
import { flag, idNumber, optionalText, requiredText } from './fields';
import { chooseMessage } from './scalars';
import { count, instant, nullableText, recordId, resourceAnswer, type Answered } from './answers';

const INSTANT_MESSAGE = 'Must be a date and time such as 2026-11-27T14:30:00Z.';

export const REFERRAL_COUNTS_TYPE = 'referral-counts';

/**
 * SPEC section 3: an engagement's referrals, and how many were screened and randomized;
 * `duplicates` (the same person again within the engagement's window, never sent) are not in
 * `total`. The one description of its attributes; its id is the engagement's.
 */
export const REFERRAL_COUNTS = resourceAnswer(
  REFERRAL_COUNTS_TYPE,
  v.object({
    total: count(),
    duplicates: v.pipe(count(), v.description("The same person again within the engagement's window, never sent; not in total.")),
    screened: count(),
    randomized: count(),
  }),
);
export type ReferralCounts = Answered<typeof REFERRAL_COUNTS>;

// ---------------------------------------------------------------------------------------------
// The referral's status ladder, worked by recruiters, site coordinators and record systems.

export const REFERRAL_TYPE = 'referrals';
export const REFERRAL_REASON_TYPE = 'referral-reasons';
export const CONTACT_ATTEMPT_TYPE = 'contact-attempts';

/** In the order a referral climbs them (aligned with FHIR R4 ResearchSubject.status). */
export const REFERRAL_STATUSES = [
  'new',
  'attempting-contact',
  'contacted',
  'scheduled',
  'in-screening',
  'screen-failed',
  'eligible',
  'enrolled',
  'withdrawn',
  'not-reachable',
] as const;
export type ReferralStatus = (typeof REFERRAL_STATUSES)[number];

export const REFERRAL_STATUS_LABELS: Record<ReferralStatus, string> = {
  new: 'New',
  'attempting-contact': 'Attempting contact',
  contacted: 'Contacted',
  scheduled: 'Scheduled',
  'in-screening': 'In screening',
  'screen-failed': 'Screen failed',
  eligible: 'Eligible',
  enrolled: 'Enrolled',
  withdrawn: 'Withdrawn',
  'not-reachable': 'Not reachable',
};

/** Nothing more to work: the queue leaves these out of due and stale. */
export const CLOSED_REFERRAL_STATUSES: readonly ReferralStatus[] = ['screen-failed', 'enrolled', 'withdrawn', 'not-reachable'];
/** The statuses that must say why (a reason from the staff's list, plus free text). */
export const REASONED_REFERRAL_STATUSES: readonly ReferralStatus[] = ['screen-failed', 'withdrawn', 'not-reachable'];

/**
 * The rung of each status on the main line; a referral may skip rungs upwards (a site that
 * screens at the first call), never step down. screen-failed and eligible are the two outcomes of
 * screening; enrolled follows eligible only.
 */
const RUNG: Partial<Record<ReferralStatus, number>> = {
  new: 0,
  'attempting-contact': 1,
  contacted: 2,
  scheduled: 3,
  'in-screening': 4,
  'screen-failed': 5,
  eligible: 5,
  enrolled: 6,
};

/** Whether a referral at `from` may move to `to` (the one transition rule of the product). */
export function canMoveReferral(from: ReferralStatus, to: ReferralStatus): boolean {
  if (from === to) return false;
  // A participant on study may still withdraw (FHIR: on-study, then withdrawn).
  if (to === 'withdrawn') return from === 'enrolled' || !CLOSED_REFERRAL_STATUSES.includes(from);
  if (CLOSED_REFERRAL_STATUSES.includes(from)) return false;
  if (to === 'not-reachable') return true;
  if (to === 'enrolled') return from === 'eligible' || (RUNG[from] ?? 99) <= RUNG['in-screening']!;
  return (RUNG[to] ?? -1) > (RUNG[from] ?? 99);
}

/** The statuses a referral at `from` may move to, in ladder order. */
export const nextReferralStatuses = (from: ReferralStatus): ReferralStatus[] => REFERRAL_STATUSES.filter((to) => canMoveReferral(from, to));

/** The milestones a status stands for, kept once reached (a withdrawal after screening was still screened). */
export function referralMilestones(status: ReferralStatus): { contacted: boolean; screened: boolean; randomized: boolean } {
  const rung = RUNG[status];
  return {
    contacted: rung !== undefined && rung >= RUNG.contacted!,
    screened: rung !== undefined && rung >= RUNG['in-screening']!,
    randomized: status === 'enrolled',
  };
}

export const REFERRAL_STATUS_REFUSED = (from: ReferralStatus, to: ReferralStatus) => {
  const allowed = nextReferralStatuses(from);
  return `A referral that is ${REFERRAL_STATUS_LABELS[from].toLowerCase()} cannot become ${REFERRAL_STATUS_LABELS[to].toLowerCase()}.${
    allowed.length ? ` It can become: ${allowed.join(', ')}.` : ' It is closed.'
  }`;
};
export const REFERRAL_REASON_REQUIRED = (to: ReferralStatus) => `Choose why the referral is ${REFERRAL_STATUS_LABELS[to].toLowerCase()}.`;
export const REFERRAL_REASON_MISMATCH = (to: ReferralStatus) => `Choose a reason listed for ${REFERRAL_STATUS_LABELS[to].toLowerCase()}.`;

/** What staff write on a referral: its next status, with a reason where the status needs one. */
export const ReferralPatch = v.strictObject({
  status: v.picklist(REFERRAL_STATUSES, chooseMessage(REFERRAL_STATUSES)),
  reasonId: v.optional(v.nullable(idNumber())),
  reasonNote: optionalText(2000),
});
export type ReferralPatch = v.InferOutput<typeof ReferralPatch>;

/** A reason staff keep for closing a referral at one of REASONED_REFERRAL_STATUSES. */
export const ReferralReasonInput = v.strictObject({
  name: requiredText(255),
  status: v.picklist(REASONED_REFERRAL_STATUSES as readonly ['screen-failed', 'withdrawn', 'not-reachable'], chooseMessage(REASONED_REFERRAL_STATUSES)),
  isActive: v.optional(flag(), true),
});
export const ReferralReasonPatch = v.partial(ReferralReasonInput);

export const CONTACT_CHANNELS = ['phone', 'email', 'sms', 'in-person'] as const;
export type ContactChannel = (typeof CONTACT_CHANNELS)[number];
export const CONTACT_RESULTS = ['reached', 'voicemail', 'no-answer', 'wrong-number', 'declined'] as const;
export type ContactResult = (typeof CONTACT_RESULTS)[number];

/** A call, message or visit logged against a referral; `nextAttemptDue` plans the next one. */
export const ContactAttemptInput = v.strictObject({
  channel: v.picklist(CONTACT_CHANNELS, chooseMessage(CONTACT_CHANNELS)),
  result: v.picklist(CONTACT_RESULTS, chooseMessage(CONTACT_RESULTS)),
  note: optionalText(2000),
  attemptedAt: v.optional(v.pipe(v.string(INSTANT_MESSAGE), v.isoTimestamp(INSTANT_MESSAGE))),
  nextAttemptDue: v.optional(v.nullable(v.pipe(v.string(INSTANT_MESSAGE), v.isoTimestamp(INSTANT_MESSAGE)))),
});
export type ContactAttemptInput = v.InferOutput<typeof ContactAttemptInput>;

/** A referral as the work queue shows it, initials only, never contact values: the one description of its attributes. */
export const REFERRAL = resourceAnswer(
  REFERRAL_TYPE,
  v.object({
    status: v.picklist(REFERRAL_STATUSES),
    reasonId: v.nullable(recordId()),
    reasonName: nullableText(),
    reasonNote: nullableText(),
    engagementId: recordId(),
    engagementName: v.string(),
    siteLocationId: v.nullable(recordId()),
    siteName: nullableText(),
    initials: nullableText(),
    created: instant(),
    statusChanged: v.nullable(instant()),
    firstContactAt: v.nullable(instant()),
    attempts: count(),
    lastAttemptAt: v.nullable(instant()),
    nextAttemptDue: v.nullable(instant()),
    due: v.pipe(v.nullable(instant()), v.description("When the next step is due: the planned attempt, else the first contact's service level.")),
    overdue: v.boolean(),
    stale: v.boolean(),
    deliveryStatus: v.pipe(nullableText(), v.description("Its delivery to the engagement's record system, if any.")),
    allowedStatuses: v.pipe(v.array(v.picklist(REFERRAL_STATUSES)), v.description('The statuses the caller may move it to next.')),
  }),
);

export type Referral = Answered<typeof REFERRAL>;

export const REFERRAL_EVENT_TYPE = 'referral-events';
export const REFERRAL_EVENT_KINDS = ['submitted', 'qualified', 'made', 'delivery', 'status', 'attempt'] as const;

/** One line of a referral's timeline (GET /api/referrals/{id}/timeline). */
export const REFERRAL_EVENT = resourceAnswer(
  REFERRAL_EVENT_TYPE,
  v.object({
    kind: v.picklist(REFERRAL_EVENT_KINDS),
    occurredAt: instant(),
    actorName: v.pipe(nullableText(), v.description('Who did it: a staff member, or the record system a delivery went to.')),
    fromStatus: nullableText(),
    toStatus: nullableText(),
    reasonName: nullableText(),
    channel: v.pipe(nullableText(), v.description("A contact attempt's channel, or a delivery's attempt number.")),
    result: v.pipe(nullableText(), v.description("A contact attempt's result, or whether a delivery took.")),
    note: nullableText(),
  }),
);
export type ReferralTimelineEntry = Answered<typeof REFERRAL_EVENT>;

export const REFERRAL_CONTACT_TYPE = 'referral-contacts';

/** A referral's contact values, revealed (and audited) on request: by contact field name. */
export const REFERRAL_CONTACT = resourceAnswer(
  REFERRAL_CONTACT_TYPE,
  v.object({ values: v.pipe(v.record(v.string(), v.unknown()), v.description('The contact values the participant left, by contact field name.')) }),
);
export type ReferralContact = Answered<typeof REFERRAL_CONTACT>;

/** A reason staff keep for closing a referral at one of the reasoned statuses. */
export const REFERRAL_REASON = resourceAnswer(
  REFERRAL_REASON_TYPE,
  v.object({ name: v.string(), status: ReferralReasonInput.entries.status, isActive: v.boolean() }),
);
export type ReferralReason = Answered<typeof REFERRAL_REASON>;
