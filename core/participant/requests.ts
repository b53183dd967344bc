/**
 * What a participant's client sends: the `data.attributes` of each participant request, as the
 * server validates them. Clients type their bodies with the inputs (`v.InferInput`), so a body
 * the server would refuse does not compile.
 */
import * as v from 'valibot';
import { isApiIsoCode } from '../i18n';
import { message } from '../validation/messages';
import { UTM_MAX_LENGTH } from '../model/partnerPage';
import { httpUrl, PAGE_URL_MAX_LENGTH } from './attribution';

const MAX_ID = 2_147_483_647;

/** An id as a JSON number or a string of digits (JSON:API ids are strings). */
export const participantId = () =>
  v.pipe(
    v.union(
      [v.number(message('integer')), v.pipe(v.string(message('integer')), v.regex(/^\d{1,10}$/, message('integer')), v.transform(Number))],
      message('integer'),
    ),
    v.integer(message('integer')),
    v.minValue(1, message('integer')),
    v.maxValue(MAX_ID, message('integer')),
  );

const utmValue = () =>
  v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty(message('required')), v.maxLength(UTM_MAX_LENGTH, message('max', { length: UTM_MAX_LENGTH }))));

/** The campaign parameters (core/model/partnerPage.ts UTM_PARAMETERS), each optional and length-limited; no other key. */
export const UtmAttributes = v.strictObject(
  { utm_source: utmValue(), utm_medium: utmValue(), utm_campaign: utmValue(), utm_term: utmValue(), utm_content: utmValue() },
  'Campaign parameters are utm_source, utm_medium, utm_campaign, utm_term and utm_content only.',
);

/** One answer as sent: numbers arrive as text. */
export const AnswerValue = v.union(
  [
    v.pipe(v.string(), v.maxLength(10_000, message('max', { length: 10_000 }))),
    v.pipe(v.number(), v.finite(), v.transform(String)),
    v.boolean(),
    v.null(),
    v.pipe(v.array(v.pipe(v.string(), v.maxLength(200, message('max', { length: 200 })))), v.maxLength(200)),
  ],
  'An answer is a text, a number, true or false, null, or a list of option values.',
);

const isoDateTime = () =>
  v.pipe(
    v.string(message('date_format')),
    v.check((s) => !Number.isNaN(Date.parse(s)) && /^\d{4}-\d{2}-\d{2}T/.test(s), 'Use an ISO date and time (2024-01-31T12:00:00Z).'),
    v.transform((s) => new Date(s)),
  );

/** When a page was shown and left, as the participant's browser saw it. */
export const PageTiming = v.pipe(
  v.object({ start: isoDateTime(), stop: isoDateTime() }, 'Give the timing as {start, stop}.'),
  v.forward(
    v.check((t) => t.stop.getTime() >= t.start.getTime(), 'The stop must not be before the start.'),
    ['stop'],
  ),
);

/** A page's answers by question identity. */
export const PageAnswers = v.pipe(
  v.record(v.string(), AnswerValue),
  v.check((a) => Object.keys(a).length <= 500, 'Too many answers.'),
);

const HIDDEN_FIELDS_INVALID = 'Hidden fields are an object of at most 50 names, each with its text.';

/** Answers sent with a submission's creation are its first page's: that page is named with them. */
export const ANSWERS_WITHOUT_PAGE = "Send the first page's answers with that page's oFormContainerId.";

/** POST /o-form-submissions: the attributes each on its own (ViewAttributes shares some). */
const SubmissionFields = v.object({
  oFormId: participantId(),
  mediaChannelId: v.optional(v.nullable(participantId()), null),
  language: v.optional(v.nullable(v.pipe(v.string(), v.check(isApiIsoCode, 'Use an API language code such as en or es_MX.'))), null),
  /** The partner page's address; only its origin and path are kept, with its campaign parameters (./attribution.ts). */
  mediaChannelUrl: v.optional(
    v.nullable(
      v.pipe(
        v.string(),
        v.maxLength(PAGE_URL_MAX_LENGTH, message('max', { length: PAGE_URL_MAX_LENGTH })),
        v.check((s) => httpUrl(s) !== null, 'Give the page address as an absolute http or https URL.'),
      ),
    ),
    null,
  ),
  /** Campaign parameters sent on their own; each wins over the same one read from mediaChannelUrl. */
  utm: v.optional(v.nullable(UtmAttributes), null),
  /** Hidden fields (the snippet's data-field-<name> attributes, as they are): only those the channel declares are kept, each within its length. */
  fields: v.optional(
    v.nullable(
      v.pipe(
        v.unknown(),
        v.check((fields) => typeof fields === 'object' && !Array.isArray(fields), HIDDEN_FIELDS_INVALID),
        v.record(v.pipe(v.string(), v.maxLength(64)), v.string(HIDDEN_FIELDS_INVALID)),
        v.check((fields) => Object.keys(fields).length <= 50, HIDDEN_FIELDS_INVALID),
      ),
    ),
    null,
  ),
  /**
   * The survey's first page: its entry is opened with the submission, in the same statement,
   * and answered as meta.containerEntryId (the first Next then costs one call fewer).
   */
  oFormContainerId: v.optional(v.nullable(participantId()), null),
  /**
   * That first page's answers and timing, saved with the submission (with oFormContainerId only):
   * the first Next is then one request. Answered as meta.pageSaved, or left to the page's own
   * save when they are refused.
   */
  answers: v.optional(v.nullable(PageAnswers), null),
  timing: v.nullish(PageTiming),
});

