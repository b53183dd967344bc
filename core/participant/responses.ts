/**
 * What the participant API answers: each answer's document, its resources' attributes and the
 * `meta` it carries, as schemas. The server builds its answers with these types; the API tests
 * check every answer against them; the transport (./transport.ts) reads them into the runner's
 * shapes. Attributes and meta are strict: an answer that carries more than is declared here
 * fails its test, so this file stays the whole contract.
 */
import { EVENTS_POLICIES } from '../model/eventsPolicy';
import { LEAD_KINDS } from '../model/lead';
import * as v from 'valibot';
import { CONTACT_FIELD_TYPE, CONTACT_FIELD_TYPES } from '../model/contactField';
import { MEDIA_CHANNEL_TYPE } from '../model/mediaChannel';
import { FIELD_TYPES, FieldConfiguration, PageTranslations } from '../model/survey';
import { OFORM_CONTAINER_TYPE, OFORM_FIELD_TYPE } from '../model/surveyDoc';
import { OUTCOMES } from '../survey/runner';
import { EMBED_PROBLEMS } from '../model/embedProblem';
import { ENTRY_TYPE, FIELD_ENTRY_TYPE, PAGE_METRIC_TYPE, SUBMISSION_TYPE, TRIAL_SITE_TYPE } from './wire';

const ref = <T extends string>(type: T) => v.strictObject({ type: v.literal(type), id: v.string() });
const toOne = <T extends string>(type: T) => v.strictObject({ data: v.nullable(ref(type)) });
const toMany = <T extends string>(type: T) => v.strictObject({ data: v.array(ref(type)) });

/** A JSON:API resource of `type` with exactly these attributes. */
const resource = <T extends string, A extends v.ObjectEntries>(type: T, attributes: A) =>
  v.strictObject({ type: v.literal(type), id: v.string(), attributes: v.strictObject(attributes) });

/** The same, with exactly these relationships. */
const related = <T extends string, A extends v.ObjectEntries, R extends v.ObjectEntries>(type: T, attributes: A, relationships: R) =>
  v.strictObject({ type: v.literal(type), id: v.string(), attributes: v.strictObject(attributes), relationships: v.strictObject(relationships) });

const text = v.string();
const maybeText = v.nullable(v.string());

// ---------------------------------------------------------------------------------------------
// Pieces several answers share

/** The screener's pair of texts for an outcome, sanitized HTML, in the participant's language; with the contact form, the SMS consent when a phone number is asked for. */
export const OutcomeMessages = v.strictObject({ contactForm: text, consent: text, sms: v.optional(text) });
export type OutcomeMessages = v.InferOutput<typeof OutcomeMessages>;

export const Outcome = v.picklist(OUTCOMES);

/** A stored answer as it is read back: numbers may come back as numbers. */
export const StoredAnswer = v.union([v.string(), v.number(), v.boolean(), v.null(), v.array(v.string())]);

/** The screener's colours (core/model/screener.ts ScreenerStyles), as the widget themes with them. */
export const Styles = v.record(v.string(), v.record(v.string(), v.union([v.string(), v.boolean(), v.null()])));

// ---------------------------------------------------------------------------------------------
// A page with its questions (GET /o-form-containers, and participant-start's first page)

/** What a participant may see of a question's configuration: who an option disqualifies stays on the server. */
export const PublicFieldConfiguration = FieldConfiguration;

