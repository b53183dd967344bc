import * as v from 'valibot';
import { flag, idNumber, optionalText, requiredText } from './fields';
import type { Lookup } from './lookup';
import { instant, nullableText, optionalDay, recordId, resourceAnswer, whole, type Answered } from './answers';
import { optionalChoice, optionalDate, optionalNumber, optionalUrl } from './scalars';

export const ENGAGEMENT_TYPE = 'engagements';

/** SPEC sections 3 and 9. */
export const ENGAGEMENT_PHASES = ['I', 'II', 'III', 'IV', 'N/A'] as const;
export type EngagementPhase = (typeof ENGAGEMENT_PHASES)[number];
export const DEFAULT_ENGAGEMENT_RADIUS = 25;
/** What an engagement's target participant count counts: referrals made, or randomized participants. */
export const TARGET_MEASURES = ['referrals', 'randomized'] as const;
export type TargetMeasure = (typeof TARGET_MEASURES)[number];

/** Radii are miles. */
export const MAX_RADIUS = 1000;
/** Days within which the same person referred again to an engagement is a duplicate (0: never). */
export const DEFAULT_DUPLICATE_WINDOW_DAYS = 90;
export const MAX_DUPLICATE_WINDOW_DAYS = 3650;
const windowMessage = `Must be a whole number of days from 0 to ${MAX_DUPLICATE_WINDOW_DAYS}.`;
/** Service levels of the referral work queue (server/referrals/queue.ts). */
export const DEFAULT_FIRST_CONTACT_HOURS = 48;
export const DEFAULT_STALE_DAYS = 7;
const wholeFrom1 = (max: number, unit: string, fallback: number) => {
  const text = `Must be a whole number of ${unit} from 1 to ${max}.`;
  return v.optional(v.pipe(v.number(text), v.integer(text), v.minValue(1, text), v.maxValue(max, text)), fallback);
};

/** What staff may write on an engagement. Unknown attributes are refused rather than ignored. */
export const EngagementInput = v.strictObject({
  name: requiredText(255),
  description: optionalText(5000),
  sponsorId: idNumber(),
  sponsorContact: optionalText(255),
  startDate: optionalDate(),
  endDate: optionalDate(),
  isActive: v.optional(flag(), true),
  radius: v.optional(
    v.pipe(
      v.number(`Must be a number from 1 to ${MAX_RADIUS}.`),
      v.integer('Must be a whole number.'),
      v.minValue(1, `Must be a number from 1 to ${MAX_RADIUS}.`),
      v.maxValue(MAX_RADIUS, `Must be a number from 1 to ${MAX_RADIUS}.`),
    ),
    DEFAULT_ENGAGEMENT_RADIUS,
  ),
  duplicateWindowDays: v.optional(
    v.pipe(v.number(windowMessage), v.integer(windowMessage), v.minValue(0, windowMessage), v.maxValue(MAX_DUPLICATE_WINDOW_DAYS, windowMessage)),
    DEFAULT_DUPLICATE_WINDOW_DAYS,
  ),
  /** A new referral's first contact is due within this many hours. */
  firstContactHours: wholeFrom1(8760, 'hours', DEFAULT_FIRST_CONTACT_HOURS),
  /** An open referral with no update for this many days is stale. */
  staleDays: wholeFrom1(365, 'days', DEFAULT_STALE_DAYS),
  mediaLiveDate: optionalDate(),
  mediaEndDate: optionalDate(),
  g6Url: optionalUrl(),
  protocolIdentifier: optionalText(255),
  studySubjectIdentifier: optionalText(255),
  protocolVersion: optionalText(64),
  phase: optionalChoice(ENGAGEMENT_PHASES),
  amendmentDate: optionalDate(),
  firstPatientInDate: optionalDate(),
  lastPatientInDate: optionalDate(),
  rareDisease: v.optional(flag(), false),
  cellGeneTherapy: v.optional(flag(), false),
  deiFocus: v.optional(flag(), false),
  /** A percentage of participants. */
  deiTarget: optionalNumber(0, 100),
  identification: requiredText(64),
  targetParticipantCount: optionalNumber(0, 10_000_000, true),
  /** What the target counts; reaching it pauses recruitment. */
  targetMeasure: v.optional(v.picklist(TARGET_MEASURES, `Must be one of: ${TARGET_MEASURES.join(', ')}.`), 'referrals'),
  rmsProviderId: v.optional(v.nullable(idNumber())),
  rmsSponsorIdentifier: optionalText(255),
  /** The staff member answerable for it (an active Admin, Super User or User); the creator when not given on create. */
  ownerUserId: v.optional(v.nullable(idNumber())),
});

/** An update changes only the attributes it names. */
export const EngagementPatch = v.partial(EngagementInput);

export type EngagementInput = v.InferInput<typeof EngagementInput>;

/** Pairs of dates where the second may not come before the first. */
export const DATE_ORDER = [
  ['startDate', 'endDate', 'Must not be before the start date.'],
  ['mediaLiveDate', 'mediaEndDate', 'Must not be before the media live date.'],
  ['firstPatientInDate', 'lastPatientInDate', 'Must not be before the first patient in date.'],
] as const;

