/** Sponsors list at scale: a page of 20 out of 10,000, by the default sort and by name. */
import { sql } from 'drizzle-orm';
import { benchApp, measure, type BenchRow } from './harness';

const SPONSORS = 10_000;

export default async function sponsorsList(): Promise<BenchRow[]> {
  const b = await benchApp();
  try {
    await b.db.execute(sql`
      insert into sponsors (name, identification, is_active, country_id)
      select 'Sponsor ' || lpad(g::text, 5, '0'), 'S' || g, g % 7 <> 0, (g % 240) + 1
      from generate_series(1, ${SPONSORS}) g`);
    await b.db.execute(sql`analyze sponsors`);
    const rows: BenchRow[] = [];
    for (const [label, query] of [
      ['default sort', 'page=250&limit=20'],
      ['sort=-name', 'page=250&limit=20&sort=-name'],
      ['searchQuery', 'limit=20&searchQuery=Sponsor%200999'],
    ] as const) {
      const { p95 } = await measure(async () => {
        const res = await b.app.request(`/api/sponsors?${query}`, { headers: { Authorization: `Bearer ${b.token}` } });
        if (res.status !== 200) throw new Error(`status ${res.status}`);
        await res.arrayBuffer();
      });
      rows.push({ figure: `sponsors list, ${SPONSORS} rows, ${label}, p95 (${b.kind})`, value: p95, unit: 'ms', budget: 100, lowerIsBetter: true });
    }
    return rows;
  } finally {
    await b.close();
  }
}
