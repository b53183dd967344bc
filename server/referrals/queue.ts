/**
 * The work queue: referrals as recruiters and site coordinators see them, with their service
 * levels worked out at the server's instant. A referral's next step is due at its planned
 * attempt, else (never reached yet) at its engagement's first-contact hours after it was made;
 * it is overdue once that instant has passed, and stale when open and untouched (no status
 * change, no attempt) for the engagement's stale days. Closed referrals are neither.
 */
import { and, eq, gte, inArray, lt, not, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { CLOSED_REFERRAL_STATUSES, REFERRAL_STATUSES, nextReferralStatuses, type Referral, type ReferralStatus } from '@core/model/referral';
import type { Db } from '../db/open';
import { contacts, engagementSiteLocations, engagements, referralReasons, referrals, rmsDeliveries, siteLocations } from '../db/schema';
import { BadParameter } from '../errors';
import { filterConditions, idFilter, type ListFilters } from '../http/filters';
import { booleanParam, dayParam, type ParamValues } from '../http/params';
import { countOf, joinedPage } from '../http/list';
import type { ListQuery } from '../http/query';
import { openContactValues } from '../security/sealedValues';
import type { PhiCipher } from '../security/phi';
import { storedStatus } from './ladder';
import { startOfDay, startOfNextDay } from '@core/time';

const closed = sql.join(
  CLOSED_REFERRAL_STATUSES.map((s) => sql`${s}`),
  sql`, `,
);
const isOpen = sql`${referrals.status} not in (${closed})`;

/** When the referral's next step is due (null: closed, or reached with no attempt planned). */
export const dueAt = sql<Date | null>`case when ${isOpen} then coalesce(${referrals.nextAttemptDue}, case when ${referrals.firstContactAt} is null then ${referrals.created} + ${engagements.firstContactHours} * interval '1 hour' end) end`;
const lastTouched = sql`greatest(${referrals.created}, ${referrals.statusChanged}, ${referrals.lastAttemptAt})`;

export const overdueAt = (now: Date): SQL<boolean> => sql<boolean>`coalesce(${dueAt} < ${now.toISOString()}::timestamptz, false)`;
export const staleAt = (now: Date): SQL<boolean> =>
  sql<boolean>`(${isOpen} and ${lastTouched} < ${now.toISOString()}::timestamptz - ${engagements.staleDays} * interval '1 day')`;

export const REFERRAL_SORTS = ['created', 'due', 'status', 'statusChanged', 'lastAttemptAt', 'attempts', 'engagementName', 'siteName'] as const;
export type ReferralSort = (typeof REFERRAL_SORTS)[number];

export const referralSortColumns: Record<ReferralSort, SQL | AnyColumn> = {
  created: referrals.created,
  // Nothing due sorts after everything due, whichever the direction.
  due: sql`coalesce(${dueAt}, 'infinity'::timestamptz)`,
  status: referrals.status,
  statusChanged: sql`coalesce(${referrals.statusChanged}, ${referrals.created})`,
  lastAttemptAt: sql`coalesce(${referrals.lastAttemptAt}, '-infinity'::timestamptz)`,
  attempts: referrals.attempts,
  engagementName: engagements.name,
  siteName: siteLocations.name,
};

const staticFilters = {
  id: idFilter(referrals.id, 'referral'),
  engagementId: idFilter(referrals.engagementId, 'engagement'),
  siteLocationId: idFilter(engagementSiteLocations.siteLocationId, 'site location'),
  status: {
    description: `Statuses, comma-separated, among: ${REFERRAL_STATUSES.join(', ')}.`,
    schema: { type: 'string', pattern: `^(${REFERRAL_STATUSES.join('|')})(,(${REFERRAL_STATUSES.join('|')}))*$` },
    parse: (value, name) => {
      const statuses = value.split(',').map((s) => s.trim());
      const wrong = statuses.find((s) => !(REFERRAL_STATUSES as readonly string[]).includes(s));
      if (wrong !== undefined) throw new BadParameter(`'${name}' must list statuses among: ${REFERRAL_STATUSES.join(', ')}.`, name);
      return inArray(referrals.status, statuses as ReferralStatus[]);
    },
  },
} satisfies ListFilters;

/** The queue's filters: the conditions above; overdue and stale, read at the instant of the request; the days created. */
export const REFERRAL_FILTERS = {
  ...staticFilters,
  overdue: booleanParam,
  stale: booleanParam,
  createdFrom: dayParam('from'),
  createdTo: dayParam('to'),
};
export type ReferralFilter = typeof REFERRAL_FILTERS;

const flag = (value: boolean | undefined, condition: SQL) => (value === undefined ? undefined : value ? condition : not(condition));

/** The queue's named filters as conditions at instant `now`. */
export function referralConditions(filters: ParamValues<ReferralFilter>, now: Date): (SQL | undefined)[] {
  return [
    ...filterConditions(filters, staticFilters),
    flag(filters.overdue, overdueAt(now)),
    flag(filters.stale, staleAt(now)),
    filters.createdFrom ? gte(referrals.created, startOfDay(filters.createdFrom)) : undefined,
    filters.createdTo ? lt(referrals.created, startOfNextDay(filters.createdTo)) : undefined,
  ];
}

const columns = (now: Date) => ({
  id: referrals.id,
  status: referrals.status,
  reasonId: referrals.reasonId,
  reasonName: referralReasons.name,
  reasonNoteCiphertext: referrals.reasonNoteCiphertext,
  engagementId: referrals.engagementId,
  engagementName: engagements.name,
  sponsorId: engagements.sponsorId,
  siteLocationId: siteLocations.id,
  siteName: siteLocations.name,
  contactCiphertext: contacts.valuesCiphertext,
  created: referrals.created,
  statusChanged: referrals.statusChanged,
  firstContactAt: referrals.firstContactAt,
  attempts: referrals.attempts,
  lastAttemptAt: referrals.lastAttemptAt,
  nextAttemptDue: referrals.nextAttemptDue,
  due: sql<string | null>`${dueAt}`,
  overdue: overdueAt(now),
  stale: staleAt(now),
  deliveryStatus: rmsDeliveries.status,
});

const joined = (db: Db, now: Date) =>
  db
    .select(columns(now))
    .from(referrals)
    .innerJoin(engagements, eq(engagements.id, referrals.engagementId))
    .leftJoin(engagementSiteLocations, eq(engagementSiteLocations.id, referrals.engagementSiteLocationId))
    .leftJoin(siteLocations, eq(siteLocations.id, engagementSiteLocations.siteLocationId))
    .leftJoin(referralReasons, eq(referralReasons.id, referrals.reasonId))
    .leftJoin(contacts, eq(contacts.id, referrals.contactId))
    .leftJoin(rmsDeliveries, eq(rmsDeliveries.contactId, referrals.contactId));

type Row = Awaited<ReturnType<ReturnType<typeof joined>['execute']>>[number];

const INITIAL_FIELDS = [/^(first|given)(_?name)?$/i, /^(last|family|sur)(_?name)?$/i];

/** The participant's initials (first and last name), the most the queue shows before a reveal. */
function initialsOf(phi: PhiCipher, sealed: string | null): string | null {
  if (!sealed) return null;
  const values = openContactValues(phi, sealed);
  const letters = INITIAL_FIELDS.map((pattern) => {
    const entry = Object.entries(values).find(([name, value]) => pattern.test(name) && typeof value === 'string' && value.trim() !== '');
    return entry ? String(entry[1]).trim().charAt(0).toUpperCase() : '';
  }).join('');
  return letters === '' ? null : letters;
}

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

function toReferral(phi: PhiCipher, row: Row): Referral {
  const status = storedStatus(row.status);
  return {
    id: String(row.id),
    status,
    reasonId: row.reasonId,
    reasonName: row.reasonName,
    reasonNote: row.reasonNoteCiphertext ? phi.open(row.reasonNoteCiphertext) : null,
    engagementId: row.engagementId,
    engagementName: row.engagementName,
    siteLocationId: row.siteLocationId,
    siteName: row.siteName,
    initials: initialsOf(phi, row.contactCiphertext),
    created: row.created.toISOString(),
    statusChanged: iso(row.statusChanged),
    firstContactAt: iso(row.firstContactAt),
    attempts: row.attempts,
    lastAttemptAt: iso(row.lastAttemptAt),
    nextAttemptDue: iso(row.nextAttemptDue),
    due: iso(row.due),
    overdue: Boolean(row.overdue),
    stale: Boolean(row.stale),
    deliveryStatus: row.deliveryStatus,
    allowedStatuses: nextReferralStatuses(status),
  };
}

/** One page of the referrals `where` selects (the caller's scope and filters). */
export async function referralPage(db: Db, phi: PhiCipher, now: Date, q: Pick<ListQuery<ReferralSort>, 'sort' | 'limit' | 'offset'>, where: SQL | undefined) {
  const counted = countOf(db, referrals)
    .innerJoin(engagements, eq(engagements.id, referrals.engagementId))
    .leftJoin(engagementSiteLocations, eq(engagementSiteLocations.id, referrals.engagementSiteLocationId))
    .$dynamic();
  const { rows, total } = await joinedPage(joined(db, now).$dynamic(), counted, q, { where, sorts: referralSortColumns, id: referrals.id });
  return { referrals: rows.map((r) => toReferral(phi, r)), total };
}

/** Referral `id` when `scope` lets the caller see it. */
export async function findReferral(db: Db, phi: PhiCipher, now: Date, id: number, scope: SQL | undefined) {
  const [row] = await joined(db, now).where(and(eq(referrals.id, id), scope));
  return row ? toReferral(phi, row) : undefined;
}

/** The participant's contact values of referral `id` (the caller has checked its scope). */
export async function contactValuesOf(db: Db, phi: PhiCipher, id: number): Promise<Record<string, unknown> | null> {
  const [row] = await db
    .select({ sealed: contacts.valuesCiphertext })
    .from(referrals)
    .innerJoin(contacts, eq(contacts.id, referrals.contactId))
    .where(eq(referrals.id, id));
  return row ? openContactValues(phi, row.sealed) : null;
}
