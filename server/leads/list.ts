/**
 * Leads as staff read them: the list (filters, sort, sponsor scope through the lead's
 * engagements), one lead, its contact values on an explicit reveal, and erasure. The ZIP is
 * opened for display; the contact values only by reveal().
 */
import { and, asc, count, desc, eq, gte, lt, or, sql, type SQL } from 'drizzle-orm';
import { LEAD_KINDS, LeadValues, isLeadKind, type Lead, type LeadFilter } from '@core/model/lead';
import * as v from 'valibot';
import type { AuthUser } from '../context';
import type { Db } from '../db/open';
import { leads, leadSiteMatches } from '../db/schema';
import { sponsorScope } from '../auth/guards';
import { siteScope } from '../referrals';
import { BadParameter } from '../errors';
import { idFilterValue, instantFilterValue, type ListQuery } from '../http/query';
import type { PhiCipher } from '../security/phi';

/**
 * The leads a member of staff may see: all for Admin and Super User; for a User those kept for
 * an engagement of their sponsors; for a Site Coordinator those matched to their site locations
 * (a site that opened within reach of the lead); either, for someone who holds both roles.
 */
export function leadScope(user: AuthUser): SQL | undefined {
  const scope = sponsorScope(user);
  if (scope === null) return undefined;
  const sites = siteScope(user) ?? [];
  const ids = (list: number[]) =>
    sql.join(
      list.map((id) => sql`${id}`),
      sql`, `,
    );
  const bySponsor = scope.length
    ? sql`exists (select 1 from engagements e where e.id = any(${leads.engagementIds}) and e.sponsor_id in (${ids(scope)}))`
    : undefined;
  const bySite = sites.length
    ? sql`exists (select 1 from ${leadSiteMatches} m join engagement_site_locations l on l.id = m.engagement_site_location_id where m.lead_id = ${leads.id} and l.site_location_id in (${ids(sites)}))`
    : undefined;
  return bySponsor || bySite ? or(bySponsor, bySite) : sql`false`;
}

const SORT_COLUMNS = {
  created: leads.created,
  kind: leads.kind,
  language: leads.language,
  consentedAt: leads.consentedAt,
  nearestSiteMiles: leads.nearestSiteMiles,
} as const;

/** The list's filters as conditions; anything malformed is a 400 naming it. */
function filterConditions(filters: Partial<Record<LeadFilter, string>>): SQL[] {
  const out: SQL[] = [];
  const kind = filters.kind;
  if (kind !== undefined && kind !== '') {
    if (!isLeadKind(kind)) throw new BadParameter(`'kind' must be one of ${LEAD_KINDS.join(', ')}.`, 'kind');
    out.push(eq(leads.kind, kind));
  }
  const engagementId = idFilterValue(filters.engagementId || undefined, 'engagementId', 'an id');
  if (engagementId !== undefined) out.push(sql`${engagementId} = any(${leads.engagementIds})`);
  const screenerId = idFilterValue(filters.screenerId || undefined, 'screenerId', 'an id');
  if (screenerId !== undefined) out.push(eq(leads.screenerId, screenerId));
  const mediaChannelId = idFilterValue(filters.mediaChannelId || undefined, 'mediaChannelId', 'an id');
  if (mediaChannelId !== undefined) out.push(eq(leads.mediaChannelId, mediaChannelId));
  if (filters.language) out.push(eq(leads.language, filters.language));
  const linkId = idFilterValue(filters.engagementSiteLocationId || undefined, 'engagementSiteLocationId', 'an id');
  if (linkId !== undefined) {
    out.push(sql`exists (select 1 from ${leadSiteMatches} m where m.lead_id = ${leads.id} and m.engagement_site_location_id = ${linkId})`);
  }
  const siteLocationId = idFilterValue(filters.siteLocationId || undefined, 'siteLocationId', 'an id');
  if (siteLocationId !== undefined) {
    out.push(
      sql`exists (select 1 from ${leadSiteMatches} m join engagement_site_locations l on l.id = m.engagement_site_location_id where m.lead_id = ${leads.id} and l.site_location_id = ${siteLocationId})`,
    );
  }
  const withinReach = filters.withinReach;
  if (withinReach !== undefined && withinReach !== '') {
    if (withinReach !== 'true' && withinReach !== 'false') throw new BadParameter("'withinReach' must be true or false.", 'withinReach');
    // Of the engagement filtered on, when there is one: its own sites' matches.
    const link = engagementId === undefined ? sql`` : sql` and l.engagement_id = ${engagementId}`;
    const matched = sql`exists (select 1 from ${leadSiteMatches} m join engagement_site_locations l on l.id = m.engagement_site_location_id where m.lead_id = ${leads.id}${link})`;
    out.push(withinReach === 'true' ? matched : sql`not ${matched}`);
  }
  const from = instantFilterValue(filters.from, 'from');
  if (from) out.push(gte(leads.created, from));
  const to = instantFilterValue(filters.to, 'to');
  if (to) out.push(lt(leads.created, to));
  return out;
}