/** POST /o-form-submissions: a run of a survey version, through a channel when one is named. */
export const SubmissionAttributes = v.pipe(
  SubmissionFields,
  v.forward(
    v.check((s) => s.answers === null || s.oFormContainerId !== null, ANSWERS_WITHOUT_PAGE),
    ['answers'],
  ),
);

/**
 * POST /participant-views: the widget seen (at least half of it on screen), once per page load:
 * the survey it shows (its channel's current one when not named), in which language, and the
 * host page's campaign parameters.
 */
export const ViewAttributes = v.object({
  mediaChannelId: participantId(),
  oFormIdentity: v.optional(v.nullable(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'A survey identity is 1 to 64 letters, digits, - or _.'))), null),
  language: SubmissionFields.entries.language,
  utm: SubmissionFields.entries.utm,
});

/** POST /o-form-container-entries: a page's entry (or a child container's, under its page's entry). */
export const EntryAttributes = v.object({
  oFormContainerId: participantId(),
  oFormSubmissionId: participantId(),
  parentId: v.optional(v.nullable(participantId()), null),
});

/**
 * POST (or PATCH) /o-form-submission-page/{entryId} and its preview: a page's answers by question
 * identity, and how long the page was on screen (kept as the page's timing once the save is
 * stored: one request per Next; the preview ignores it).
 */
export const PageAnswersAttributes = v.object({
  answers: PageAnswers,
  timing: v.nullish(PageTiming),
});

/** PATCH /o-form-submission-sanitization/{submissionId}: the page entries left behind. */
export const SanitizationAttributes = v.object({ pageIds: v.pipe(v.array(participantId()), v.maxLength(1000, 'Too many pages.')) });

/** POST /o-form-page-metrics: when a page was shown and left. */
export const PageMetricAttributes = v.pipe(
  v.object({
    start: isoDateTime(),
    stop: v.optional(v.nullable(isoDateTime()), null),
    // Every timing is of a page so far; a client may leave it out. Not `type`, which JSON:API keeps for the resource's own type.
    metricType: v.optional(v.literal('page', "The metric type is 'page'."), 'page'),
    identity: v.pipe(v.string(message('required')), v.nonEmpty(message('required')), v.maxLength(200, message('max', { length: 200 }))),
    oFormSubmissionId: participantId(),
  }),
  v.forward(
    v.check((m) => m.stop === null || m.stop.getTime() >= m.start.getTime(), 'The stop must not be before the start.'),
    ['stop'],
  ),
);

const placeText = () => v.optional(v.pipe(v.string('Give the place as text.'), v.maxLength(100, message('max', { length: 100 }))));

/**
 * POST /o-form-submission-sites/{submissionId}: where to look for sites, in the body so that no
 * ZIP is in an address: in the US a ZIP code; elsewhere a country (ISO code) with a postal code or
 * a town, or with `zip` as either.
 */
export const SiteSearchAttributes = v.object({
  zip: placeText(),
  // The widget keeps '' for the US in its state and sends it as it is: an empty country is none.
  country: v.pipe(
    placeText(),
    v.transform((country) => country || undefined),
  ),
  postalCode: placeText(),
  town: placeText(),
});

/**
 * POST /o-form-submission-contact/{submissionId}: the chosen site (or, with none in reach, the
 * engagement), the contact values by field name and the consent. The values and the consent
 * are checked against the screener's contact fields (core/survey/contact.ts), so their shape is open here.
 */
export const ContactAttributes = v.object({
  engagementSiteLocationId: v.optional(v.nullable(v.union([v.string(), v.number()]))),
  engagementId: v.optional(v.nullable(v.union([v.string(), v.number()]))),
  values: v.optional(v.record(v.string(), v.unknown()), {}),
  acceptTerms: v.optional(v.unknown()),
  /** The separate consent to one text at the phone number given (true only when ticked). */
  smsConsent: v.optional(v.boolean('Must be true or false.')),
});

/**
 * A lead's contact at notQualified, noTrialSites or notActive: the values by field name and the
 * consent, checked like a contact's; the ZIP searched from (required for noTrialSites).
 */
export const LeadAttributes = v.object({
  values: v.optional(v.record(v.string(), v.unknown()), {}),
  acceptTerms: v.optional(v.unknown()),
  zip: v.optional(v.nullable(v.union([v.string(), v.number()]))),
  /** Outside the US: the ISO country the ZIP (then a postal code or a town) is in. */
  country: v.optional(v.nullable(v.string())),
});

export type SubmissionBody = v.InferInput<typeof SubmissionAttributes>;
export type ViewBody = v.InferInput<typeof ViewAttributes>;
export type EntryBody = v.InferInput<typeof EntryAttributes>;
export type PageAnswersBody = v.InferInput<typeof PageAnswersAttributes>;
/** A page's timing as the server reads it (dates); the browser sends core/survey/runner.ts PageTimes. */
export type PageTimingRead = v.InferOutput<typeof PageTiming>;
export type SanitizationBody = v.InferInput<typeof SanitizationAttributes>;
export type PageMetricBody = v.InferInput<typeof PageMetricAttributes>;
export type SiteSearchBody = v.InferInput<typeof SiteSearchAttributes>;
export type ContactBody = v.InferInput<typeof ContactAttributes>;
export type LeadBody = v.InferInput<typeof LeadAttributes>;