const containerAttributes = {
  identity: text,
  title: text,
  displayOrder: v.number(),
  isActive: v.boolean(),
  oFormVersionId: text,
  oFormIdentity: text,
  oFormContainerTypeId: text,
  parentId: maybeText,
  /** The title per language as staff wrote it: the widget shows the participant's, else `title`. */
  translations: PageTranslations,
};
export const PageContainer = related(OFORM_CONTAINER_TYPE, containerAttributes, {
  parentOFormContainer: toOne(OFORM_CONTAINER_TYPE),
  childOFormContainers: toMany(OFORM_CONTAINER_TYPE),
  oFormFields: toMany(OFORM_FIELD_TYPE),
});
export const ChildContainer = related(OFORM_CONTAINER_TYPE, containerAttributes, { parentOFormContainer: toOne(OFORM_CONTAINER_TYPE) });
export const PageField = resource(OFORM_FIELD_TYPE, {
  identity: text,
  title: text,
  oFormFieldTypeId: v.picklist(FIELD_TYPES),
  displayOrder: v.number(),
  containerId: text,
  oFormContainerIdentity: text,
  configuration: PublicFieldConfiguration,
});
const pageBody = { data: PageContainer, included: v.array(v.union([ChildContainer, PageField])) };
/** The page that follows a page that cannot end the run: a page document without its own `meta`. */
export const FollowingPageDocument = v.strictObject(pageBody);
export const PageDocument = v.strictObject({
  ...pageBody,
  /**
   * Only on a page where no answer can end the run (no disqualifying option, no age rule, no
   * transition, not the last page; server/participant/cannotEnd.ts): `cannotEnd` and the page
   * that follows it whatever is answered, which the widget shows at once while the save is
   * confirmed. Absent on every other page, so it tells nothing of which answer disqualifies.
   */
  meta: v.optional(v.strictObject({ cannotEnd: v.literal(true), nextPage: FollowingPageDocument })),
});
export type PageDocument = v.InferOutput<typeof PageDocument>;
export type PageContainer = v.InferOutput<typeof PageContainer>;
export type ChildContainer = v.InferOutput<typeof ChildContainer>;
export type PageField = v.InferOutput<typeof PageField>;

// ---------------------------------------------------------------------------------------------
// GET /participant-start

/** Why a snippet cannot run, for the webmaster (../model/embedProblem.ts): the code and the console's line. */
export const EmbedProblemMeta = v.strictObject({ code: v.picklist(EMBED_PROBLEMS), detail: text });
export const NotRunnableMeta = v.strictObject({
  runnable: v.literal(false),
  outcome: v.literal('notActive'),
  messages: OutcomeMessages,
  /** Present when the snippet's channel is switched off (`channel-inactive`). */
  problem: v.optional(EmbedProblemMeta),
  /** The submission the outcome's lead form is left through (its token in the header), where the screener asks contact fields. */
  submissionId: v.optional(text),
});
export const RunnableMeta = v.strictObject({
  runnable: v.literal(true),
  oFormId: text,
  oFormIdentity: text,
  title: text,
  containerCount: v.number(),
  /** API iso codes, English first. */
  languages: v.array(text),
  styles: Styles,
  screenerId: maybeText,
  mediaChannelId: maybeText,
  /** The channel's retake window in days: after an outcome, a reload shows it again for this long (0: retakes allowed, or no channel). */
  retakeWindowDays: v.number(),
  /** What the widget announces to its host page (core/model/eventsPolicy.ts); none without a channel. */
  eventsPolicy: v.picklist(EVENTS_POLICIES),
  /** The channel's region outside the US (its locale's, ISO 3166-1: CA for en-CA): whose postal codes a ZIP takes. Absent: the US. */
  region: v.optional(v.pipe(text, v.regex(/^[A-Z]{2}$/))),
  firstPage: v.nullable(PageDocument),
});
export const StartDocument = v.strictObject({ meta: v.variant('runnable', [NotRunnableMeta, RunnableMeta]) });
export type StartMeta = v.InferOutput<typeof StartDocument>['meta'];

// ---------------------------------------------------------------------------------------------
// POST /participant-views

/** Whether the view counted (an inactive channel's does not). */
export const ViewCountedDocument = v.strictObject({ meta: v.strictObject({ counted: v.boolean() }) });

// ---------------------------------------------------------------------------------------------
// A page's answers saved: what PATCH /o-form-submission-page/{entryId} and its preview answer, and
// what the submission's creation answers when it carried its first page's answers

