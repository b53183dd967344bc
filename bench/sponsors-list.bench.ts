/**
 * Sponsors list at scale: a page of 20 out of 10,000 sponsors with 100,000 engagements,
 * 200,000 site links and 100,000 referrals behind the list's figures, by the default sort,
 * by name and by search.
 */
import { sql } from 'drizzle-orm';
import { onEachBenchApp, measure, type BenchRow, type BenchApp } from './harness';

const SPONSORS = 10_000;
const ENGAGEMENTS = 100_000;
const SITES = 20_000;

export default function sponsorsList(): Promise<BenchRow[]> {
  return onEachBenchApp(onApp);
}

async function onApp(b: BenchApp): Promise<BenchRow[]> {
  await b.db.execute(sql`
    insert into sponsors (name, identification, is_active, country_id)
    select 'Sponsor ' || lpad(g::text, 5, '0'), 'S' || g, g % 7 <> 0, (g % 240) + 1
    from generate_series(1, ${SPONSORS}) g`);
  await b.db.execute(sql`
    insert into engagements (name, identification, sponsor_id, is_active, end_date)
    select 'Study ' || g, 'E' || g, (g % ${SPONSORS}) + 1, g % 3 <> 0, date '2026-01-01' + (g % 365)
    from generate_series(1, ${ENGAGEMENTS}) g`);
  await b.db.execute(sql`
    insert into site_locations (site_id, name) select 'SITE-' || g, 'Site ' || g from generate_series(1, ${SITES}) g`);
  // Two sites per engagement.
  await b.db.execute(sql`
    insert into engagement_site_locations (engagement_id, site_location_id)
    select e, ((e * 7 + k) % ${SITES}) + 1 from generate_series(1, ${ENGAGEMENTS}) e, generate_series(0, 1) k`);
  await b.db.execute(sql`
    insert into referrals (engagement_id, is_screened, is_randomized)
    select (g % ${ENGAGEMENTS}) + 1, g % 2 = 0, g % 5 = 0 from generate_series(1, ${ENGAGEMENTS}) g`);
  for (const table of ['sponsors', 'engagements', 'site_locations', 'engagement_site_locations', 'referrals']) {
    await b.db.execute(sql.raw(`analyze ${table}`));
  }
  const rows: BenchRow[] = [];
  for (const [label, query] of [
    ['default sort', 'page=250&limit=20'],
    ['sort=-name', 'page=250&limit=20&sort=-name'],
    ['searchQuery', 'limit=20&searchQuery=Sponsor%200999'],
  ] as const) {
    const { p95 } = await measure(async () => {
      const res = await b.app.request(`/api/sponsors?${query}`, { headers: { Authorization: `Bearer ${b.token}` } });
      if (res.status !== 200) throw new Error(`status ${res.status}`);
      const doc = (await res.json()) as { data: { attributes: { totalEngagements: number } }[] };
      if (label === 'default sort' && !(doc.data[0]!.attributes.totalEngagements > 0)) throw new Error('figures missing');
    });
    rows.push({
      figure: `sponsors list with figures, ${SPONSORS} sponsors / ${ENGAGEMENTS} engagements, ${label}, p95 (${b.kind})`,
      value: p95,
      unit: 'ms',
      budget: 100,
      lowerIsBetter: true,
    });
  }
  return rows;
}
