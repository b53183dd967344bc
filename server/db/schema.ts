/**
 * The database schema (PostgreSQL dialect, run on PGlite or PostgreSQL). Migrations in
 * ./migrations are generated from this file with `npm run db:generate` and committed.
 */
import type { EventsPolicy } from '@core/participant/hostEvents';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  jsonb,
  numeric,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import type { Utm } from '@core/participant/attribution';
import type { ChannelIsolation, HiddenField } from '@core/model/mediaChannel';

const created = () => timestamp('created', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const modified = () => timestamp('modified', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
/**
 * An index key in the natural_sort collation (migration 0011), so the lists' name sorts
 * (server/http/sql.ts orderBy) are index ranges, not sorts of every row.
 */
const natural = (column: AnyPgColumn) => sql`${column} collate natural_sort`;

/** Small key-value facts about this installation (e.g. that demo data was seeded once). */
export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export const roles = pgTable('roles', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
});

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    email: text('email'),
    passwordHash: text('password_hash'),
    isActive: boolean('is_active').notNull().default(true),
    locale: text('locale').notNull().default('en'),
    totpSecret: text('totp_secret'),
    secretVerified: boolean('secret_verified').notNull().default(false),
    // The time step of the last accepted code, so a code is accepted once.
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    identityProvider: text('identity_provider'),
    created: created(),
    modified: modified(),
  },
  (t) => [
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
  ],
);

export const userRoles = pgTable(
  'user_roles',
  {
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    roleId: integer('role_id').notNull().references(() => roles.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] })],
);

export const countries = pgTable('countries', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  isoCode: text('iso_code').notNull().unique(),
});

export const sponsors = pgTable(
  'sponsors',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    identification: text('identification').notNull(),
    rmsSponsorIdentifier: text('rms_sponsor_identifier'),
    description: text('description'),
    isActive: boolean('is_active').notNull().default(true),
    businessPractice: text('business_practice'),
    countryId: integer('country_id').references(() => countries.id, { onDelete: 'set null' }),
    created: created(),
    modified: modified(),
  },
  (t) => [
    uniqueIndex('sponsors_identification_idx').on(t.identification),
    // In the list's own order (active first, then by name, id as the tiebreak): a page deep in
    // the list is an index range, not a sort of every row (bench/README.md, admin lists).
    index('sponsors_active_name_idx').on(t.isActive.desc().nullsFirst(), natural(t.name), t.id),
    index('sponsors_name_idx').on(natural(t.name)),
  ],
);

export const userSponsors = pgTable(
  'user_sponsors',
  {
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    sponsorId: integer('sponsor_id').notNull().references(() => sponsors.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.sponsorId] }), index('user_sponsors_sponsor_idx').on(t.sponsorId)],
);

/** The site locations a Site Coordinator works the referrals of. */
export const userSiteLocations = pgTable(
  'user_site_locations',
  {
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    siteLocationId: integer('site_location_id').notNull().references((): AnyPgColumn => siteLocations.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.siteLocationId] }), index('user_site_locations_site_idx').on(t.siteLocationId)],
);

/**
 * Refresh tokens are stored as SHA-256 hashes. Each sign-in starts a family; rotating marks the
 * old token used, and presenting a used token revokes the whole family (theft detection).
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    familyId: text('family_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    created: created(),
  },
  (t) => [index('refresh_tokens_family_idx').on(t.familyId), index('refresh_tokens_user_idx').on(t.userId)],
);

/** Every sign-in attempt, for the lockout rule (counters live here, not in process memory). */
export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    succeeded: boolean('succeeded').notNull(),
    clientAddress: text('client_address'),
    created: created(),
  },
  (t) => [index('login_attempts_username_created_idx').on(t.username, t.created)],
);

// ---------------------------------------------------------------------------------------------
// Lookups (SPEC sections 3 and 7). Seeded by migration so a new install is usable.

const lookup = (name: string) =>
  pgTable(name, {
    id: serial('id').primaryKey(),
    name: text('name').notNull().unique(),
  });

export const campaignTypes = lookup('campaign_types');
export const questionCategories = lookup('question_categories');
export const targetGroups = lookup('target_groups');
export const therapeuticAreas = lookup('therapeutic_areas');
/**
 * A record system that receives qualified participants' contacts. `kind` picks the provider
 * implementation (server/rms/): 'none' only records, 'webhook' POSTs signed JSON to `endpointUrl`.
 */
export const rmsProviders = pgTable(
  'rms_providers',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull().unique(),
    /** none (record only), webhook (Standard Webhooks) or fhir (FHIR R4 transaction Bundle). */
    kind: text('kind').notNull().default('none'),
    endpointUrl: text('endpoint_url'),
    /** The Standard Webhooks secret (whsec_…), sealed with the PHI key (security/phi.ts). */
    signingSecret: text('signing_secret'),
    /** A FHIR server's bearer token, sealed like the secret. */
    bearerToken: text('bearer_token'),
    timeoutMs: integer('timeout_ms').notNull().default(5000),
    /** An inactive provider's deliveries wait (nothing is sent) until it is active again. */
    isActive: boolean('is_active').notNull().default(true),
    created: created(),
    modified: modified(),
  },
  (t) => [check('rms_providers_kind_check', sql`${t.kind} in ('none', 'webhook', 'fhir')`)],
);
export const tags = lookup('tags');

export const indications = pgTable('indications', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  isActive: boolean('is_active').notNull().default(true),
});

// ---------------------------------------------------------------------------------------------
// Engagements (studies) and their sites.

export const engagements = pgTable(
  'engagements',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description'),
    // Restrict: a sponsor with engagements cannot be deleted (no orphans).
    sponsorId: integer('sponsor_id').notNull().references(() => sponsors.id, { onDelete: 'restrict' }),
    sponsorContact: text('sponsor_contact'),
    startDate: date('start_date', { mode: 'string' }),
    endDate: date('end_date', { mode: 'string' }),
    isActive: boolean('is_active').notNull().default(true),
    radius: integer('radius').notNull().default(25),
    mediaLiveDate: date('media_live_date', { mode: 'string' }),
    mediaEndDate: date('media_end_date', { mode: 'string' }),
    g6Url: text('g6_url'),
    protocolIdentifier: text('protocol_identifier'),
    studySubjectIdentifier: text('study_subject_identifier'),
    protocolVersion: text('protocol_version'),
    phase: text('phase'),
    amendmentDate: date('amendment_date', { mode: 'string' }),
    firstPatientInDate: date('first_patient_in_date', { mode: 'string' }),
    lastPatientInDate: date('last_patient_in_date', { mode: 'string' }),
    rareDisease: boolean('rare_disease').notNull().default(false),
    cellGeneTherapy: boolean('cell_gene_therapy').notNull().default(false),
    deiFocus: boolean('dei_focus').notNull().default(false),
    deiTarget: numeric('dei_target', { mode: 'number' }),
    identification: text('identification').notNull(),
    targetParticipantCount: integer('target_participant_count'),
    /** What the target counts: 'referrals' (made) or 'randomized' (referrals that reached randomization). */
    targetMeasure: text('target_measure').notNull().default('referrals'),
    rmsProviderId: integer('rms_provider_id').references(() => rmsProviders.id, { onDelete: 'set null' }),
    rmsSponsorIdentifier: text('rms_sponsor_identifier'),
    /** The same person referred again within this many days is a duplicate, not sent again (0: never). */
    duplicateWindowDays: integer('duplicate_window_days').notNull().default(90),
    /** Service level: a new referral's first contact is due within this many hours. */
    firstContactHours: integer('first_contact_hours').notNull().default(48),
    /** Service level: an open referral with no update for this many days is stale. */
    staleDays: integer('stale_days').notNull().default(7),
    /** The staff member answerable for the engagement (overdue messages reach them); its creator at first. */
    ownerUserId: integer('owner_user_id').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    created: created(),
    modified: modified(),
  },
  (t) => [
    uniqueIndex('engagements_identification_idx').on(t.identification),
    index('engagements_sponsor_idx').on(t.sponsorId, t.isActive),
    index('engagements_default_sort_idx').on(t.isActive.desc().nullsFirst(), t.endDate, natural(t.name), t.id),
    index('engagements_name_idx').on(natural(t.name), t.id),
    check('engagements_phase_check', sql`${t.phase} is null or ${t.phase} in ('I', 'II', 'III', 'IV', 'N/A')`),
    check('engagements_duplicate_window_check', sql`${t.duplicateWindowDays} between 0 and 3650`),
    check('engagements_target_measure_check', sql`${t.targetMeasure} in ('referrals', 'randomized')`),
  ],
);

