/**
 * The sponsors list's figures (activeEngagements ... totalRandomizedReferrals), computed in one
 * SQL statement for a page of sponsors: each figure is an index-backed aggregate over that
 * sponsor's engagements (engagements_sponsor_idx), their site links
 * (engagement_site_locations_pair_idx) and their referrals (referrals_engagement_idx). Referrals
 * count once delivered (referrals/delivered.ts): the figures sponsors are billed by; duplicates (the
 * same person again within an engagement's window, never sent) are counted apart.
 */
import { sql } from 'drizzle-orm';
import type { SponsorFigure } from '@core/model/sponsor';
import type { Db } from '../db/open';
import { rowsOf } from '../db/rows';
import { isDeliveredReferral } from '../referrals';

export type SponsorFigures = Record<SponsorFigure, number>;

export async function sponsorFigures(db: Db, sponsorIds: readonly number[]): Promise<Map<number, SponsorFigures>> {
  const out = new Map<number, SponsorFigures>();
  if (sponsorIds.length === 0) return out;
  const ids = sql.join(
    sponsorIds.map((id) => sql`${id}::int`),
    sql`, `,
  );
  const result = await db.execute(sql`
    select s.id as "id", e.active, e.total, st.sites, r.referrals, r.screened, r.randomized, d.duplicates
    from unnest(array[${ids}]) as s(id)
    cross join lateral (
      select count(*) filter (where en.is_active) as active, count(*) as total
      from engagements en where en.sponsor_id = s.id
    ) e
    cross join lateral (
      select count(distinct l.site_location_id) as sites
      from engagements en join engagement_site_locations l on l.engagement_id = en.id
      where en.sponsor_id = s.id
    ) st
    cross join lateral (
      select count(*) as referrals,
             count(*) filter (where rf.is_screened) as screened,
             count(*) filter (where rf.is_randomized) as randomized
      from engagements en join referrals rf on rf.engagement_id = en.id
      where en.sponsor_id = s.id and ${isDeliveredReferral(sql.raw('rf.contact_id'))}
    ) r
    cross join lateral (
      select count(*) as duplicates
      from engagements en join contacts c on c.engagement_id = en.id
      where en.sponsor_id = s.id and c.duplicate_of is not null
    ) d`);
  for (const row of rowsOf(result)) {
    out.set(Number(row.id), {
      activeEngagements: Number(row.active),
      totalEngagements: Number(row.total),
      totalSites: Number(row.sites),
      totalReferrals: Number(row.referrals),
      duplicateReferrals: Number(row.duplicates),
      totalScreenedReferrals: Number(row.screened),
      totalRandomizedReferrals: Number(row.randomized),
    });
  }
  return out;
}
