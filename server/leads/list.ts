/**
 * Leads as staff read them: the list (filters, sort, sponsor scope through the lead's
 * engagements), one lead, its contact values on an explicit reveal, and erasure. The ZIP is
 * opened for display; the contact values only by reveal().
 */
import { and, eq, gte, lt, or, sql, type SQL } from 'drizzle-orm';
import { LEAD_KINDS, LeadValues, isLeadKind, type Lead, type LeadFilter } from '@core/model/lead';
import * as v from 'valibot';
import type { AuthUser } from '../context';
import type { Db } from '../db/open';
import { rowWithId } from '../db/rows';
import { leads, leadSiteMatches } from '../db/schema';
import { sponsorScope } from '../auth/guards';
import { siteScope } from '../referrals';
import { booleanParam, choiceParam, idParam, instantParam, textParam, type ParamValues, type QueryParam } from '../http/params';
import { tablePage } from '../http/list';
import type { ListQuery } from '../http/query';
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

/** The list's filters, each read as its type (a malformed value is a 400 naming it). */
export const LEAD_LIST_FILTERS = {
  kind: choiceParam(LEAD_KINDS),
  engagementId: idParam('engagement'),
  screenerId: idParam('screener'),
  mediaChannelId: idParam('media channel'),
  language: textParam('Only leads in this language (its code).'),
  engagementSiteLocationId: idParam('engagement site location', 'Only leads matched to this engagement site location (its id).'),
  siteLocationId: idParam('site location', 'Only leads matched to this site location, for any engagement (its id).'),
  withinReach: {
    ...booleanParam,
    description: "true: only leads matched to a site that opened within reach (of engagementId's sites, when given); false: only the others.",
  },
  from: instantParam('from'),
  to: instantParam('to'),
} satisfies Record<LeadFilter, QueryParam<unknown>>;

/** The conditions the list's filters select. */
function filterConditions(filters: ParamValues<typeof LEAD_LIST_FILTERS>): SQL[] {
  const out: SQL[] = [];
  const { kind, engagementId, screenerId, mediaChannelId, language, engagementSiteLocationId: linkId, siteLocationId, withinReach, from, to } = filters;
  if (kind !== undefined) out.push(eq(leads.kind, kind));
  if (engagementId !== undefined) out.push(sql`${engagementId} = any(${leads.engagementIds})`);
  if (screenerId !== undefined) out.push(eq(leads.screenerId, screenerId));
  if (mediaChannelId !== undefined) out.push(eq(leads.mediaChannelId, mediaChannelId));
  if (language !== undefined) out.push(eq(leads.language, language));
  if (linkId !== undefined) {
    out.push(sql`exists (select 1 from ${leadSiteMatches} m where m.lead_id = ${leads.id} and m.engagement_site_location_id = ${linkId})`);
  }
  if (siteLocationId !== undefined) {
    out.push(
      sql`exists (select 1 from ${leadSiteMatches} m join engagement_site_locations l on l.id = m.engagement_site_location_id where m.lead_id = ${leads.id} and l.site_location_id = ${siteLocationId})`,
    );
  }
  if (withinReach !== undefined) {
    // Of the engagement filtered on, when there is one: its own sites' matches.
    const link = engagementId === undefined ? sql`` : sql` and l.engagement_id = ${engagementId}`;
    const matched = sql`exists (select 1 from ${leadSiteMatches} m join engagement_site_locations l on l.id = m.engagement_site_location_id where m.lead_id = ${leads.id}${link})`;
    out.push(withinReach ? matched : sql`not ${matched}`);
  }
  if (from) out.push(gte(leads.created, from));
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
  q: ListQuery<keyof typeof SORT_COLUMNS, typeof LEAD_LIST_FILTERS>,
): Promise<{ rows: Lead[]; total: number | null }> {
  const where = and(leadScope(user), ...filterConditions(q.filters));
  const { rows, total } = await tablePage(db, leads, q, { where, sorts: SORT_COLUMNS, id: leads.id, idDesc: true });
  return { rows: rows.map((r) => leadOf(r, phi)), total };
}

export async function findLead(db: Db, phi: PhiCipher, user: AuthUser, id: number | null): Promise<Lead | null> {
  const row = await rowWithId(db.select().from(leads), leads.id, id, leadScope(user));
  return row ? leadOf(row, phi) : null;
}

/** What keep.ts seals: contact field name to text or a ticked box. */
/** A lead's contact values, opened; null outside the user's scope. */
export async function revealLead(db: Db, phi: PhiCipher, user: AuthUser, id: number | null): Promise<LeadValues | null> {
  const row = await rowWithId(db.select({ sealed: leads.valuesCiphertext }).from(leads), leads.id, id, leadScope(user));
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