const engagementLink = (name: string, column: string, target: ReturnType<typeof lookup> | typeof indications) =>
  pgTable(
    name,
    {
      engagementId: integer('engagement_id').notNull().references(() => engagements.id, { onDelete: 'cascade' }),
      targetId: integer(column).notNull().references(() => target.id, { onDelete: 'cascade' }),
    },
    (t) => [primaryKey({ columns: [t.engagementId, t.targetId] }), index(`${name}_target_idx`).on(t.targetId)],
  );

export const engagementCampaignTypes = engagementLink('engagement_campaign_types', 'campaign_type_id', campaignTypes);
export const engagementIndications = engagementLink('engagement_indications', 'indication_id', indications);
export const engagementTargetGroups = engagementLink('engagement_target_groups', 'target_group_id', targetGroups);
export const engagementTherapeuticAreas = engagementLink('engagement_therapeutic_areas', 'therapeutic_area_id', therapeuticAreas);

/** Files attached to an engagement; the bytes live in storage under `storageKey`. */
export const engagementFiles = pgTable(
  'engagement_files',
  {
    id: serial('id').primaryKey(),
    engagementId: integer('engagement_id').notNull().references(() => engagements.id, { onDelete: 'cascade' }),
    filename: text('filename').notNull(),
    mime: text('mime').notNull(),
    size: integer('size').notNull(),
    storageKey: text('storage_key').notNull().unique(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    created: created(),
  },
  (t) => [index('engagement_files_engagement_idx').on(t.engagementId)],
);

export const siteLocations = pgTable(
  'site_locations',
  {
    id: serial('id').primaryKey(),
    siteId: text('site_id'),
    name: text('name').notNull(),
    description: text('description'),
    countryId: integer('country_id').references(() => countries.id, { onDelete: 'set null' }),
    streetAddress: text('street_address'),
    unitNumber: text('unit_number'),
    city: text('city'),
    state: text('state'),
    zipCode: text('zip_code'),
    isActive: boolean('is_active').notNull().default(true),
    isVirtual: boolean('is_virtual').notNull().default(false),
    piName: text('pi_name'),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    siteLocationType: text('site_location_type'),
    irbType: text('irb_type'),
    created: created(),
    modified: modified(),
  },
  (t) => [
    uniqueIndex('site_locations_site_id_idx').on(t.siteId),
    index('site_locations_default_sort_idx').on(t.isActive.desc().nullsFirst(), natural(t.name), t.id),
    index('site_locations_city_idx').on(t.city, t.id),
    check(
      'site_locations_type_check',
      sql`${t.siteLocationType} is null or ${t.siteLocationType} in ('academic_hospital', 'clinical_research_center', 'neurology_disease_center')`,
    ),
    check('site_locations_irb_check', sql`${t.irbType} is null or ${t.irbType} in ('local', 'single')`),
  ],
);

export const engagementSiteLocations = pgTable(
  'engagement_site_locations',
  {
    id: serial('id').primaryKey(),
    engagementId: integer('engagement_id').notNull().references(() => engagements.id, { onDelete: 'cascade' }),
    siteLocationId: integer('site_location_id').notNull().references(() => siteLocations.id, { onDelete: 'cascade' }),
    radius: integer('radius'),
    rmsSiteIdentification: text('rms_site_identification'),
    isActive: boolean('is_active').notNull().default(true),
    /** Referrals the site takes per week (Monday 00:00 UTC on), null: no weekly cap. */
    weeklyCap: integer('weekly_cap'),
    /** Referrals the site takes in all, null: no total cap. */
    totalCap: integer('total_cap'),
    /** Paused by hand: not offered, kept linked. */
    isPaused: boolean('is_paused').notNull().default(false),
    created: created(),
    modified: modified(),
  },
  (t) => [
    uniqueIndex('engagement_site_locations_pair_idx').on(t.engagementId, t.siteLocationId),
    index('engagement_site_locations_site_idx').on(t.siteLocationId),
    check('engagement_site_locations_caps_check', sql`(${t.weeklyCap} is null or ${t.weeklyCap} >= 0) and (${t.totalCap} is null or ${t.totalCap} >= 0)`),
  ],
);

/**
 * A qualified participant referred to an engagement (created by the participant runtime), then
 * worked up its status ladder (core/model/referral.ts) by staff and record systems. is_screened
 * and is_randomized are the milestones the ladder reached, kept when a referral later withdraws.
 */
export const referrals = pgTable(
  'referrals',
  {
    id: serial('id').primaryKey(),
    engagementId: integer('engagement_id').notNull().references(() => engagements.id, { onDelete: 'cascade' }),
    engagementSiteLocationId: integer('engagement_site_location_id').references(() => engagementSiteLocations.id, {
      onDelete: 'set null',
    }),
    isScreened: boolean('is_screened').notNull().default(false),
    isRandomized: boolean('is_randomized').notNull().default(false),
    /** The participant contact this referral counts (null for referrals recorded before contacts). */
    contactId: integer('contact_id').references((): AnyPgColumn => contacts.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('new'),
    reasonId: integer('reason_id').references((): AnyPgColumn => referralReasons.id, { onDelete: 'restrict' }),
    /** Sealed (security/phi.ts): staff may write what a participant told them. */
    reasonNoteCiphertext: text('reason_note_ciphertext'),
    /** The last change of status (null: never changed since the referral was made). */
    statusChanged: timestamp('status_changed', { withTimezone: true, mode: 'date' }),
    /** When the site first reached the person (a reached attempt or a status of contacted or beyond). */
    firstContactAt: timestamp('first_contact_at', { withTimezone: true, mode: 'date' }),
    attempts: integer('attempts').notNull().default(0),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true, mode: 'date' }),
    nextAttemptDue: timestamp('next_attempt_due', { withTimezone: true, mode: 'date' }),
    created: created(),
  },
  (t) => [
    index('referrals_engagement_idx').on(t.engagementId, t.created),
    uniqueIndex('referrals_contact_idx').on(t.contactId),
    index('referrals_site_status_idx').on(t.engagementSiteLocationId, t.status),
    check(
      'referrals_status_check',
      sql`${t.status} in ('new', 'attempting-contact', 'contacted', 'scheduled', 'in-screening', 'screen-failed', 'eligible', 'enrolled', 'withdrawn', 'not-reachable')`,
    ),
  ],
);

