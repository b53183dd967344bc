/**
 * Engagements (studies), their lookup links and files (server/engagements/).
 */
import { sql } from 'drizzle-orm';
import { boolean, check, date, index, numeric, integer, pgTable, serial, text, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { belongsTo, created, dependsOn, isActive, modified, natural, refersTo } from './columns';
import { linkTable } from './linkTable';
import { campaignTypes, targetGroups, therapeuticAreas, indications, type LookupTable } from './lookups';
import { rmsProviders } from './rms-providers';
import { sponsors } from './sponsors';
import { users } from './users';

export const engagements = pgTable(
  'engagements',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description'),
    // Restrict: a sponsor with engagements cannot be deleted (no orphans).
    sponsorId: dependsOn('sponsor_id', () => sponsors.id),
    sponsorContact: text('sponsor_contact'),
    startDate: date('start_date', { mode: 'string' }),
    endDate: date('end_date', { mode: 'string' }),
    isActive: isActive(),
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
    rmsProviderId: refersTo('rms_provider_id', () => rmsProviders.id),
    rmsSponsorIdentifier: text('rms_sponsor_identifier'),
    /** The same person referred again within this many days is a duplicate, not sent again (0: never). */
    duplicateWindowDays: integer('duplicate_window_days').notNull().default(90),
    /** Service level: a new referral's first contact is due within this many hours. */
    firstContactHours: integer('first_contact_hours').notNull().default(48),
    /** Service level: an open referral with no update for this many days is stale. */
    staleDays: integer('stale_days').notNull().default(7),
    /** The staff member answerable for the engagement (overdue messages reach them); its creator at first. */
    ownerUserId: refersTo('owner_user_id', (): AnyPgColumn => users.id),
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

const engagementLink = <T extends string, N extends string>(name: T, column: N, target: LookupTable | typeof indications) =>
  linkTable(name, ['engagementId', 'engagement_id', () => engagements.id], ['targetId', column, () => target.id], `${name}_target_idx`);

export const engagementCampaignTypes = engagementLink('engagement_campaign_types', 'campaign_type_id', campaignTypes);

export const engagementIndications = engagementLink('engagement_indications', 'indication_id', indications);

export const engagementTargetGroups = engagementLink('engagement_target_groups', 'target_group_id', targetGroups);

export const engagementTherapeuticAreas = engagementLink('engagement_therapeutic_areas', 'therapeutic_area_id', therapeuticAreas);

/** Files attached to an engagement; the bytes live in storage under `storageKey`. */
export const engagementFiles = pgTable(
  'engagement_files',
  {
    id: serial('id').primaryKey(),
    engagementId: belongsTo('engagement_id', () => engagements.id),
    filename: text('filename').notNull(),
    mime: text('mime').notNull(),
    size: integer('size').notNull(),
    storageKey: text('storage_key').notNull().unique(),
    createdBy: refersTo('created_by', () => users.id),
    created: created(),
  },
  (t) => [index('engagement_files_engagement_idx').on(t.engagementId)],
);