export const PageSavedMeta = v.strictObject({
  success: v.literal(true),
  /** The next page; null when the survey ends. */
  nextContainerIdentity: maybeText,
  /** The next page's entry, made with the save (null in preview). */
  nextContainerEntryId: maybeText,
  /** The survey an option's transition hands over to, else null. */
  nextOFormIdentity: maybeText,
  /**
   * The next page with its questions (the containers route's document), so a Next is one round
   * trip; null when the survey ends or hands over.
   */
  nextPage: v.nullable(PageDocument),
});
export type PageSavedMeta = v.InferOutput<typeof PageSavedMeta>;

// ---------------------------------------------------------------------------------------------
// POST /o-form-submissions

export const Submission = resource(SUBMISSION_TYPE, {
  status: v.picklist(['in_progress', 'completed', 'abandoned']),
  oFormId: v.number(),
  mediaChannelId: v.nullable(v.number()),
  language: text,
  outcome: maybeText,
  isQualified: v.nullable(v.boolean()),
  created: text,
});
export type Submission = v.InferOutput<typeof Submission>;
/**
 * meta.containerEntryId: the first page's entry, when the start asked to open it; meta.pageSaved:
 * its answers saved, when the start carried them and they were not refused (the page's own save
 * answers their problems).
 */
export const SubmissionCreatedDocument = v.strictObject({
  data: Submission,
  meta: v.optional(v.strictObject({ containerEntryId: text, pageSaved: v.optional(PageSavedMeta) })),
});
/**
 * Nothing runs there: no run, the notActive texts; where the screener asks contact fields, the
 * submission made at notActive that its lead form is left through (its token in the header).
 */
export const SubmissionRefusedDocument = v.strictObject({
  data: v.null(),
  meta: v.strictObject({ outcome: v.literal('notActive'), messages: OutcomeMessages, submissionId: v.optional(text) }),
});

// ---------------------------------------------------------------------------------------------
// Page entries and their answers

export const Entry = related(
  ENTRY_TYPE,
  {
    oFormContainerId: v.number(),
    oFormContainerIdentity: maybeText,
    oFormSubmissionId: v.number(),
    parentId: v.nullable(v.number()),
    created: text,
  },
  { childEntries: toMany(ENTRY_TYPE), oFormFieldEntries: v.optional(toMany(FIELD_ENTRY_TYPE)) },
);
export type Entry = v.InferOutput<typeof Entry>;
export const FieldEntry = resource(FIELD_ENTRY_TYPE, {
  fieldValue: StoredAnswer,
  oFormFieldId: v.number(),
  oFormFieldIdentity: maybeText,
  containerEntryId: v.number(),
});
export const EntryCreatedDocument = v.strictObject({ data: Entry });
/** A page entry with its answers: `meta.answers` maps question identity to the stored value. */
export const EntryAnswersDocument = v.strictObject({
  data: Entry,
  included: v.optional(v.array(FieldEntry)),
  meta: v.strictObject({ answers: v.record(v.string(), StoredAnswer) }),
});
export type EntryAnswersMeta = v.InferOutput<typeof EntryAnswersDocument>['meta'];

// PATCH /o-form-submission-page/{entryId} and /o-form-submission-page-preview/{pageId}: PageSavedMeta above.
export const PageSavedDocument = v.strictObject({ meta: PageSavedMeta });

const ErrorObject = v.strictObject({
  status: text,
  title: text,
  code: v.optional(text),
  detail: v.optional(text),
  source: v.optional(v.strictObject({ pointer: v.optional(text), parameter: v.optional(text) })),
  meta: v.optional(v.record(v.string(), v.unknown())),
});
/** Any refusal: a JSON:API error document. */
export const ErrorDocument = v.strictObject({ errors: v.array(ErrorObject), meta: v.optional(v.record(v.string(), v.unknown())) });

/** 422 for a page's answers: the problems by question identity in `meta`, and as pointed errors. */
export const AnswerProblemsDocument = v.strictObject({
  errors: v.array(ErrorObject),
  meta: v.strictObject({ success: v.literal(false), errors: v.record(v.string(), v.string()) }),
});
export type AnswerProblemsDocument = v.InferOutput<typeof AnswerProblemsDocument>;