/** Why referrals close at screen-failed, withdrawn or not-reachable: a list staff keep. */
export const referralReasons = pgTable(
  'referral_reasons',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    status: text('status').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    created: created(),
  },
  (t) => [uniqueIndex('referral_reasons_name_idx').on(t.status, sql`lower(${t.name})`)],
);

/**
 * A referral's history: every change of status (who or which record system, when, from, to,
 * why) and every contact attempt, in the order they happened; the referral's timeline.
 */
export const referralEvents = pgTable(
  'referral_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    referralId: integer('referral_id').notNull().references(() => referrals.id, { onDelete: 'cascade' }),
    occurredAt: timestamp('occurred_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** 'status' or 'attempt'. */
    kind: text('kind').notNull(),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The staff username or the record system's name, kept as it was. */
    actorName: text('actor_name').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status'),
    reasonId: integer('reason_id').references(() => referralReasons.id, { onDelete: 'set null' }),
    channel: text('channel'),
    result: text('result'),
    /** Sealed like the referral's reason note. */
    noteCiphertext: text('note_ciphertext'),
  },
  (t) => [index('referral_events_referral_idx').on(t.referralId, t.occurredAt)],
);

// ---------------------------------------------------------------------------------------------
// System configuration.

export const languages = pgTable(
  'languages',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    // API form, with an underscore: es_MX.
    isoCode: text('iso_code').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    // The default language (English) cannot be deleted or deactivated.
    isDefault: boolean('is_default').notNull().default(false),
    created: created(),
    modified: modified(),
  },
  (t) => [uniqueIndex('languages_iso_code_idx').on(sql`lower(${t.isoCode})`)],
);

/** Messages keyed by name, with translations as a map of API iso code to text. */
export const genericMessages = pgTable(
  'generic_messages',
  {
    id: serial('id').primaryKey(),
    keyName: text('key_name').notNull().unique(),
    message: text('message').notNull(),
    translations: jsonb('translations').$type<Record<string, string>>().notNull().default({}),
    messageType: text('message_type').notNull().default('default'),
    created: created(),
    modified: modified(),
  },
  (t) => [check('generic_messages_type_check', sql`${t.messageType} in ('default', 'global')`)],
);

export const contactFields = pgTable(
  'contact_fields',
  {
    id: serial('id').primaryKey(),
    label: text('label').notNull(),
    // A stable machine name (first_name), unique.
    name: text('name').notNull().unique(),
    required: boolean('required').notNull().default(false),
    fieldType: text('type').notNull().default('text'),
    translations: jsonb('translations').$type<Record<string, string>>().notNull().default({}),
    created: created(),
    modified: modified(),
  },
  (t) => [
    index('contact_fields_label_idx').on(natural(t.label)),
    check('contact_fields_type_check', sql`${t.fieldType} in ('text', 'email', 'phone', 'zip', 'date', 'checkbox')`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Single sign-on (SAML), audit trail and abuse limits.

/** AuthnRequests we sent, so a response's InResponseTo must name one of ours (and only once). */
export const ssoRequests = pgTable('sso_requests', {
  id: text('id').primaryKey(),
  service: text('service').notNull(),
  created: created(),
});

/** Assertion ids already accepted: each assertion signs in once (replay protection). */
export const ssoAssertions = pgTable('sso_assertions', {
  id: text('id').primaryKey(),
  service: text('service').notNull(),
  created: created(),
});

/**
 * The short-lived proof, kept in an httpOnly cookie, that a browser just came back from the
 * identity provider; the login call exchanges it once for the usual tokens.
 */
export const ssoHandoffs = pgTable('sso_handoffs', {
  tokenHash: text('token_hash').primaryKey(),
  userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  service: text('service').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  created: created(),
});

/**
 * Append-only audit trail (21 CFR Part 11): who did what to which record, when, from where,
 * with old and new values. Each row carries the hash of the previous one, so a changed or
 * removed row breaks the chain.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    occurredAt: timestamp('occurred_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    actorUserId: integer('actor_user_id'),
    actorUsername: text('actor_username'),
    clientAddress: text('client_address'),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    action: text('action').notNull(),
    changes: jsonb('changes').$type<Record<string, { old: unknown; new: unknown }>>().notNull().default({}),
    meta: jsonb('meta').$type<Record<string, unknown>>().notNull().default({}),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [
    index('audit_events_entity_idx').on(t.entity, t.entityId),
    index('audit_events_actor_idx').on(t.actorUserId),
    index('audit_events_occurred_idx').on(t.occurredAt),
  ],
);

/** Fixed-window request counters shared by every server process. */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true, mode: 'date' }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);

/**
 * The signed record-system callbacks already applied, by the contact they were for and their
 * `webhook-id` (Standard Webhooks' idempotency key): a replay within the signature's tolerance
 * changes nothing. Kept a little longer than that tolerance, after which a replay's signature
 * is refused anyway.
 */
export const rmsCallbackMessages = pgTable(
  'rms_callback_messages',
  {
    contactId: integer('contact_id').notNull(),
    webhookId: text('webhook_id').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.contactId, t.webhookId] }), index('rms_callback_messages_received_at_idx').on(t.receivedAt)],
);

// ---------------------------------------------------------------------------------------------
// Screeners, their styles, messages, languages, contact fields and engagements.