type LeadRow = typeof leads.$inferSelect;

function leadOf(row: LeadRow, phi: PhiCipher): Lead {
  return {
    id: String(row.id),
    kind: isLeadKind(row.kind) ? row.kind : 'notQualified',
    engagementIds: row.engagementIds,
    screenerId: row.screenerId,
    mediaChannelId: row.mediaChannelId,
    surveyId: row.surveyId,
    surveyVersion: row.surveyVersion,
    language: row.language,
    zipCode: row.zipCiphertext === null ? null : phi.open(row.zipCiphertext),
    country: row.country,
    nearestSiteMiles: row.nearestSiteMiles,
    consentedAt: row.consentedAt.toISOString(),
    consentText: row.consentText,
    consentTextSha256: row.consentTextSha256,
    duplicateOf: row.duplicateOf,
    created: row.created.toISOString(),
  };
}

export async function listLeads(
  db: Db,
  phi: PhiCipher,
  user: AuthUser,
  q: ListQuery<keyof typeof SORT_COLUMNS, LeadFilter>,
): Promise<{ rows: Lead[]; total: number }> {
  const where = and(leadScope(user), ...filterConditions(q.filters));
  const order = [...q.sort.map((t) => (t.desc ? desc(SORT_COLUMNS[t.field]) : asc(SORT_COLUMNS[t.field]))), desc(leads.id)];
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(leads)
      .where(where)
      .orderBy(...order)
      .limit(q.limit)
      .offset(q.offset),
    db.select({ n: count() }).from(leads).where(where),
  ]);
  return { rows: rows.map((r) => leadOf(r, phi)), total: total?.n ?? 0 };
}

export async function findLead(db: Db, phi: PhiCipher, user: AuthUser, id: number | null): Promise<Lead | null> {
  if (id === null) return null;
  const [row] = await db
    .select()
    .from(leads)
    .where(and(eq(leads.id, id), leadScope(user)));
  return row ? leadOf(row, phi) : null;
}

/** What keep.ts seals: contact field name to text or a ticked box. */
/** A lead's contact values, opened; null outside the user's scope. */
export async function revealLead(db: Db, phi: PhiCipher, user: AuthUser, id: number | null): Promise<LeadValues | null> {
  if (id === null) return null;
  const [row] = await db
    .select({ sealed: leads.valuesCiphertext })
    .from(leads)
    .where(and(eq(leads.id, id), leadScope(user)));
  return row ? v.parse(LeadValues, JSON.parse(phi.open(row.sealed))) : null;
}

/** Erases a lead on request: its row and its site matches go; a later duplicate of it stands on its own. */
export async function eraseLead(db: Db, user: AuthUser, id: number | null): Promise<boolean> {
  if (id === null) return false;
  const gone = await db
    .delete(leads)
    .where(and(eq(leads.id, id), leadScope(user)))
    .returning({ id: leads.id });
  return gone.length > 0;
}

export const LEAD_SORT_FIELDS = Object.keys(SORT_COLUMNS) as (keyof typeof SORT_COLUMNS)[];
