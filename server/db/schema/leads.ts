/**
 * Leads and the sites they came within reach of (server/leads/).
 */
import { sql } from 'drizzle-orm';
import { check, doublePrecision, index, integer, pgTable, primaryKey, serial, text, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { belongsTo, created, instant, refersTo } from './columns';
import { mediaChannels } from './channels';
import { oFormSubmissions } from './participant';
import { screeners } from './screeners';
import { engagementSiteLocations } from './sites';
import { oForms } from './surveys';

/**
 * A lead: the contact a participant left at notQualified, noTrialSites or notActive, kept for
 * future contact (core/model/lead.ts). Sealed like a contact's values; never a referral.
 */
export const leads = pgTable(
  'leads',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    submissionId: refersTo('submission_id', () => oFormSubmissions.id),
    /** The run's engagements (a noTrialSites lead: those it qualified for); scope and site matches go by them. */
    engagementIds: integer('engagement_ids').array().notNull(),
    screenerId: refersTo('screener_id', () => screeners.id),
    mediaChannelId: refersTo('media_channel_id', () => mediaChannels.id),
    language: text('language').notNull().default('en'),
    /** AES-256-GCM ciphertexts: the JSON map of contact field name to value, and the ZIP searched from. */
    valuesCiphertext: text('values_ciphertext').notNull(),
    zipCiphertext: text('zip_ciphertext'),
    /** The ISO country the sealed ZIP is a postal code or town of, outside the US; null for a US ZIP code. */
    country: text('country'),
    nearestSiteMiles: doublePrecision('nearest_site_miles'),
    /** The consent exactly as shown (sanitized HTML, in `language`), its SHA-256 (hex), and the survey version answered. */
    consentedAt: instant('consented_at').notNull(),
    consentText: text('consent_text').notNull(),
    consentTextSha256: text('consent_text_sha256').notNull(),
    surveyId: refersTo('survey_id', (): AnyPgColumn => oForms.id),
    surveyVersion: integer('survey_version'),
    /** Keyed hashes of the e-mail and phone given (security/contactMatch.ts), the same as contacts'. */
    emailMatch: text('email_match'),
    phoneMatch: text('phone_match'),
    duplicateOf: refersTo('duplicate_of', (): AnyPgColumn => leads.id),
    created: created(),
  },
  (t) => [
    // One lead per run: a second request for the same run is refused.
    uniqueIndex('leads_submission_idx').on(t.submissionId).where(sql`${t.submissionId} is not null`),
    index('leads_created_idx').on(t.created),
    index('leads_engagements_idx').using('gin', t.engagementIds),
    index('leads_email_match_idx').on(t.emailMatch).where(sql`${t.emailMatch} is not null`),
    index('leads_phone_match_idx').on(t.phoneMatch).where(sql`${t.phoneMatch} is not null`),
    check('leads_kind_check', sql`${t.kind} in ('notQualified', 'noTrialSites', 'notActive')`),
  ],
);

/** A noTrialSites lead within the radius of a site that became offerable for one of its engagements. */
export const leadSiteMatches = pgTable(
  'lead_site_matches',
  {
    leadId: belongsTo('lead_id', () => leads.id),
    engagementSiteLocationId: belongsTo('engagement_site_location_id', () => engagementSiteLocations.id),
    distanceMiles: doublePrecision('distance_miles').notNull(),
    created: created(),
  },
  (t) => [primaryKey({ columns: [t.leadId, t.engagementSiteLocationId] }), index('lead_site_matches_link_idx').on(t.engagementSiteLocationId)],
);