export const screeners = pgTable(
  'screeners',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    description: text('description'),
    sponsorId: integer('sponsor_id').notNull().references(() => sponsors.id, { onDelete: 'restrict' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    screenerType: text('type').notNull().default('super-screener'),
    isActive: boolean('is_active').notNull().default(true),
    isLocked: boolean('is_locked').notNull().default(false),
    isTest: boolean('is_test').notNull().default(false),
    isInterestVisible: boolean('is_interest_visible').notNull().default(false),
    /** Per API iso code: { title, description }. */
    translations: jsonb('translations').$type<Record<string, { title?: string; description?: string }>>().notNull().default({}),
    /** Every colour of SPEC section 3, validated with core/model's screener styles schema. */
    styles: jsonb('styles').$type<Record<string, unknown>>().notNull().default({}),
    /** Set on a clone: the screener it was copied from. */
    clonedFromId: integer('cloned_from_id').references((): AnyPgColumn => screeners.id, { onDelete: 'set null' }),
    created: created(),
    modified: modified(),
  },
  (t) => [
    index('screeners_default_sort_idx').on(t.isActive.desc().nullsFirst(), natural(t.title), t.id),
    // The media channels list sorted by screener name walks screeners in this order.
    index('screeners_title_idx').on(natural(t.title), t.id),
    index('screeners_sponsor_idx').on(t.sponsorId),
  ],
);

/** The consent and contact-form message of each outcome, translatable. */
export const screenerMessages = pgTable(
  'screener_messages',
  {
    id: serial('id').primaryKey(),
    screenerId: integer('screener_id').notNull().references(() => screeners.id, { onDelete: 'cascade' }),
    outcome: text('outcome').notNull(),
    consentMessage: text('consent_message'),
    contactFormMessage: text('contact_form_message'),
    /** Per API iso code: { consentMessage, contactFormMessage }. */
    translations: jsonb('translations').$type<Record<string, { consentMessage?: string; contactFormMessage?: string }>>().notNull().default({}),
  },
  (t) => [
    uniqueIndex('screener_messages_outcome_idx').on(t.screenerId, t.outcome),
    check(
      'screener_messages_outcome_check',
      sql`${t.outcome} in ('acceptance', 'notActive', 'notQualified', 'noTrialSites', 'qualified', 'trialSiteSelected', 'completed')`,
    ),
  ],
);

export const screenerLanguages = pgTable(
  'screener_languages',
  {
    screenerId: integer('screener_id').notNull().references(() => screeners.id, { onDelete: 'cascade' }),
    languageId: integer('language_id').notNull().references(() => languages.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.screenerId, t.languageId] })],
);

export const engagementScreeners = pgTable(
  'engagement_screeners',
  {
    screenerId: integer('screener_id').notNull().references(() => screeners.id, { onDelete: 'cascade' }),
    engagementId: integer('engagement_id').notNull().references(() => engagements.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.screenerId, t.engagementId] }), index('engagement_screeners_engagement_idx').on(t.engagementId)],
);

export const contactFieldScreeners = pgTable(
  'contact_field_screeners',
  {
    id: serial('id').primaryKey(),
    screenerId: integer('screener_id').notNull().references(() => screeners.id, { onDelete: 'cascade' }),
    contactFieldId: integer('contact_field_id').notNull().references(() => contactFields.id, { onDelete: 'cascade' }),
    weight: integer('weight').notNull().default(0),
  },
  (t) => [uniqueIndex('contact_field_screeners_pair_idx').on(t.screenerId, t.contactFieldId)],
);

/** A screener's surveys, by the stable identity of a versioned survey (oForm). */
export const screenerSurveys = pgTable(
  'screener_surveys',
  {
    id: serial('id').primaryKey(),
    screenerId: integer('screener_id').notNull().references(() => screeners.id, { onDelete: 'cascade' }),
    oFormIdentity: text('o_form_identity').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    displayOrder: integer('display_order').notNull().default(0),
    created: created(),
  },
  (t) => [uniqueIndex('screener_surveys_pair_idx').on(t.screenerId, t.oFormIdentity)],
);

// ---------------------------------------------------------------------------------------------
// Media channels: where a screener is embedded.

export const mediaChannels = pgTable(
  'media_channels',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    domain: text('domain').notNull(),
    screenerId: integer('screener_id').notNull().references(() => screeners.id, { onDelete: 'restrict' }),
    channelType: text('type').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    /**
     * Days after a run's outcome during which the same browser sees that outcome again rather
     * than a fresh survey, and a run from the same client address is flagged possible_retake;
     * 0 allows retakes (testing channels).
     */
    retakeWindowDays: integer('retake_window_days').notNull().default(30),
    /** The values a partner's page may pass with a run (core/model/mediaChannel.ts HiddenField). */
    hiddenFields: jsonb('hidden_fields').$type<HiddenField[]>().notNull().default([]),
    /** What the widget announces to its host page (core/participant/hostEvents.ts): none, minimal or detailed. */
    eventsPolicy: text('events_policy').$type<EventsPolicy>().notNull().default('minimal'),
    /** Its participants' language and region (core/model/channelLocale.ts): distances in miles or kilometres by the region. */
    locale: text('locale').notNull().default('en-US'),
    /** How the snippet shows the widget (core/model/mediaChannel.ts CHANNEL_ISOLATIONS): none (in the page) or frame (an iframe of this origin). */
    isolation: text('isolation').$type<ChannelIsolation>().notNull().default('none'),
    created: created(),
    modified: modified(),
  },
  (t) => [
    index('media_channels_title_idx').on(natural(t.title), t.id),
    check('media_channels_events_policy_check', sql`${t.eventsPolicy} in ('none', 'minimal', 'detailed')`),
    check('media_channels_isolation_check', sql`${t.isolation} in ('none', 'frame')`),
    index('media_channels_screener_idx').on(t.screenerId),
    check('media_channels_type_check', sql`${t.channelType} in ('Spectrum Website', 'Partner Website', 'Social Media', 'Other')`),
    check('media_channels_retake_window_check', sql`${t.retakeWindowDays} between 0 and 3650`),
  ],
);

/**
 * What a media channel cost over a period of whole days (core/model/channelSpend.ts), optionally
 * for one utm_campaign; the funnel prorates it over the days a range overlaps (funnel/costs.ts).
 */
export const channelSpends = pgTable(
  'channel_spends',
  {
    id: serial('id').primaryKey(),
    mediaChannelId: integer('media_channel_id').notNull().references(() => mediaChannels.id, { onDelete: 'cascade' }),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    periodStart: date('period_start', { mode: 'string' }).notNull(),
    periodEnd: date('period_end', { mode: 'string' }).notNull(),
    campaign: text('campaign'),
    created: created(),
    modified: modified(),
  },
  (t) => [
    index('channel_spends_channel_idx').on(t.mediaChannelId, t.periodStart),
    check('channel_spends_period_check', sql`${t.periodStart} <= ${t.periodEnd}`),
    check('channel_spends_amount_check', sql`${t.amountMinor} >= 0`),
    check('channel_spends_currency_check', sql`${t.currency} ~ '^[A-Z]{3}$'`),
  ],
);

/**
 * A channel's figures (views, shares, submissions started, completed, qualified), counted in
 * several rows per channel: every participant's start adds to them, and one row per channel
 * would make every start wait for the previous one's commit. A count goes to one shard picked at
 * random; a channel's figure is the sum of its shards (server/participant/channelFigures.ts).
 */
export const mediaChannelFigures = pgTable(
  'media_channel_figures',
  {
    mediaChannelId: integer('media_channel_id').notNull().references(() => mediaChannels.id, { onDelete: 'cascade' }),
    shard: smallint('shard').notNull(),
    views: integer('views').notNull().default(0),
    share: integer('share').notNull().default(0),
    submissionsStarted: integer('submissions_started').notNull().default(0),
    submissionsCompleted: integer('submissions_completed').notNull().default(0),
    submissionsQualified: integer('submissions_qualified').notNull().default(0),
    possibleRetakes: integer('possible_retakes').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.mediaChannelId, t.shard] })],
);

/**
 * Embed problems seen on partner pages (core/participant/embedProblems.ts): one row per channel,
 * page origin and cause, counted and dated as they recur; at most EMBED_PROBLEMS_KEPT per channel
 * (the most recently seen). The origin is scheme, host and port only: no page address, query or
 * anything about the participant.
 */
