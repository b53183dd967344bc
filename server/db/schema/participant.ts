/**
 * The participant runtime (server/participant/): submissions, page entries and answers, page
 * timing, contacts, and the version of what a start reads.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, jsonb, integer, pgTable, serial, text, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Utm } from '@core/model/partnerPage';
import { belongsTo, created, instant, modified, refersTo } from './columns';
import { mediaChannels } from './channels';
import { engagements } from './engagements';
import { languages } from './languages';
import { screeners } from './screeners';
import { engagementSiteLocations } from './sites';
import { oForms, oFormContainers, oFormFields } from './surveys';

export const oFormSubmissions = pgTable(
  'o_form_submissions',
  {
    id: serial('id').primaryKey(),
    oFormId: belongsTo('o_form_id', () => oForms.id),
    /** 'in_progress' at creation; 'completed' once the contact form (or the outcome) ends it. */
    status: text('status').notNull().default('in_progress'),
    mediaChannelId: refersTo('media_channel_id', () => mediaChannels.id),
    languageId: refersTo('language_id', () => languages.id),
    /** API iso code (en, es_MX) the participant runs in. */
    language: text('language').notNull().default('en'),
    /** The partner page as origin and path only: its query and fragment are never stored. */
    mediaChannelUrl: text('media_channel_url'),
    /** Campaign parameters (core/model/partnerPage.ts), from the page's address or sent on their own. */
    utm: jsonb('utm').$type<Utm>().notNull().default({}),
    /** The channel's declared hidden fields the page passed (core/participant/attribution.ts keepHiddenFields). */
    hiddenFields: jsonb('hidden_fields').$type<Record<string, string>>().notNull().default({}),
    /** SHA-256 of the access token handed out once in a response header; the token is never stored. */
    tokenHash: text('token_hash').notNull(),
    /** The outcome reached: incomplete, notActive, notQualified, noTrialSites, qualified, trialSiteSelected, completed. */
    outcome: text('outcome'),
    isQualified: boolean('is_qualified'),
    /**
     * When the qualification first found the complete path qualified or not qualified: from then
     * on the run's answers are final (no page is answered, added or sanitized again).
     */
    finishedAt: instant('finished_at'),
    /** When the participant first saved a page's answers: the funnel's `started` (server/funnel/stages.ts). */
    startedAt: instant('started_at'),
    completedAt: instant('completed_at'),
    /**
     * Keyed hash of the client address the run started from (HMAC-SHA256 under a key derived
     * from the contact match key, server/security/contactMatch.ts); the address itself is never stored.
     */
    clientMatch: text('client_match'),
    /** Started from the same client address and channel as a run finished within the channel's retake window. */
    possibleRetake: boolean('possible_retake').notNull().default(false),
    created: created(),
    modified: modified(),
  },
  (t) => [
    uniqueIndex('o_form_submissions_token_idx').on(t.tokenHash),
    index('o_form_submissions_client_match_idx').on(t.mediaChannelId, t.clientMatch, t.finishedAt).where(sql`${t.clientMatch} is not null`),
    index('o_form_submissions_form_idx').on(t.oFormId),
    index('o_form_submissions_channel_idx').on(t.mediaChannelId),
    // The funnel's date ranges and its day/week groupings (server/funnel/counts.ts).
    index('o_form_submissions_form_created_idx').on(t.oFormId, t.created),
    index('o_form_submissions_created_idx').on(t.created),
    check('o_form_submissions_status_check', sql`${t.status} in ('in_progress', 'completed', 'abandoned')`),
  ],
);

/** A page entry (parent) and its child entry, per visit of a page in a submission. */
export const oFormContainerEntries = pgTable(
  'o_form_container_entries',
  {
    id: serial('id').primaryKey(),
    submissionId: belongsTo('submission_id', () => oFormSubmissions.id),
    containerId: belongsTo('container_id', () => oFormContainers.id),
    parentId: integer('parent_id').references((): AnyPgColumn => oFormContainerEntries.id, { onDelete: 'cascade' }),
    /**
     * When the page's answers were last saved (valid); null until then and again once the page is
     * sanitized. A page whose questions are all optional or none is answered without answer rows,
     * so this, not the rows, says the participant went through it.
     */
    answeredAt: instant('answered_at'),
    created: created(),
  },
  (t) => [index('o_form_container_entries_submission_idx').on(t.submissionId), index('o_form_container_entries_parent_idx').on(t.parentId)],
);

