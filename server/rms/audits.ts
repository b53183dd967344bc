/**
 * The RMS audits list for operations: every attempt with where its contact's delivery stands
 * now, filtered by delivery status, provider, engagement and dates, and the bulk resend of the
 * undelivered contacts a filter shows; the filters as a query string names them, and an audit
 * (with its provider) as the list and a resend answer it.
 */
import { and, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { Resource } from '@core/jsonapi';
import { type RMS_AUDIT_FILTERS, RMS_AUDIT_TYPE, RMS_DELIVERY_STATUSES, type RmsDeliveryStatus } from '@core/model/rmsAudit';
import { RMS_PROVIDER_TYPE } from '@core/model/rmsProvider';
import type { Db } from '../db/open';
import { contacts, oFormSubmissions, referrals, rmsAudits, rmsDeliveries, rmsProviders } from '../db/schema';
import type { Utm } from '@core/model/partnerPage';
import type { ListQuery } from '../http/query';
import { booleanParam, choiceParam, idParam, instantParam, searchParam, type QueryParam } from '../http/params';
import { countOf, joinedPage } from '../http/list';
import { plain, toResource } from '../http/serialize';
import { ilikeAny } from '../http/sql';
import { rowsOf } from '../db/rows';
import type { RmsAuditRow } from './outbox';

export interface AuditFilters {
  contactId?: number;
  succeeded?: boolean;
  status?: RmsDeliveryStatus;
  rmsProviderId?: number;
  engagementId?: number;
  /** Attempts made at or after this instant. */
  from?: Date;
  /** Attempts made before this instant. */
  to?: Date;
  searchQuery?: string;
}

export interface AuditListRow extends RmsAuditRow {
  engagementId: number;
  deliveryStatus: RmsDeliveryStatus | null;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  referralId: string | null;
  referralRecordId: string | null;
  /** The contact's first referral, when this contact is its duplicate (never sent). */
  duplicateOf: number | null;
  /** The contact's run started from the same client address and channel as a run finished within the channel's retake window. */
  possibleRetake: boolean;
  /** The contact's consent proof: when, in which language, the approved survey version, the text as shown and its SHA-256. */
  consentedAt: Date | null;
  consentLanguage: string;
  consentSurveyVersion: number | null;
  consentText: string | null;
  consentTextSha256: string | null;
  /** Where the contact came from: the campaign parameters and the channel's hidden fields stored with its run. */
  utm: Utm;
  hiddenFields: Record<string, string>;
}

const sorts = {
  created: rmsAudits.created,
  contactId: rmsAudits.contactId,
  rmsProviderName: rmsAudits.rmsProviderName,
  succeeded: rmsAudits.succeeded,
};

function whereOf(f: AuditFilters): SQL | undefined {
  return and(
    f.contactId !== undefined ? eq(rmsAudits.contactId, f.contactId) : undefined,
    f.succeeded !== undefined ? eq(rmsAudits.succeeded, f.succeeded) : undefined,
    f.status !== undefined ? eq(rmsDeliveries.status, f.status) : undefined,
    f.rmsProviderId !== undefined ? eq(rmsAudits.rmsProviderId, f.rmsProviderId) : undefined,
    f.engagementId !== undefined ? eq(contacts.engagementId, f.engagementId) : undefined,
    f.from !== undefined ? gte(rmsAudits.created, f.from) : undefined,
    f.to !== undefined ? lt(rmsAudits.created, f.to) : undefined,
    ilikeAny([rmsAudits.rmsProviderName, rmsAudits.responseMessage], f.searchQuery),
  );
}

export async function listAudits(
  db: Db,
  filters: AuditFilters,
  q: Pick<ListQuery<keyof typeof sorts>, 'sort' | 'limit' | 'offset'>,
): Promise<{ rows: AuditListRow[]; total: number | null }> {
  const counted = countOf(db, rmsAudits)
    .innerJoin(contacts, eq(contacts.id, rmsAudits.contactId))
    .leftJoin(rmsDeliveries, eq(rmsDeliveries.contactId, rmsAudits.contactId))
    .$dynamic();
  const select = db
    .select({
      audit: rmsAudits,
      engagementId: contacts.engagementId,
      deliveryStatus: rmsDeliveries.status,
      nextAttemptAt: rmsDeliveries.nextAttemptAt,
      deliveredAt: rmsDeliveries.deliveredAt,
      referralId: rmsDeliveries.referralKey,
      referralRecordId: referrals.id,
      duplicateOf: contacts.duplicateOf,
      possibleRetake: sql<boolean>`coalesce(${oFormSubmissions.possibleRetake}, false)`,
      consentedAt: contacts.consentedAt,
      consentLanguage: contacts.language,
      consentSurveyVersion: contacts.consentSurveyVersion,
      consentText: contacts.consentText,
      consentTextSha256: contacts.consentTextSha256,
      utm: oFormSubmissions.utm,
      hiddenFields: oFormSubmissions.hiddenFields,
    })
    .from(rmsAudits)
    .innerJoin(contacts, eq(contacts.id, rmsAudits.contactId))
    .leftJoin(rmsDeliveries, eq(rmsDeliveries.contactId, rmsAudits.contactId))
    .leftJoin(oFormSubmissions, eq(oFormSubmissions.id, contacts.submissionId))
    .leftJoin(referrals, eq(referrals.contactId, rmsAudits.contactId))
    .$dynamic();
  const { rows, total } = await joinedPage(select, counted, q, { where: whereOf(filters), sorts, id: rmsAudits.id });
  return {
    total,
    rows: rows.map((r) => ({
      ...r.audit,
      engagementId: r.engagementId,
      deliveryStatus: r.deliveryStatus as RmsDeliveryStatus | null,
      // Only a delivery waiting for an attempt has a next one.
      nextAttemptAt: r.deliveryStatus === 'pending' || r.deliveryStatus === 'retrying' ? r.nextAttemptAt : null,
      deliveredAt: r.deliveredAt,
      referralId: r.referralId,
      referralRecordId: r.referralRecordId === null ? null : String(r.referralRecordId),
      duplicateOf: r.duplicateOf,
      possibleRetake: r.possibleRetake === true,
      consentedAt: r.consentedAt,
      consentLanguage: r.consentLanguage,
      consentSurveyVersion: r.consentSurveyVersion,
      consentText: r.consentText,
      consentTextSha256: r.consentTextSha256,
      utm: r.utm ?? {},
      hiddenFields: r.hiddenFields ?? {},
    })),
  };
}

/**
 * Bulk resend: every undelivered contact with an attempt the filters show starts a fresh round,
 * due at `now`. Answers how many.
 */
export async function requeueUndelivered(db: Db, filters: Omit<AuditFilters, 'status'>, now: Date): Promise<number> {
  const where = whereOf({ ...filters, status: 'undelivered' });
  const shown = db
    .selectDistinct({ contactId: rmsAudits.contactId })
    .from(rmsAudits)
    .innerJoin(contacts, eq(contacts.id, rmsAudits.contactId))
    .leftJoin(rmsDeliveries, eq(rmsDeliveries.contactId, rmsAudits.contactId))
    .where(where);
  const result = await db.execute(sql`
    update rms_deliveries set status = 'pending', attempts = 0, next_attempt_at = ${now.toISOString()}::timestamptz, lease_id = null
    where status = 'undelivered' and contact_id in (${shown})
    returning contact_id`);
  return rowsOf(result).length;
}

// ---------------------------------------------------------------------------------------------
// The list and the resend as the API reads and answers them

/** The include that adds each audit's provider (its name and kind). */
export const AUDIT_INCLUDE_PROVIDERS = 'rmsProviders';

/** An audit's own columns, as its list names them for `fields` and CSV columns. */
/** The list's filters, each read as its type (a malformed value is a 400 naming it); a bulk resend takes the same. */
export const AUDIT_FILTERS = {
  contactId: idParam('contact'),
  succeeded: booleanParam,
  status: choiceParam(RMS_DELIVERY_STATUSES),
  rmsProviderId: idParam('record system'),
  engagementId: idParam('engagement'),
  from: instantParam('from'),
  to: instantParam('to'),
  searchQuery: searchParam,
} satisfies Record<(typeof RMS_AUDIT_FILTERS)[number] | 'searchQuery', QueryParam<unknown>>;

/** An attempt's audit as a resource; `withProvider` relates it to its provider (the `rmsProviders` include). */
export function auditResource(row: RmsAuditRow | AuditListRow, withProvider: boolean, fields: Set<string> | null = null): Resource {
  const { id, ...attributes } = row;
  return toResource(RMS_AUDIT_TYPE, id, plain(attributes), {
    fields,
    relationships: withProvider
      ? { [AUDIT_INCLUDE_PROVIDERS]: { data: row.rmsProviderId ? { type: RMS_PROVIDER_TYPE, id: String(row.rmsProviderId) } : null } }
      : undefined,
  });
}

/** The providers of these audits, for `included`. */
export async function providerResources(db: Db, rows: RmsAuditRow[]): Promise<Resource[]> {
  const ids = [...new Set(rows.map((r) => r.rmsProviderId).filter((id): id is number => id !== null))];
  if (ids.length === 0) return [];
  const found = await db
    .select({ id: rmsProviders.id, name: rmsProviders.name, kind: rmsProviders.kind })
    .from(rmsProviders)
    .where(inArray(rmsProviders.id, ids));
  // Name and kind only: the endpoint and the secrets stay on the server.
  return found.map((p) => toResource(RMS_PROVIDER_TYPE, p.id, { name: p.name, kind: p.kind }));
}