export const embedProblems = pgTable(
  'embed_problems',
  {
    mediaChannelId: integer('media_channel_id').notNull().references(() => mediaChannels.id, { onDelete: 'cascade' }),
    origin: text('origin').notNull(),
    cause: text('cause').notNull(),
    firstSeen: timestamp('first_seen', { withTimezone: true, mode: 'date' }).notNull(),
    lastSeen: timestamp('last_seen', { withTimezone: true, mode: 'date' }).notNull(),
    count: integer('count').notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.mediaChannelId, t.origin, t.cause] }), index('embed_problems_last_seen_idx').on(t.mediaChannelId, t.lastSeen)],
);

/** The survey identities a media channel serves (SPEC section 3: link id and isActive). */
export const mediaChannelSurveys = pgTable(
  'media_channel_surveys',
  {
    id: serial('id').primaryKey(),
    mediaChannelId: integer('media_channel_id').notNull().references(() => mediaChannels.id, { onDelete: 'cascade' }),
    oFormIdentity: text('o_form_identity').notNull(),
    isActive: boolean('is_active').notNull().default(true),
  },
  (t) => [uniqueIndex('media_channel_surveys_pair_idx').on(t.mediaChannelId, t.oFormIdentity), index('media_channel_surveys_identity_idx').on(t.oFormIdentity)],
);

// ---------------------------------------------------------------------------------------------
// Legacy surveys (/surveys): pages, questions and options, with soft deletes.

export const surveys = pgTable(
  'surveys',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    globalId: text('global_id').notNull().unique(),
    isActive: boolean('is_active').notNull().default(true),
    engagementId: integer('engagement_id').references(() => engagements.id, { onDelete: 'cascade' }),
    screenerId: integer('screener_id').references(() => screeners.id, { onDelete: 'set null' }),
    /** Raised by adding a page and lowered by deleting one (SPEC section 4); names 'New Page N'. */
    pageCounter: integer('page_counter').notNull().default(0),
    created: created(),
    modified: modified(),
  },
  (t) => [index('surveys_engagement_idx').on(t.engagementId), index('surveys_screener_idx').on(t.screenerId)],
);