// ---------------------------------------------------------------------------------------------
// Sanitization, qualification, page timing

export const SanitizedDocument = v.strictObject({ meta: v.strictObject({ isSanitizeSuccess: v.boolean() }) });
export type SanitizedMeta = v.InferOutput<typeof SanitizedDocument>['meta'];

export const QualificationMeta = v.strictObject({
  isQualified: v.boolean(),
  /** incomplete: the answers stored do not reach the survey's end (nothing after qualification may happen). */
  outcome: v.picklist(['qualified', 'notQualified', 'notActive', 'incomplete']),
  /** The engagements the participant qualified for. */
  engagementIds: v.array(text),
  messages: OutcomeMessages,
  /** ISO codes of the countries of the sites the participant may be offered, US first; only when one is outside the US. */
  siteCountries: v.optional(v.array(text)),
});
export type QualificationMeta = v.InferOutput<typeof QualificationMeta>;
export const QualificationDocument = v.strictObject({ meta: QualificationMeta });

export const PageMetric = resource(PAGE_METRIC_TYPE, {
  start: text,
  stop: maybeText,
  metricType: v.literal('page'),
  identity: text,
  oFormSubmissionId: v.number(),
});
export const PageMetricCreatedDocument = v.strictObject({ data: PageMetric });

// ---------------------------------------------------------------------------------------------
// After qualification: sites, contact fields, the contact

export const TrialSite = resource(TRIAL_SITE_TYPE, {
  name: text,
  address1: maybeText,
  address2: maybeText,
  city: maybeText,
  state: maybeText,
  zipCode: maybeText,
  distanceMiles: v.number(),
  /** The distance in the participant's unit: kilometres outside the few countries that use miles. */
  distance: v.optional(v.number()),
  distanceUnit: v.optional(v.picklist(['mi', 'km'])),
  engagementId: text,
});
export type TrialSiteAttributes = v.InferOutput<typeof TrialSite>['attributes'];
export const SitesDocument = v.strictObject({
  data: v.array(TrialSite),
  meta: v.strictObject({ outcome: v.picklist(['qualified', 'notQualified', 'notActive', 'noTrialSites']), messages: OutcomeMessages }),
});
export type SitesMeta = v.InferOutput<typeof SitesDocument>['meta'];

export const ParticipantContactField = resource(CONTACT_FIELD_TYPE, {
  name: text,
  label: text,
  fieldType: v.picklist(CONTACT_FIELD_TYPES),
  required: v.boolean(),
  translations: v.record(v.string(), v.string()),
});
export type ParticipantContactFieldAttributes = v.InferOutput<typeof ParticipantContactField>['attributes'];
export const ContactFieldsDocument = v.strictObject({
  data: v.array(ParticipantContactField),
  meta: v.strictObject({ outcome: v.literal('trialSiteSelected'), messages: OutcomeMessages }),
});
export type ContactFieldsMeta = v.InferOutput<typeof ContactFieldsDocument>['meta'];

export const ContactStoredDocument = v.strictObject({ meta: v.strictObject({ outcome: v.literal('completed'), messages: OutcomeMessages }) });
export type ContactStoredMeta = v.InferOutput<typeof ContactStoredDocument>['meta'];

// At notQualified, noTrialSites or notActive: the form of a lead (core/model/lead.ts)

export const LeadFieldsDocument = v.strictObject({
  data: v.array(ParticipantContactField),
  meta: v.strictObject({ outcome: v.picklist(LEAD_KINDS), messages: OutcomeMessages }),
});
export type LeadFieldsMeta = v.InferOutput<typeof LeadFieldsDocument>['meta'];
/** A lead kept: the outcome it was left at, the thanks to show (as messages), and nothing about any earlier lead. */
export const LeadKeptDocument = v.strictObject({
  meta: v.strictObject({ outcome: v.picklist(LEAD_KINDS), leadKept: v.literal(true), messages: OutcomeMessages }),
});
/** The admin preview's lead form as sent (POST /api/leads/preview): checked, nothing kept, the same thanks. */
export const LeadPreviewedDocument = v.strictObject({
  meta: v.strictObject({ outcome: v.picklist(LEAD_KINDS), leadKept: v.literal(false), messages: OutcomeMessages }),
});

