/**
 * Leads: the contact a participant leaves at an outcome that is not a referral (not qualified,
 * no study site within reach, the survey not running), kept for future contact with the consent
 * given for it. A lead is never delivered to a record system and never counted as a referral.
 */
import * as v from 'valibot';
import { isApiIsoCode } from '../i18n';
import { instant, nullableText, recordId, resourceAnswer, whole, type Answered } from './answers';

export const LEAD_TYPE = 'leads';

/** The outcomes that offer the contact form of a lead, each with its own message pair. */
export const LEAD_KINDS = ['notQualified', 'noTrialSites', 'notActive'] as const;
export type LeadKind = (typeof LEAD_KINDS)[number];
export const isLeadKind = (value: unknown): value is LeadKind => LEAD_KINDS.some((k) => k === value);

/** A lead as staff list it, no contact value (those only on an explicit reveal): the one description of its attributes. */
export const LEAD = resourceAnswer(
  LEAD_TYPE,
  v.object({
    kind: v.picklist(LEAD_KINDS),
    engagementIds: v.array(recordId()),
    screenerId: v.nullable(recordId()),
    mediaChannelId: v.nullable(recordId()),
    surveyId: v.nullable(recordId()),
    surveyVersion: v.nullable(whole()),
    language: v.string(),
    zipCode: nullableText(),
    country: v.pipe(nullableText(), v.description('Outside the US: the ISO country zipCode (then a postal code or a town) is in.')),
    nearestSiteMiles: v.pipe(
      v.nullable(v.number()),
      v.description("Miles to the nearest active site of the lead's engagements when it was left, whatever its radius."),
    ),
    consentedAt: instant(),
    consentText: v.string(),
    consentTextSha256: v.string(),
    duplicateOf: v.pipe(v.nullable(recordId()), v.description('The first lead of the same person (the same e-mail or phone) for one of these engagements.')),
    created: instant(),
  }),
);

export type Lead = Answered<typeof LEAD>;

export const LEAD_SORTS = ['created', 'kind', 'language', 'consentedAt', 'nearestSiteMiles'] as const;
export const LEAD_DEFAULT_SORT = '-created';
/**
 * The list's filters: all in the screen's URL. `withinReach=true`: only leads matched to a site
 * that opened within reach (with engagementId, of that engagement's sites); `siteLocationId`:
 * matched to that site location for any engagement; `engagementSiteLocationId`: to that link.
 */
export const LEAD_FILTERS = [
  'kind',
  'engagementId',
  'screenerId',
  'mediaChannelId',
  'language',
  'engagementSiteLocationId',
  'siteLocationId',
  'withinReach',
  'from',
  'to',
] as const;
export type LeadFilter = (typeof LEAD_FILTERS)[number];

/**
 * The admin's preview of a lead's form (the channel preview's choice of outcome): the outcome,
 * the screener whose contact fields and messages it shows, the survey version previewed (its own
 * outcome messages come first) and the language. With `values` and `acceptTerms`, the form as
 * sent: checked as a lead is, answered with the same thanks, and nothing stored.
 */
export const LEAD_PREVIEW_TYPE = 'lead-previews';
const previewId = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2_147_483_647));
export const LeadPreviewInput = v.strictObject({
  kind: v.picklist(LEAD_KINDS),
  screenerId: previewId,
  oFormId: v.optional(v.nullable(previewId), null),
  language: v.pipe(v.string(), v.check(isApiIsoCode, 'A language in the API form: en, es_MX.')),
  values: v.optional(v.record(v.string(), v.unknown()), {}),
  acceptTerms: v.optional(v.unknown()),
  /** notQualified, notActive: the optional ZIP of a screener that asks none among its contact fields. */
  zip: v.optional(v.nullable(v.string()), null),
});
export type LeadPreviewInput = v.InferInput<typeof LeadPreviewInput>;

/** What the preview offers: a lead's outcome, or qualified (the run's end, as the preview always showed it). */
export const PREVIEW_OUTCOMES = ['qualified', ...LEAD_KINDS] as const;
export type PreviewOutcome = (typeof PREVIEW_OUTCOMES)[number];

/** A lead's contact values, by contact field name (a checkbox's is a boolean). */
export const LeadValues = v.record(v.string(), v.union([v.string(), v.boolean()]));
export type LeadValues = v.InferOutput<typeof LeadValues>;
/** POST /api/leads/{id}/reveal: the values, as a JSON:API document with meta only (the reveal is audited). */
export const LeadRevealedDocument = v.object({ meta: v.object({ values: LeadValues }) });