export const surveyPages = pgTable(
  'survey_pages',
  {
    id: serial('id').primaryKey(),
    surveyId: integer('survey_id').notNull().references(() => surveys.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    displayOrder: integer('display_order').notNull().default(0),
    isActive: boolean('is_active').notNull().default(true),
    isDeleted: boolean('is_deleted').notNull().default(false),
  },
  (t) => [index('survey_pages_survey_idx').on(t.surveyId, t.displayOrder)],
);

export const surveyQuestions = pgTable(
  'survey_questions',
  {
    id: serial('id').primaryKey(),
    pageId: integer('page_id').notNull().references(() => surveyPages.id, { onDelete: 'cascade' }),
    questionType: text('type').notNull().default('placeholder'),
    title: text('title').notNull().default('Placeholder'),
    helperText: text('helper_text'),
    questionCategoryId: integer('question_category_id').references(() => questionCategories.id, { onDelete: 'set null' }),
    translations: jsonb('translations').$type<Record<string, { title?: string; helperText?: string }>>().notNull().default({}),
    displayOrder: integer('display_order').notNull().default(0),
    deleted: boolean('deleted').notNull().default(false),
  },
  (t) => [index('survey_questions_page_idx').on(t.pageId, t.displayOrder)],
);

export const surveyQuestionTags = pgTable(
  'survey_question_tags',
  {
    questionId: integer('question_id').notNull().references(() => surveyQuestions.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id').notNull().references(() => tags.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.questionId, t.tagId] })],
);

export const surveyOptions = pgTable(
  'survey_options',
  {
    id: serial('id').primaryKey(),
    questionId: integer('question_id').notNull().references(() => surveyQuestions.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    value: text('value').notNull(),
    isDisqualified: boolean('is_disqualified').notNull().default(false),
    /** 'end' or 'page' (then transitionTarget is the page id), or null for the next page. */
    transitionTo: text('transition_to'),
    transitionTarget: integer('transition_target').references(() => surveyPages.id, { onDelete: 'set null' }),
    translations: jsonb('translations').$type<Record<string, string>>().notNull().default({}),
    displayOrder: integer('display_order').notNull().default(0),
    deleted: boolean('deleted').notNull().default(false),
  },
  (t) => [
    index('survey_options_question_idx').on(t.questionId, t.displayOrder),
    check('survey_options_transition_check', sql`${t.transitionTo} is null or ${t.transitionTo} in ('end', 'page')`),
  ],
);

/** An option's disqualification and weight for one engagement. */
export const engagementOptions = pgTable(
  'engagement_options',
  {
    id: serial('id').primaryKey(),
    engagementId: integer('engagement_id').notNull().references(() => engagements.id, { onDelete: 'cascade' }),
    optionId: integer('option_id').notNull().references(() => surveyOptions.id, { onDelete: 'cascade' }),
    isDisqualified: boolean('is_disqualified').notNull().default(false),
    weight: integer('weight').notNull().default(0),
  },
  (t) => [uniqueIndex('engagement_options_pair_idx').on(t.engagementId, t.optionId)],
);

// ---------------------------------------------------------------------------------------------
// Versioned surveys (oForms): one row per version of a survey identity, with pages
// (root containers), child containers and questions (fields) whose rules live in
// core/model/oform.ts and core/oform/authoring.ts.

export const oForms = pgTable(
  'o_forms',
  {
    id: serial('id').primaryKey(),
    /** Stable across versions; each version is a row of its own. */
    identity: text('identity').notNull(),
    version: integer('version').notNull().default(1),
    title: text('title').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    /** The approved version of its identity (at most one at a time). */
    isApproved: boolean('is_approved').notNull().default(false),
    /** Set once, on approval: from then on the version never changes. */
    approvedAt: timestamp('approved_at', { withTimezone: true, mode: 'date' }),
    approvedBy: integer('approved_by').references(() => users.id, { onDelete: 'set null' }),
    engagementId: integer('engagement_id').notNull().references(() => engagements.id, { onDelete: 'cascade' }),
    sponsorId: integer('sponsor_id').references(() => sponsors.id, { onDelete: 'set null' }),
    /** The number of pages (root containers): the progress bar's maximum. */
    containerCount: integer('container_count').notNull().default(0),
    created: created(),
    modified: modified(),
  },
  (t) => [
    uniqueIndex('o_forms_identity_version_idx').on(t.identity, t.version),
    uniqueIndex('o_forms_one_approved_idx').on(t.identity).where(sql`${t.isApproved}`),
    index('o_forms_engagement_idx').on(t.engagementId),
  ],
);

export const oFormLanguages = pgTable(
  'o_form_languages',
  {
    oFormId: integer('o_form_id').notNull().references(() => oForms.id, { onDelete: 'cascade' }),
    languageId: integer('language_id').notNull().references(() => languages.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.oFormId, t.languageId] })],
);

export const oFormContainers = pgTable(
  'o_form_containers',
  {
    id: serial('id').primaryKey(),
    /** Stable across versions of the survey. */
    identity: text('identity').notNull(),
    oFormId: integer('o_form_id').notNull().references(() => oForms.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    displayOrder: integer('display_order').notNull().default(0),
    isActive: boolean('is_active').notNull().default(true),
    /** 'root_container' for pages, 'child_container' for containers within one. */
    containerType: text('container_type').notNull().default('root_container'),
    parentId: integer('parent_id').references((): AnyPgColumn => oFormContainers.id, { onDelete: 'cascade' }),
    /** Per API iso code: { title }, as a question's configuration.translations. */
    translations: jsonb('translations').$type<Record<string, { title?: string }>>().notNull().default({}),
  },
  (t) => [
    uniqueIndex('o_form_containers_identity_idx').on(t.oFormId, t.identity),
    index('o_form_containers_form_idx').on(t.oFormId, t.displayOrder),
    index('o_form_containers_parent_idx').on(t.parentId),
    check('o_form_containers_type_check', sql`${t.containerType} in ('root_container', 'child_container')`),
  ],
);

export const oFormFields = pgTable(
  'o_form_fields',
  {
    id: serial('id').primaryKey(),
    /** Stable across versions of the survey. */
    identity: text('identity').notNull(),
    containerId: integer('container_id').notNull().references(() => oFormContainers.id, { onDelete: 'cascade' }),
    title: text('title').notNull().default('Placeholder'),
    type: text('type').notNull().default('placeholder'),
    categoryId: integer('category_id').references(() => questionCategories.id, { onDelete: 'set null' }),
    isActive: boolean('is_active').notNull().default(true),
    displayOrder: integer('display_order').notNull().default(0),
    /** Validated with core/model/oform.ts fieldConfiguration(type) on every write. */
    configuration: jsonb('configuration').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index('o_form_fields_container_idx').on(t.containerId, t.displayOrder), index('o_form_fields_identity_idx').on(t.identity)],
);

export const oFormFieldTags = pgTable(
  'o_form_field_tags',
  {
    fieldId: integer('field_id').notNull().references(() => oFormFields.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id').notNull().references(() => tags.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.fieldId, t.tagId] })],
);

/** Per version, the participant-facing message of each type (SPEC section 3), per language. */
export const oFormMessages = pgTable(
  'o_form_messages',
  {
    id: serial('id').primaryKey(),
    oFormIdentity: text('o_form_identity').notNull(),
    oFormVersionId: integer('o_form_version_id').notNull().references(() => oForms.id, { onDelete: 'cascade' }),
    messageType: text('message_type').notNull(),
    /** API iso code (en, es_MX). */
    language: text('language').notNull().default('en'),
    message: text('message').notNull().default(''),
    created: created(),
    modified: modified(),
  },
  (t) => [
    uniqueIndex('o_form_messages_version_type_language_idx').on(t.oFormVersionId, t.messageType, t.language),
    index('o_form_messages_identity_idx').on(t.oFormIdentity),
    check(
      'o_form_messages_type_check',
      sql`${t.messageType} in ('completed_contact_form', 'no_trial_sites_consent', 'no_trial_sites_contact_form', 'not_active_consent', 'not_active_contact_form', 'not_qualified_consent', 'not_qualified_contact_form', 'trial_site_selected_consent', 'trial_site_selected_contact_form')`,
    ),
  ],
);

// ---------------------------------------------------------------------------------------------
// Participant runtime: submissions, page entries and answers, page timing, contacts and the
// record-system push with its audits.

export const oFormSubmissions = pgTable(
  'o_form_submissions',
  {
    id: serial('id').primaryKey(),
    oFormId: integer('o_form_id').notNull().references(() => oForms.id, { onDelete: 'cascade' }),
    /** 'in_progress' at creation; 'completed' once the contact form (or the outcome) ends it. */
    status: text('status').notNull().default('in_progress'),
    mediaChannelId: integer('media_channel_id').references(() => mediaChannels.id, { onDelete: 'set null' }),
    languageId: integer('language_id').references(() => languages.id, { onDelete: 'set null' }),
    /** API iso code (en, es_MX) the participant runs in. */
    language: text('language').notNull().default('en'),
    /** The partner page as origin and path only: its query and fragment are never stored. */
    mediaChannelUrl: text('media_channel_url'),
    /** Campaign parameters (core/participant/attribution.ts), from the page's address or sent on their own. */
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
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    /** When the participant first saved a page's answers: the funnel's `started` (server/funnel/stages.ts). */
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
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
    submissionId: integer('submission_id').notNull().references(() => oFormSubmissions.id, { onDelete: 'cascade' }),
    containerId: integer('container_id').notNull().references(() => oFormContainers.id, { onDelete: 'cascade' }),
    parentId: integer('parent_id').references((): AnyPgColumn => oFormContainerEntries.id, { onDelete: 'cascade' }),
    /**
     * When the page's answers were last saved (valid); null until then and again once the page is
     * sanitized. A page whose questions are all optional or none is answered without answer rows,
     * so this, not the rows, says the participant went through it.
     */
    answeredAt: timestamp('answered_at', { withTimezone: true, mode: 'date' }),
    created: created(),
  },
  (t) => [index('o_form_container_entries_submission_idx').on(t.submissionId), index('o_form_container_entries_parent_idx').on(t.parentId)],
);

/** One answer: the value a participant gave a question on one page entry. */
export const oFormFieldEntries = pgTable(
  'o_form_field_entries',
  {
    id: serial('id').primaryKey(),
    containerEntryId: integer('container_entry_id').notNull().references(() => oFormContainerEntries.id, { onDelete: 'cascade' }),
    fieldId: integer('field_id').notNull().references(() => oFormFields.id, { onDelete: 'cascade' }),
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
    submissionId: integer('submission_id').notNull().references(() => oFormSubmissions.id, { onDelete: 'cascade' }),
    oFormId: integer('o_form_id').notNull().references(() => oForms.id, { onDelete: 'cascade' }),
    type: text('type').notNull().default('page'),
    /** The page's (container's) identity. */
    identity: text('identity').notNull(),
    start: timestamp('start', { withTimezone: true, mode: 'date' }).notNull(),
    stop: timestamp('stop', { withTimezone: true, mode: 'date' }),
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
    submissionId: integer('submission_id').references(() => oFormSubmissions.id, { onDelete: 'set null' }),
    engagementId: integer('engagement_id').notNull().references(() => engagements.id, { onDelete: 'cascade' }),
    engagementSiteLocationId: integer('engagement_site_location_id').references(() => engagementSiteLocations.id, {
      onDelete: 'set null',
    }),
    screenerId: integer('screener_id').references(() => screeners.id, { onDelete: 'set null' }),
    mediaChannelId: integer('media_channel_id').references(() => mediaChannels.id, { onDelete: 'set null' }),
    language: text('language').notNull().default('en'),
    /** AES-256-GCM ciphertext of the JSON map of contact field name to value. */
    valuesCiphertext: text('values_ciphertext').notNull(),
    acceptTerms: boolean('accept_terms').notNull().default(false),
    consentedAt: timestamp('consented_at', { withTimezone: true, mode: 'date' }),
    /** The consent exactly as shown (sanitized HTML, in `language`), its SHA-256 (hex), and the approved survey version answered. */
    consentText: text('consent_text'),
    consentTextSha256: text('consent_text_sha256'),
    consentSurveyId: integer('consent_survey_id').references((): AnyPgColumn => oForms.id, { onDelete: 'set null' }),
    consentSurveyVersion: integer('consent_survey_version'),
    /** The separate consent to be texted at the phone number given, as shown (its text, SHA-256 and instant); null when not given. */
    smsConsentText: text('sms_consent_text'),
    smsConsentTextSha256: text('sms_consent_text_sha256'),
    smsConsentedAt: timestamp('sms_consented_at', { withTimezone: true, mode: 'date' }),
    /** Keyed hashes of the e-mail and phone given (security/contactMatch.ts), to find the same person again. */
    emailMatch: text('email_match'),
    phoneMatch: text('phone_match'),
    /** The same person's referral to this engagement within its window: this contact is kept but never sent. */
    duplicateOf: integer('duplicate_of').references((): AnyPgColumn => contacts.id, { onDelete: 'set null' }),
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
 * A lead: the contact a participant left at notQualified, noTrialSites or notActive, kept for
 * future contact (core/model/lead.ts). Sealed like a contact's values; never a referral.
 */
export const leads = pgTable(
  'leads',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    submissionId: integer('submission_id').references(() => oFormSubmissions.id, { onDelete: 'set null' }),
    /** The run's engagements (a noTrialSites lead: those it qualified for); scope and site matches go by them. */
    engagementIds: integer('engagement_ids').array().notNull(),
    screenerId: integer('screener_id').references(() => screeners.id, { onDelete: 'set null' }),
    mediaChannelId: integer('media_channel_id').references(() => mediaChannels.id, { onDelete: 'set null' }),
    language: text('language').notNull().default('en'),
    /** AES-256-GCM ciphertexts: the JSON map of contact field name to value, and the ZIP searched from. */
    valuesCiphertext: text('values_ciphertext').notNull(),
    zipCiphertext: text('zip_ciphertext'),
    /** The ISO country the sealed ZIP is a postal code or town of, outside the US; null for a US ZIP code. */
    country: text('country'),
    nearestSiteMiles: doublePrecision('nearest_site_miles'),
    /** The consent exactly as shown (sanitized HTML, in `language`), its SHA-256 (hex), and the survey version answered. */
    consentedAt: timestamp('consented_at', { withTimezone: true, mode: 'date' }).notNull(),
    consentText: text('consent_text').notNull(),
    consentTextSha256: text('consent_text_sha256').notNull(),
    surveyId: integer('survey_id').references((): AnyPgColumn => oForms.id, { onDelete: 'set null' }),
    surveyVersion: integer('survey_version'),
    /** Keyed hashes of the e-mail and phone given (security/contactMatch.ts), the same as contacts'. */
    emailMatch: text('email_match'),
    phoneMatch: text('phone_match'),
    duplicateOf: integer('duplicate_of').references((): AnyPgColumn => leads.id, { onDelete: 'set null' }),
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
    leadId: integer('lead_id').notNull().references(() => leads.id, { onDelete: 'cascade' }),
    engagementSiteLocationId: integer('engagement_site_location_id').notNull().references(() => engagementSiteLocations.id, { onDelete: 'cascade' }),
    distanceMiles: doublePrecision('distance_miles').notNull(),
    created: created(),
  },
  (t) => [primaryKey({ columns: [t.leadId, t.engagementSiteLocationId] }), index('lead_site_matches_link_idx').on(t.engagementSiteLocationId)],
);

/** One row per attempt to push a contact to its record system (SPEC: record-system audit). */
export const rmsAudits = pgTable(
  'rms_audits',
  {
    id: serial('id').primaryKey(),
    contactId: integer('contact_id').notNull().references(() => contacts.id, { onDelete: 'cascade' }),
    rmsProviderId: integer('rms_provider_id').references(() => rmsProviders.id, { onDelete: 'set null' }),
    rmsProviderName: text('rms_provider_name').notNull(),
    succeeded: boolean('succeeded').notNull().default(false),
    attempt: integer('attempt').notNull().default(1),
    responseMessage: text('response_message').notNull().default(''),
    responseBody: text('response_body').notNull().default(''),
    created: created(),
  },
  (t) => [
    index('rms_audits_created_idx').on(t.created),
    index('rms_audits_contact_idx').on(t.contactId),
    index('rms_audits_provider_name_idx').on(natural(t.rmsProviderName), t.id),
  ],
);

/**
 * The record-system outbox: one row per contact to deliver, written in the contact's own
 * transaction (server/rms/outbox.ts). `status` is pending (first attempt due), retrying,
 * delivered or undelivered; `next_attempt_at` is when the next attempt is due while pending or
 * retrying, and `lease_id` names the attempt a process has claimed and not yet finished.
 */
export const rmsDeliveries = pgTable(
  'rms_deliveries',
  {
    contactId: integer('contact_id').primaryKey().references(() => contacts.id, { onDelete: 'cascade' }),
    /** The referral's idempotency key: `referralId` of every push and its webhook-id. */
    referralKey: uuid('referral_key').notNull().defaultRandom().unique(),
    status: text('status').notNull().default('pending'),
    /** Attempts made in the current round (a resend of a failed delivery starts a new round). */
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }),
    leaseId: uuid('lease_id'),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true, mode: 'date' }),
    /** When the record system first accepted it; kept when it is sent again. */
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
    created: created(),
  },
  (t) => [
    index('rms_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} in ('pending', 'retrying')`),
    index('rms_deliveries_status_idx').on(t.status),
    check('rms_deliveries_status_check', sql`${t.status} in ('pending', 'retrying', 'delivered', 'undelivered')`),
  ],
);

/**
 * The funnel's `viewed` stage: views counted per day and per what the funnel filters and groups
 * by (server/participant/views.ts), so no view is a row of its own. `dimensions` is the key of those
 * columns together; like the channel figures, a count goes to one of several shards so that
 * concurrent views of one survey rarely wait for each other.
 */
export const funnelViews = pgTable(
  'funnel_views',
  {
    dimensions: text('dimensions').notNull(),
    shard: smallint('shard').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    sponsorId: integer('sponsor_id'),
    engagementId: integer('engagement_id'),
    screenerId: integer('screener_id'),
    mediaChannelId: integer('media_channel_id'),
    oFormId: integer('o_form_id'),
    oFormIdentity: text('o_form_identity'),
    language: text('language').notNull(),
    utmSource: text('utm_source'),
    utmCampaign: text('utm_campaign'),
    views: integer('views').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.dimensions, t.shard] }), index('funnel_views_engagement_day_idx').on(t.engagementId, t.day), index('funnel_views_day_idx').on(t.day)],
);