/** One answer: the value a participant gave a question on one page entry. */
export const oFormFieldEntries = pgTable(
  'o_form_field_entries',
  {
    id: serial('id').primaryKey(),
    containerEntryId: belongsTo('container_entry_id', () => oFormContainerEntries.id),
    fieldId: belongsTo('field_id', () => oFormFields.id),
    /** A choice answer as sent (an option value or a list of them); null when the answer is sealed. */
    fieldValue: jsonb('field_value').$type<unknown>(),
    /** Any other answer, sealed (server/participant/sealedAnswers.ts): the PHI cipher's form of its JSON. */
    sealedValue: text('sealed_value'),
    created: created(),
  },
  (t) => [
    uniqueIndex('o_form_field_entries_pair_idx').on(t.containerEntryId, t.fieldId),
    check('o_form_field_entries_one_value_check', sql`${t.fieldValue} is null or ${t.sealedValue} is null`),
  ],
);

/** Page timing (SPEC: start, stop, type page, identity, o_form_submission_id). */
export const oFormPageMetrics = pgTable(
  'o_form_page_metrics',
  {
    id: serial('id').primaryKey(),
    submissionId: belongsTo('submission_id', () => oFormSubmissions.id),
    oFormId: belongsTo('o_form_id', () => oForms.id),
    type: text('type').notNull().default('page'),
    /** The page's (container's) identity. */
    identity: text('identity').notNull(),
    start: instant('start').notNull(),
    stop: instant('stop'),
    created: created(),
  },
  (t) => [index('o_form_page_metrics_form_idx').on(t.oFormId, t.identity), index('o_form_page_metrics_submission_idx').on(t.submissionId)],
);

/**
 * A qualified participant's contact details, stored before any push to the record system so a
 * contact is never lost. `values` holds the field values encrypted (server/security/phi.ts).
 */
export const contacts = pgTable(
  'contacts',
  {
    id: serial('id').primaryKey(),
    submissionId: refersTo('submission_id', () => oFormSubmissions.id),
    engagementId: belongsTo('engagement_id', () => engagements.id),
    engagementSiteLocationId: refersTo('engagement_site_location_id', () => engagementSiteLocations.id),
    screenerId: refersTo('screener_id', () => screeners.id),
    mediaChannelId: refersTo('media_channel_id', () => mediaChannels.id),
    language: text('language').notNull().default('en'),
    /** AES-256-GCM ciphertext of the JSON map of contact field name to value. */
    valuesCiphertext: text('values_ciphertext').notNull(),
    acceptTerms: boolean('accept_terms').notNull().default(false),
    consentedAt: instant('consented_at'),
    /** The consent exactly as shown (sanitized HTML, in `language`), its SHA-256 (hex), and the approved survey version answered. */
    consentText: text('consent_text'),
    consentTextSha256: text('consent_text_sha256'),
    consentSurveyId: refersTo('consent_survey_id', (): AnyPgColumn => oForms.id),
    consentSurveyVersion: integer('consent_survey_version'),
    /** The separate consent to be texted at the phone number given, as shown (its text, SHA-256 and instant); null when not given. */
    smsConsentText: text('sms_consent_text'),
    smsConsentTextSha256: text('sms_consent_text_sha256'),
    smsConsentedAt: instant('sms_consented_at'),
    /** Keyed hashes of the e-mail and phone given (security/contactMatch.ts), to find the same person again. */
    emailMatch: text('email_match'),
    phoneMatch: text('phone_match'),
    /** The same person's referral to this engagement within its window: this contact is kept but never sent. */
    duplicateOf: refersTo('duplicate_of', (): AnyPgColumn => contacts.id),
    created: created(),
  },
  (t) => [
    index('contacts_engagement_idx').on(t.engagementId),
    index('contacts_submission_idx').on(t.submissionId),
    index('contacts_email_match_idx').on(t.engagementId, t.emailMatch).where(sql`${t.emailMatch} is not null`),
    index('contacts_phone_match_idx').on(t.engagementId, t.phoneMatch).where(sql`${t.phoneMatch} is not null`),
    index('contacts_duplicate_of_idx').on(t.duplicateOf).where(sql`${t.duplicateOf} is not null`),
  ],
);

/**
 * One row: a number raised by every change to what a participant's start reads — survey
 * versions and the languages they offer, languages, media channels and the surveys they name,
 * screeners and theirs — by statement triggers on those tables (migration 0024). A process keeps
 * what a start read with the number it was read at, and a start writes only while the number is
 * unchanged (server/participant/startFacts.ts), so a kept read is never acted on once stale.
 */
export const participantSettingsVersion = pgTable(
  'participant_settings_version',
  {
    only: boolean('only').primaryKey().default(true),
    version: bigint('version', { mode: 'number' }).notNull().default(0),
  },
  (t) => [check('participant_settings_version_one_row', sql`${t.only}`)],
);
