/**
 * An engagement's sites kept in step with a ClinicalTrials.gov study: a plan (what is new,
 * what changed, what closed; nothing written), then the plan applied in one transaction.
 * Applying the same record again changes nothing. A site of the study that is no longer in the
 * record, or whose location stopped recruiting, is closed: its site location and its link to the
 * engagement are deactivated (kept, with their referrals).
 */
import { and, eq, inArray, like, sql } from 'drizzle-orm';
import type { Db } from '../db/open';
import { countries, engagementSiteLocations, siteLocations } from '../db/schema';
import { StudyRefused, type StudySite, type StudySites } from './study';

/** ClinicalTrials.gov's country names that differ from the countries table's English names. */
const COUNTRY_ALIASES: Record<string, string> = {
  'korea, republic of': 'KR',
  "korea, democratic people's republic of": 'KP',
  'iran, islamic republic of': 'IR',
  'russian federation': 'RU',
  'czech republic': 'CZ',
  'viet nam': 'VN',
  'moldova, republic of': 'MD',
  'macedonia, the former yugoslav republic of': 'MK',
  'syrian arab republic': 'SY',
  "lao people's democratic republic": 'LA',
  'tanzania, united republic of': 'TZ',
  'congo, the democratic republic of the': 'CD',
  turkey: 'TR',
  taiwan: 'TW',
  'hong kong': 'HK',
};

export interface SitePreview {
  siteId: string;
  name: string;
  city: string | null;
  state: string | null;
  zipCode: string | null;
  country: string | null;
  status: string | null;
  isActive: boolean;
  /** For a changed site: the fields that change. */
  changes?: string[];
}

export interface SyncPlan {
  nctId: string;
  title: string | null;
  new: SitePreview[];
  changed: SitePreview[];
  closed: SitePreview[];
  unchanged: number;
  /** What applying writes. */
  writes: { site: StudySite & { countryId: number | null }; existingId: number | null }[];
  closing: number[];
}

const preview = (s: StudySite, changes?: string[]): SitePreview => ({
  siteId: s.siteId,
  name: s.name,
  city: s.city,
  state: s.state,
  zipCode: s.zipCode,
  country: s.country,
  status: s.status,
  isActive: s.isActive,
  ...(changes ? { changes } : {}),
});