/**
 * The funnel's submission stages summed per day (UTC, of the submission's creation), survey
 * version and media channel (server/funnel/rollup.ts), so the funnel of a whole installation is
 * a sum over days rather than a scan of every submission. Kept by recomputing the buckets
 * `funnel_dirty` names, with the same stage definitions (server/funnel/stages.ts).
 */
export const funnelDayCounts = pgTable(
  'funnel_day_counts',
  {
    day: date('day', { mode: 'string' }).notNull(),
    oFormId: integer('o_form_id')
      .notNull()
      .references(() => oForms.id, { onDelete: 'cascade' }),
    mediaChannelId: integer('media_channel_id'),
    started: integer('started').notNull().default(0),
    completed: integer('completed').notNull().default(0),
    qualified: integer('qualified').notNull().default(0),
    siteSelected: integer('site_selected').notNull().default(0),
    contactLeft: integer('contact_left').notNull().default(0),
    delivered: integer('delivered').notNull().default(0),
    reached: integer('reached').notNull().default(0),
    screened: integer('screened').notNull().default(0),
    screenFailed: integer('screen_failed').notNull().default(0),
    randomized: integer('randomized').notNull().default(0),
    leadsKept: integer('leads_kept').notNull().default(0),
    leadsNotQualified: integer('leads_not_qualified').notNull().default(0),
    leadsNoTrialSites: integer('leads_no_trial_sites').notNull().default(0),
    leadsNotActive: integer('leads_not_active').notNull().default(0),
  },
  (t) => [index('funnel_day_counts_form_day_idx').on(t.oFormId, t.day), index('funnel_day_counts_day_idx').on(t.day)],
);

