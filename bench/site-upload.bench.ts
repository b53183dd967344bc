/** The site list upload at scale: a 10,000-row CSV creating and linking 10,000 sites in one transaction. */
import { sql } from 'drizzle-orm';
import { onEachBenchApp, type BenchRow, type BenchApp } from './harness';

const ROWS = 10_000;

function csv(prefix: string): string {
  const lines = [
    'site_id,name,street_address,city,state,zip_code,country,latitude,longitude,pi_name,site_location_type,irb_type,radius,rms_site_identification',
  ];
  for (let i = 1; i <= ROWS; i++) {
    lines.push(
      `${prefix}-${i},Site ${i},${i} Main Street,City ${i % 500},ST,${String(10000 + i).padStart(5, '0')},US,${(25 + (i % 20)).toFixed(4)},${(-120 + (i % 50)).toFixed(4)},Dr. ${i},clinical_research_center,local,${10 + (i % 90)},RMS-${i}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

export default function siteUpload(): Promise<BenchRow[]> {
  return onEachBenchApp(onApp);
}

async function onApp(b: BenchApp): Promise<BenchRow[]> {
  await b.db.execute(sql`insert into sponsors (name, identification) values ('Bench Sponsor', 'BENCH')`);
  await b.db.execute(
    sql`insert into engagements (name, identification, sponsor_id) select 'Study ' || g, 'BENCH-' || g, (select id from sponsors where identification = 'BENCH') from generate_series(1, 2) g`,
  );
  const ids = (await b.db.execute(sql`select id from engagements order by id`)) as unknown as { rows: { id: number }[] };
  const rows: BenchRow[] = [];
  for (const [label, engagementId, prefix] of [
    ['new sites', ids.rows[0]!.id, 'NEW'],
    ['same sites again', ids.rows[0]!.id, 'NEW'],
  ] as const) {
    const body = new FormData();
    body.set('file', new Blob([csv(prefix)], { type: 'text/csv' }), 'sites.csv');
    const started = performance.now();
    const res = await b.app.request(`/api/engagements-site-locations/upload/${engagementId}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${b.token}` },
      body,
    });
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`status ${res.status}: ${await res.text()}`);
    const { meta } = (await res.json()) as { meta: { rows: number } };
    if (meta.rows !== ROWS) throw new Error(`imported ${meta.rows} rows`);
    rows.push({ figure: `site upload, ${ROWS} CSV rows, ${label} (${b.kind})`, value: ms / 1000, unit: 's', budget: 10, lowerIsBetter: true });
  }
  return rows;
}