/** What importing `study` for engagement `engagementId` would do; writes nothing. */
export async function planSync(db: Db, engagementId: number, study: StudySites): Promise<SyncPlan> {
  const countryRows = await db.select().from(countries);
  const byName = new Map(countryRows.map((c) => [c.name.toLowerCase(), c.id]));
  const byIso = new Map(countryRows.map((c) => [c.isoCode, c.id]));
  const countryOf = (name: string | null): number | null | undefined => {
    if (name === null) return null;
    const key = name.toLowerCase();
    return byName.get(key) ?? (COUNTRY_ALIASES[key] ? byIso.get(COUNTRY_ALIASES[key]) : undefined);
  };
  const issues = study.sites.flatMap((s) =>
    countryOf(s.country) === undefined
      ? [
          {
            path: `/protocolSection/contactsLocationsModule/locations/${s.index}/country`,
            detail: `Location ${s.index + 1} (${s.name}): country '${s.country}' is not a known country.`,
          },
        ]
      : [],
  );
  if (issues.length > 0) throw new StudyRefused(issues);

  const keys = study.sites.map((s) => s.siteId);
  const existing = keys.length === 0 ? [] : await db.select().from(siteLocations).where(inArray(siteLocations.siteId, keys));
  const byKey = new Map(existing.map((s) => [s.siteId!, s]));
  const links = await db
    .select({ siteLocationId: engagementSiteLocations.siteLocationId, isActive: engagementSiteLocations.isActive, site: siteLocations })
    .from(engagementSiteLocations)
    .innerJoin(siteLocations, eq(siteLocations.id, engagementSiteLocations.siteLocationId))
    .where(and(eq(engagementSiteLocations.engagementId, engagementId), like(siteLocations.siteId, `${study.nctId}-%`)));
  const linkOf = new Map(links.map((l) => [l.siteLocationId, l]));

  const plan: SyncPlan = { nctId: study.nctId, title: study.title, new: [], changed: [], closed: [], unchanged: 0, writes: [], closing: [] };
  for (const s of study.sites) {
    const countryId = countryOf(s.country) ?? null;
    const row = byKey.get(s.siteId);
    const write = { site: { ...s, countryId }, existingId: row?.id ?? null };
    if (!row) {
      plan.new.push(preview(s));
      plan.writes.push(write);
      continue;
    }
    const link = linkOf.get(row.id);
    const changes = (
      [
        ['name', row.name, s.name],
        ['city', row.city, s.city],
        ['state', row.state, s.state],
        ['zipCode', row.zipCode, s.zipCode],
        ['country', row.countryId, countryId],
        ['latitude', row.latitude, s.latitude],
        ['longitude', row.longitude, s.longitude],
        ['piName', row.piName, s.piName],
      ] as const
    )
      .filter(([, a, b]) => a !== b)
      .map(([name]) => name as string);
    const activeNow = row.isActive && (link?.isActive ?? false);
    if (!link) changes.push('link');
    if (activeNow && !s.isActive) {
      plan.closed.push(preview(s, changes));
      plan.writes.push(write);
    } else if (changes.length > 0 || activeNow !== s.isActive) {
      if (activeNow !== s.isActive) changes.push('isActive');
      plan.changed.push(preview(s, changes));
      plan.writes.push(write);
    } else plan.unchanged += 1;
  }
  // Sites of the study linked before and gone from the record: closed.
  const inRecord = new Set(keys);
  for (const l of links) {
    if (inRecord.has(l.site.siteId!) || !(l.isActive && l.site.isActive)) continue;
    plan.closed.push({
      siteId: l.site.siteId!,
      name: l.site.name,
      city: l.site.city,
      state: l.site.state,
      zipCode: l.site.zipCode,
      country: null,
      status: null,
      isActive: false,
    });
    plan.closing.push(l.siteLocationId);
  }
  return plan;
}

/** Applies a plan in one transaction: all of it or nothing. */
export async function applySync(db: Db, engagementId: number, plan: SyncPlan): Promise<{ siteLocationIds: number[] }> {
  return db.transaction(async (tx) => {
    const touched: number[] = [];
    for (const { site, existingId } of plan.writes) {
      const values = {
        name: site.name,
        description: `ClinicalTrials.gov ${plan.nctId}`,
        city: site.city,
        state: site.state,
        zipCode: site.zipCode,
        countryId: site.countryId,
        latitude: site.latitude,
        longitude: site.longitude,
        piName: site.piName,
        isActive: site.isActive,
      };
      let id = existingId;
      if (id === null) {
        const [made] = await tx
          .insert(siteLocations)
          .values({ ...values, siteId: site.siteId })
          .returning({ id: siteLocations.id });
        id = made!.id;
      } else {
        await tx
          .update(siteLocations)
          .set({ ...values, modified: sql`now()` })
          .where(eq(siteLocations.id, id));
      }
      touched.push(id);
      await tx
        .insert(engagementSiteLocations)
        .values({ engagementId, siteLocationId: id, isActive: site.isActive })
        .onConflictDoUpdate({
          target: [engagementSiteLocations.engagementId, engagementSiteLocations.siteLocationId],
          set: { isActive: site.isActive, modified: sql`now()` },
        });
    }
    if (plan.closing.length > 0) {
      await tx.update(siteLocations).set({ isActive: false, modified: sql`now()` }).where(inArray(siteLocations.id, plan.closing));
      await tx
        .update(engagementSiteLocations)
        .set({ isActive: false, modified: sql`now()` })
        .where(and(eq(engagementSiteLocations.engagementId, engagementId), inArray(engagementSiteLocations.siteLocationId, plan.closing)));
      touched.push(...plan.closing);
    }
    return { siteLocationIds: touched };
  });
}