// ---------------------------------------------------------------------------------------------
// GET /o-form-submission-outcome/{id}: a reloaded widget asks where its run stands

export const SubmissionOutcomeMeta = v.strictObject({
  /** The outcome stored: incomplete while the run has none yet. */
  outcome: Outcome,
  isQualified: v.nullable(v.boolean()),
  /** When the run reached its outcome (its answers became final), ISO; null before. */
  finishedAt: maybeText,
  /** The channel's retake window (0: retakes allowed, or no channel). */
  retakeWindowDays: v.number(),
  /** When the window ends, ISO; null without an outcome or a window. */
  retakeWindowEnds: maybeText,
  /** Show this outcome again rather than a fresh survey. */
  withinRetakeWindow: v.boolean(),
  messages: OutcomeMessages,
});
export type SubmissionOutcomeMeta = v.InferOutput<typeof SubmissionOutcomeMeta>;
export const SubmissionOutcomeDocument = v.strictObject({ meta: SubmissionOutcomeMeta });

// ---------------------------------------------------------------------------------------------
// GET /api/get-media-channel-for-transition-survey/{identity}/{fromChannelId}

export const TransitionChannel = resource(MEDIA_CHANNEL_TYPE, { screenerId: v.number(), oFormIdentity: text });
export const TransitionChannelDocument = v.strictObject({ data: TransitionChannel });

// ---------------------------------------------------------------------------------------------
// Every answer by name, as the transport asks for them

/** The success answer of each participant call, by the name the transport gives the call. */
export const PARTICIPANT_ANSWERS = {
  start: StartDocument,
  view: ViewCountedDocument,
  submission: v.union([SubmissionCreatedDocument, SubmissionRefusedDocument]),
  page: PageDocument,
  entry: EntryCreatedDocument,
  entryAnswers: EntryAnswersDocument,
  pageSaved: PageSavedDocument,
  sanitized: SanitizedDocument,
  qualification: QualificationDocument,
  outcome: SubmissionOutcomeDocument,
  metric: PageMetricCreatedDocument,
  sites: SitesDocument,
  contactFields: ContactFieldsDocument,
  contact: ContactStoredDocument,
  leadFields: LeadFieldsDocument,
  lead: LeadKeptDocument,
  transitionChannel: TransitionChannelDocument,
} as const;
export type ParticipantAnswerName = keyof typeof PARTICIPANT_ANSWERS;
export type ParticipantAnswer<K extends ParticipantAnswerName> = v.InferOutput<(typeof PARTICIPANT_ANSWERS)[K]>;
export type ErrorDocument = v.InferOutput<typeof ErrorDocument>;

/**
 * Throws when an answer (`status`, parsed `body`) is not what the contract declares for the call
 * `name`: its success document, a 422's problems, or an error document. The transport runs it
 * on every answer where a schema library costs nothing (tests, the admin's preview).
 */
export function checkParticipantAnswer(name: ParticipantAnswerName, status: number, body: unknown): void {
  const schema =
    status < 300 ? PARTICIPANT_ANSWERS[name] : name === 'pageSaved' && status === 422 ? v.union([AnswerProblemsDocument, ErrorDocument]) : ErrorDocument;
  const result = v.safeParse(schema, body);
  if (!result.success) {
    const where = result.issues.map((issue) => `${v.getDotPath(issue) ?? '(document)'}: ${issue.message}`).join('; ');
    throw new Error(`The ${name} answer (HTTP ${status}) breaks the participant contract: ${where}`);
  }
}