/** Problems across fields (an end before its start), keyed by the later field. */
export function engagementDateIssues(values: Partial<Record<string, unknown>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [from, to, text] of DATE_ORDER) {
    const a = values[from];
    const b = values[to];
    if (typeof a === 'string' && typeof b === 'string' && a !== '' && b !== '' && b < a) out[to] = text;
  }
  return out;
}

/** The many-to-many lists set with relationships (SPEC section 7), and their JSON:API types. */
export const ENGAGEMENT_LOOKUP_RELATIONSHIPS = {
  campaignTypes: 'campaign-types',
  indications: 'indications',
  targetGroups: 'target-groups',
  therapeuticAreas: 'therapeutic-areas',
} as const;
export type EngagementLookupRelationship = keyof typeof ENGAGEMENT_LOOKUP_RELATIONSHIPS;

const nullableDay = optionalDay;

/** Why and since when an engagement is no longer offered: on its own answer, and per engagement on its channels'. */
export const ENGAGEMENT_PAUSE = v.object({
  reason: v.picklist(['target', 'mediaEndDate', 'endDate']),
  since: instant(),
  text: v.pipe(v.string(), v.description('"paused: target of 120 referrals reached on 2026-12-03".')),
});

/** An engagement as the API answers it: the one description of its attributes. */
export const ENGAGEMENT = resourceAnswer(
  ENGAGEMENT_TYPE,
  v.object({
    name: v.string(),
    description: nullableText(),
    sponsorId: recordId(),
    sponsorName: v.string(),
    sponsorIdentification: v.string(),
    sponsorContact: nullableText(),
    startDate: nullableDay(),
    endDate: nullableDay(),
    isActive: v.boolean(),
    radius: v.pipe(whole(), v.description('Miles.')),
    duplicateWindowDays: v.pipe(whole(), v.description('The same person referred again within this many days is a duplicate, kept and not sent (0: never).')),
    firstContactHours: whole(),
    staleDays: whole(),
    mediaLiveDate: nullableDay(),
    mediaEndDate: nullableDay(),
    g6Url: nullableText(),
    protocolIdentifier: nullableText(),
    studySubjectIdentifier: nullableText(),
    protocolVersion: nullableText(),
    phase: v.nullable(v.picklist(ENGAGEMENT_PHASES)),
    amendmentDate: nullableDay(),
    firstPatientInDate: nullableDay(),
    lastPatientInDate: nullableDay(),
    rareDisease: v.boolean(),
    cellGeneTherapy: v.boolean(),
    deiFocus: v.boolean(),
    deiTarget: v.pipe(v.nullable(v.number()), v.description('A percentage of participants.')),
    identification: v.string(),
    fullIdentification: v.pipe(v.string(), v.description("How the identification is shown: the sponsor's identification, a hyphen, then the engagement's.")),
    targetParticipantCount: v.nullable(whole()),
    targetMeasure: v.picklist(TARGET_MEASURES),
    rmsProviderId: v.nullable(recordId()),
    rmsProviderName: nullableText(),
    rmsSponsorIdentifier: nullableText(),
    ownerUserId: v.pipe(v.nullable(recordId()), v.description('The staff member answerable for the engagement (overdue messages reach them); null: nobody.')),
    ownerUsername: nullableText(),
    created: instant(),
    modified: instant(),
    /** On a single engagement's read and write: why and since when it is not offered; null while it is. */
    pause: v.optional(v.nullable(ENGAGEMENT_PAUSE)),
    /** Present when the list was asked with `sortAssociated`. */
    isAssociated: v.optional(v.boolean()),
  }),
);

/** Why and since when an engagement is no longer offered (its target reached, a date passed). */
export type EngagementPause = NonNullable<Answered<typeof ENGAGEMENT>['pause']>;

/** An engagement as the API returns it, with its lookup lists where core's reader resolved them. */
export type Engagement = Answered<typeof ENGAGEMENT> & {
  campaignTypes?: Lookup[];
  indications?: Lookup[];
  targetGroups?: Lookup[];
  therapeuticAreas?: Lookup[];
};

/** The roles an engagement's owner may hold. */
export const ENGAGEMENT_OWNER_ROLES = ['Admin', 'Super User', 'User'] as const;

export const fullIdentification = (sponsorIdentification: string, identification: string) => `${sponsorIdentification}-${identification}`;

/** Columns the engagements list may be sorted by (SPEC default `-isActive,endDate,name`). */
export const ENGAGEMENT_SORTS = ['name', 'identification', 'isActive', 'startDate', 'endDate', 'phase', 'sponsorName', 'created', 'modified'] as const;
export const ENGAGEMENT_DEFAULT_SORT = '-isActive,endDate,name';
export const ENGAGEMENT_INCLUDES = ['sponsor', 'rmsProvider', 'campaignTypes', 'indications', 'targetGroups', 'therapeuticAreas'] as const;