/**
 * The (day, survey version) buckets of funnel_day_counts that a change may have made stale:
 * database triggers on submissions, contacts, deliveries, referrals and leads add them as the change is
 * written (migration 0020), and the next funnel read recomputes them.
 */
export const funnelDirty = pgTable(
  'funnel_dirty',
  {
    day: date('day', { mode: 'string' }).notNull(),
    oFormId: integer('o_form_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.oFormId] })],
);

/**
 * The days of funnel_day_counts not counted yet, first_day to last_day inclusive: set when the
 * rollup came to an installation that already had submissions (migration 0022), and narrowed
 * from the latest day back by the job every server process runs at start
 * (server/funnel/recount.ts). Reads count these days from the submissions until then. At most
 * one row; none once every day is counted.
 */
export const funnelRecount = pgTable(
  'funnel_recount',
  {
    only: boolean('only').primaryKey().default(true),
    firstDay: date('first_day', { mode: 'string' }).notNull(),
    lastDay: date('last_day', { mode: 'string' }).notNull(),
  },
  (t) => [check('funnel_recount_one_row', sql`${t.only}`)],
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

// ---------------------------------------------------------------------------------------------
// Messages (server/messages/): the e-mail outbox, its templates, settings and opt-outs.

/**
 * The message outbox: one row per e-mail, written in the transaction of what caused it (a new
 * referral). The address and the body are sealed like contact values; the subject names no
 * health data. `message_id` is the RFC 5322 Message-ID, the same on every attempt, so a retry
 * after a crash is the same message to the receiving side. `status` is pending (first attempt
 * due at next_attempt_at), waiting (no mail server configured), retrying, sent, failed (every
 * attempt of the schedule failed, or the server said never) or cancelled (not to be sent any
 * more: unsubscribed, or what it reminded of was done).
 */
export const messages = pgTable(
  'messages',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    /** 'email' or 'sms' (a text through SMS_PROVIDER; `to` is then a phone number, the body's text part is sent). */
    channel: text('channel').notNull().default('email'),
    engagementId: integer('engagement_id').references(() => engagements.id, { onDelete: 'cascade' }),
    referralId: integer('referral_id').references(() => referrals.id, { onDelete: 'cascade' }),
    /** 'staff' or 'participant'. */
    audience: text('audience').notNull(),
    recipientUserId: integer('recipient_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** What the admin shows in place of the address: a staff username, or "participant". */
    recipientLabel: text('recipient_label').notNull(),
    language: text('language').notNull().default('en'),
    toCiphertext: text('to_ciphertext').notNull(),
    /** Keyed hash of a participant's address (security/contactMatch.ts): opt-outs go by it. */
    toMatch: text('to_match'),
    subject: text('subject').notNull(),
    /** Sealed JSON { text, html }; null once MESSAGE_RETENTION_DAYS purged a sent body. */
    bodyCiphertext: text('body_ciphertext'),
    messageId: text('message_id').notNull(),
    unsubscribeToken: text('unsubscribe_token'),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }),
    leaseId: uuid('lease_id'),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true, mode: 'date' }),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    purgedAt: timestamp('purged_at', { withTimezone: true, mode: 'date' }),
    created: created(),
  },
  (t) => [
    uniqueIndex('messages_message_id_idx').on(t.messageId),
    uniqueIndex('messages_unsubscribe_token_idx').on(t.unsubscribeToken).where(sql`${t.unsubscribeToken} is not null`),
    index('messages_due_idx').on(t.nextAttemptAt).where(sql`${t.status} in ('pending', 'waiting', 'retrying')`),
    index('messages_referral_idx').on(t.referralId),
    index('messages_created_idx').on(t.created, t.id),
    index('messages_to_match_idx').on(t.toMatch).where(sql`${t.toMatch} is not null`),
    check('messages_status_check', sql`${t.status} in ('pending', 'waiting', 'retrying', 'sent', 'failed', 'cancelled')`),
    check('messages_audience_check', sql`${t.audience} in ('staff', 'participant')`),
    check('messages_channel_check', sql`${t.channel} in ('email', 'sms')`),
  ],
);

/** Which messages an engagement sends, each after its delay (no row: off). */
export const engagementMessageSettings = pgTable(
  'engagement_message_settings',
  {
    engagementId: integer('engagement_id').notNull().references(() => engagements.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    isEnabled: boolean('is_enabled').notNull().default(true),
    delayMinutes: integer('delay_minutes').notNull().default(0),
    modified: modified(),
  },
  (t) => [primaryKey({ columns: [t.engagementId, t.kind] }), check('engagement_message_settings_delay_check', sql`${t.delayMinutes} between 0 and 43200`)],
);

/** A message kind's template in one language as staff edited it (no row: the shipped default). */
export const messageTemplates = pgTable(
  'message_templates',
  {
    kind: text('kind').notNull(),
    language: text('language').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    modifiedBy: integer('modified_by').references(() => users.id, { onDelete: 'set null' }),
    modified: modified(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.language] })],
);

/** Staff's text (SMS) templates, per kind that is texted and language; the shipped default where none. */
export const smsTemplates = pgTable(
  'sms_templates',
  {
    kind: text('kind').notNull(),
    language: text('language').notNull(),
    text: text('text').notNull(),
    modifiedBy: integer('modified_by').references(() => users.id, { onDelete: 'set null' }),
    modified: modified(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.language] })],
);

/** Participant addresses (keyed hashes) that unsubscribed: no participant mail goes to them again. */
export const messageOptOuts = pgTable('message_opt_outs', {
  toMatch: text('to_match').primaryKey(),
  created: created(),
});

/** Phone numbers (keyed hashes, as contact duplicates are found) that texted STOP: no text goes to them again, for any engagement. */
export const smsOptOuts = pgTable('sms_opt_outs', {
  toMatch: text('to_match').primaryKey(),
  created: created(),
});
