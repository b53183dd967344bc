/**
 * A list's CSV export at scale: 100,000 audit events exported whole (`Accept: text/csv` on
 * GET /api/audit-events), the body read as a client would and counted, never kept. Reports the
 * time to the last byte and the peak memory the export added to the process (heap and buffers,
 * sampled while it runs, above the level before it), the largest of a few runs. Both reported
 * without a budget. The pages are read by keyset (each after the previous page's last row, in the
 * list's order), so no page skips the rows before it.
 */
import { sql } from 'drizzle-orm';
import { onEachBenchApp, type BenchRow, type BenchApp } from './harness';

const EVENTS = 100_000;
const RUNS = 3;

export default function csvExport(): Promise<BenchRow[]> {
  return onEachBenchApp(onApp);
}

const inUse = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.external + m.arrayBuffers;
};

async function onApp(b: BenchApp): Promise<BenchRow[]> {
  // Rows as the trail writes them, their hashes stand-ins: the list reads them, nothing checks the chain here.
  await b.db.execute(sql`
    insert into audit_events (occurred_at, actor_user_id, actor_username, client_address, entity, entity_id, action, changes, meta, prev_hash, hash)
    select now() - g * interval '1 minute', 1, 'admin', '203.0.113.' || (g % 250), 'sponsors', (g % 5000)::text, 'update',
           jsonb_build_object('name', jsonb_build_object('old', 'Sponsor ' || g, 'new', 'Sponsor ' || (g + 1))),
           jsonb_build_object('status', 200, 'requestId', md5(g::text)), md5((g - 1)::text), md5(g::text)
    from generate_series(1, ${EVENTS}) g`);
  await b.db.execute(sql`analyze audit_events`);
  const times: number[] = [];
  let peak = 0;
  for (let run = 0; run < RUNS; run++) {
    (globalThis as { gc?: () => void }).gc?.();
    const base = inUse();
    let high = base;
    const sampler = setInterval(() => (high = Math.max(high, inUse())), 5);
    const started = performance.now();
    const res = await b.app.request('/api/audit-events?action=update', { headers: { Authorization: `Bearer ${b.token}`, Accept: 'text/csv' } });
    if (res.status !== 200 || !res.body) throw new Error(`status ${res.status}: ${await res.text()}`);
    let lines = 0;
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const byte of value) if (byte === 10) lines++;
      high = Math.max(high, inUse());
    }
    times.push(performance.now() - started);
    clearInterval(sampler);
    peak = Math.max(peak, high - base);
    // The header, then a line per event (a cell with a line break would be quoted, and these have none).
    if (lines !== EVENTS + 1) throw new Error(`expected ${EVENTS + 1} lines, read ${lines}`);
  }
  times.sort((x, y) => x - y);
  return [
    {
      figure: `CSV export, ${EVENTS} audit events, time to the last byte, median of ${RUNS} (${b.kind})`,
      value: times[Math.floor(RUNS / 2)]! / 1000,
      unit: 's',
      budget: NaN,
      lowerIsBetter: true,
      informational: true,
    },
    {
      figure: `CSV export, ${EVENTS} audit events, peak memory added (${b.kind})`,
      value: peak / 2 ** 20,
      unit: 'MB',
      budget: NaN,
      lowerIsBetter: true,
      informational: true,
    },
  ];
}
