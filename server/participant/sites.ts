/**
 * The active sites of active engagements and how far a participant is from each: the trial
 * sites offered (within each link's radius, not paused and not at a cap at the server's clock:
 * a full site gives way to the next nearest with room), and for a lead the nearest site at any
 * distance.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/open';
import { countries, engagementSiteLocations, engagements, mediaChannels, siteLocations } from '../db/schema';
import { DEFAULT_CHANNEL_LOCALE, distanceUnitOf, localeRegion } from '@core/model/channelLocale';
import { haversineMiles, zipCentroid, type LatLon } from './distance';
import { placeCentroid } from './places';
import { linksWithRoom, type SiteCaps } from '../sites';

export interface TrialSiteMatch {
  engagementSiteLocationId: number;
  engagementId: number;
  name: string;
  address1: string | null;
  address2: string | null;
  city: string | null;
  state: string | null;
  zipCode: string | null;
  distanceMiles: number;
}

interface SiteDistance extends TrialSiteMatch {
  /** Unrounded, with the radius that applies to the link. */
  miles: number;
  radiusMiles: number;
  caps: SiteCaps;
}

/**
 * Where a site is: its own coordinates when it has them, else its ZIP code's centroid (US), else
 * its postal code or town in its country (places.ts).
 */
export const siteAt = (
  site: { latitude: number | null; longitude: number | null; zipCode: string | null; city?: string | null },
  country: string | null = null,
): LatLon | null =>
  site.latitude !== null && site.longitude !== null
    ? { latitude: site.latitude, longitude: site.longitude }
    : (zipCentroid(site.zipCode) ?? (country && country !== 'US' ? placeCentroid(country, site.zipCode, site.city ?? null) : null));

/** The radius a site link reaches: its own, else its engagement's, else the default. */
/** SPEC: an engagement's radius defaults to 25 miles. */
export const DEFAULT_RADIUS_MILES = 25;

export const radiusOf = (linkRadius: number | null, engagementRadius: number | null): number => linkRadius ?? engagementRadius ?? DEFAULT_RADIUS_MILES;

async function siteDistances(db: Db, engagementIds: readonly number[], from: LatLon): Promise<SiteDistance[]> {
  if (engagementIds.length === 0) return [];
  const rows = await db
    .select({ link: engagementSiteLocations, site: siteLocations, engagementRadius: engagements.radius, country: countries.isoCode })
    .from(engagementSiteLocations)
    .innerJoin(siteLocations, eq(siteLocations.id, engagementSiteLocations.siteLocationId))
    .leftJoin(countries, eq(countries.id, siteLocations.countryId))
    .innerJoin(engagements, eq(engagements.id, engagementSiteLocations.engagementId))
    .where(
      and(
        inArray(engagementSiteLocations.engagementId, [...engagementIds]),
        eq(engagementSiteLocations.isActive, true),
        eq(siteLocations.isActive, true),
        eq(engagements.isActive, true),
      ),
    );
  const out: SiteDistance[] = [];
  for (const { link, site, engagementRadius, country } of rows) {
    const at = siteAt(site, country);
    if (!at) continue;
    const miles = haversineMiles(from, at);
    out.push({
      engagementSiteLocationId: link.id,
      engagementId: link.engagementId,
      name: site.name,
      address1: site.streetAddress,
      address2: site.unitNumber,
      city: site.city,
      state: site.state,
      zipCode: site.zipCode,
      distanceMiles: Math.round(miles * 10) / 10,
      miles,
      radiusMiles: radiusOf(link.radius, engagementRadius),
      caps: { weeklyCap: link.weeklyCap, totalCap: link.totalCap, isPaused: link.isPaused },
    });
  }
  return out;
}

/** The active sites of active engagements `engagementIds` a participant at `from` can reach and that take a referral at `now`, nearest first. */
export async function nearestSites(db: Db, engagementIds: readonly number[], from: LatLon, now: Date): Promise<TrialSiteMatch[]> {
  const reached = (await siteDistances(db, engagementIds, from)).filter((s) => s.miles <= s.radiusMiles);
  const room = await linksWithRoom(
    db,
    reached.map((s) => ({ id: s.engagementSiteLocationId, ...s.caps })),
    now,
  );
  return reached
    .filter((s) => room.has(s.engagementSiteLocationId))
    .map(({ caps: _caps, miles: _miles, radiusMiles: _radius, ...site }) => site)
    .sort((a, b) => a.distanceMiles - b.distanceMiles || a.name.localeCompare(b.name) || a.engagementSiteLocationId - b.engagementSiteLocationId);
}

/** Miles (to 0.1) from `from` to the nearest active site of `engagementIds`, however far; null when there is none. */
export async function nearestSiteMiles(db: Db, engagementIds: readonly number[], from: LatLon): Promise<number | null> {
  const all = await siteDistances(db, engagementIds, from);
  return all.length === 0 ? null : Math.min(...all.map((s) => s.distanceMiles));
}

/**
 * The countries (ISO codes, a site without one counted as US) of the sites a participant who
 * qualified for `engagementIds` may be offered, with the US always first (the ZIP code stays the
 * default): the widget asks for a country only when one of them is elsewhere.
 */
export async function siteCountries(db: Db, engagementIds: readonly number[]): Promise<string[]> {
  if (engagementIds.length === 0) return [];
  const rows = await db
    .selectDistinct({ country: countries.isoCode })
    .from(engagementSiteLocations)
    .innerJoin(siteLocations, eq(siteLocations.id, engagementSiteLocations.siteLocationId))
    .leftJoin(countries, eq(countries.id, siteLocations.countryId))
    .where(
      and(inArray(engagementSiteLocations.engagementId, [...engagementIds]), eq(engagementSiteLocations.isActive, true), eq(siteLocations.isActive, true)),
    );
  const codes = new Set(['US', ...rows.map((r) => r.country ?? 'US')]);
  return [...codes].sort((a, b) => (a === 'US' ? -1 : b === 'US' ? 1 : a.localeCompare(b)));
}

/**
 * The region of `mediaChannelId`'s locale (ISO 3166-1: CA for en-CA): whose postal codes the
 * run's ZIP questions and ZIP contact fields take. A run with no channel (a survey's own link)
 * has the default locale's, the US.
 */
export async function channelRegion(db: Db, mediaChannelId: number | null): Promise<string> {
  const [channel] =
    mediaChannelId === null ? [] : await db.select({ locale: mediaChannels.locale }).from(mediaChannels).where(eq(mediaChannels.id, mediaChannelId));
  return regionOfChannel(channel ?? null);
}

/** channelRegion of a channel already read (a run's target's): the US without one. */
export const regionOfChannel = (channel: { locale: string } | null): string => regionOfLocale(channel?.locale ?? null);

/** channelRegion of a channel's locale already read; null: no channel, the US. */
export const regionOfLocale = (locale: string | null): string => localeRegion(locale ?? DEFAULT_CHANNEL_LOCALE);

/**
 * The unit a participant of `mediaChannelId` reads distances in: the channel's locale's region
 * decides (en-CA: kilometres), not the participant's country. A run with no channel (a survey's
 * own link) reads them as the default locale does, in miles.
 */
export async function channelDistanceUnit(db: Db, mediaChannelId: number | null): Promise<'mi' | 'km'> {
  return distanceUnitOf(await channelRegion(db, mediaChannelId));
}
