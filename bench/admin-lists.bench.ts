/**
 * Admin lists at scale (issue 10, item 3): 10,000 sponsors, 100,000 engagements, 1,000,000
 * submissions and 100,000 contacts (with 200,000 site links, 100,000 referrals, 20,000 sites,
 * 20,000 media channels whose figures count those submissions, and one record-system audit per
 * contact), then a page of 20 of each admin list — sponsors with their figures, engagements, site
 * locations, media channels with their figures, RMS audits — by its default sort and by one
 * other column. The page is deep in the list (offset 4,980): the first page flatters.
 */
import { sql } from 'drizzle-orm';
import { onEachBenchApp, measure, type BenchRow, type BenchApp } from './harness';

/** BENCH_SCALE=0.1 for a quick look while developing; the budget is for 1. */
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const n = (count: number) => Math.max(100, Math.round(count * SCALE));
const SPONSORS = n(10_000);
const ENGAGEMENTS = n(100_000);
const SUBMISSIONS = n(1_000_000);
const CONTACTS = n(100_000);
const SITES = n(20_000);
const SCREENERS = SPONSORS;
const CHANNELS = 2 * SCREENERS;
const FORMS = SCREENERS;
/** Page 250 of 20 (offset 4,980), or the middle of a smaller list. */
const middle = (total: number) => `page=${Math.max(1, Math.min(250, Math.floor(total / 40)))}&limit=20`;

const LISTS: { name: string; path: string; sorts: [label: string, query: string][]; check?: (doc: ListDoc) => boolean }[] = [
  {
    name: 'sponsors list with figures',
    path: '/api/sponsors',
    sorts: [
      ['default sort', middle(SPONSORS)],
      ['sort=-name', `${middle(SPONSORS)}&sort=-name`],
    ],
    check: (doc) => doc.data.some((r) => Number(r.attributes.totalEngagements) > 0),
  },
  {
    name: 'engagements list',
    path: '/api/engagements',
    sorts: [
      ['default sort', middle(ENGAGEMENTS)],
      ['sort=sponsorName', `${middle(ENGAGEMENTS)}&sort=sponsorName`],
    ],
  },
  {
    name: 'site locations list',
    path: '/api/site-locations',
    sorts: [
      ['default sort', middle(SITES)],
      ['sort=city', `${middle(SITES)}&sort=city`],
    ],
  },
  {
    name: 'media channels list with figures',
    path: '/api/media-channels',
    sorts: [
      ['default sort', middle(CHANNELS)],
      ['sort=screenerName', `${middle(CHANNELS)}&sort=screenerName`],
    ],
    check: (doc) => doc.data.some((r) => Number(r.attributes.submissionsStarted) > 0),
  },
  {
    name: 'RMS audits list',
    path: '/api/rms-audits',
    sorts: [
      ['default sort', `${middle(CONTACTS)}&include=rmsProviders`],
      ['sort=rmsProviderName', `${middle(CONTACTS)}&include=rmsProviders&sort=rmsProviderName`],
    ],
  },
];

interface ListDoc {
  data: { attributes: Record<string, unknown> }[];
}

export default function adminLists(): Promise<BenchRow[]> {
  return onEachBenchApp(onApp);
}

async function onApp(b: BenchApp): Promise<BenchRow[]> {
  const started = performance.now();
  await generate(b.db);
  process.stderr.write(`bench: admin lists (${b.kind}): data generated in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  const rows: BenchRow[] = [];
  for (const list of LISTS) {
    for (const [label, query] of list.sorts) {
      const url = `${list.path}?${query}`;
      const { p95 } = await measure(
        async () => {
          const res = await b.app.request(url, { headers: { Authorization: `Bearer ${b.token}` } });
          if (res.status !== 200) throw new Error(`${url}: status ${res.status} ${await res.text()}`);
          const doc = (await res.json()) as ListDoc;
          if (doc.data.length !== 20) throw new Error(`${url}: ${doc.data.length} rows, not 20`);
          if (list.check && !list.check(doc)) throw new Error(`${url}: figures missing`);
        },
        20,
        3,
      );
      rows.push({ figure: `${list.name}, page of 20, ${label}, p95 (${b.kind})`, value: p95, unit: 'ms', budget: 100, lowerIsBetter: true });
    }
  }
  return rows;
}

/** One set-based statement per table, then `analyze`, as production statistics would be. */
export async function generate(db: BenchApp['db']) {
  const run = (query: string) => db.execute(sql.raw(query));
  await run(`
    insert into sponsors (name, identification, is_active, country_id)
    select 'Sponsor ' || lpad(g::text, 5, '0'), 'S' || g, g % 7 <> 0, (g % 240) + 1
    from generate_series(1, ${SPONSORS}) g`);
  await run(`insert into rms_providers (name, kind) select 'Provider ' || g, 'none' from generate_series(1, 5) g`);
  await run(`
    insert into engagements (name, identification, sponsor_id, is_active, end_date)
    select 'Study ' || g, 'E' || g, (g % ${SPONSORS}) + 1, g % 3 <> 0, date '2026-01-01' + (g % 365)
    from generate_series(1, ${ENGAGEMENTS}) g`);
  await run(`
    insert into site_locations (site_id, name, city, state, zip_code, is_active)
    select 'SITE-' || g, 'Site ' || g, 'City ' || (g % 997), 'NY', lpad((g % 99999)::text, 5, '0'), g % 11 <> 0
    from generate_series(1, ${SITES}) g`);
  // Two sites per engagement.
  await run(`
    insert into engagement_site_locations (engagement_id, site_location_id)
    select e, ((e * 7 + k) % ${SITES}) + 1 from generate_series(1, ${ENGAGEMENTS}) e, generate_series(0, 1) k`);
  await run(`
    insert into referrals (engagement_id, is_screened, is_randomized)
    select (g % ${ENGAGEMENTS}) + 1, g % 2 = 0, g % 5 = 0 from generate_series(1, ${ENGAGEMENTS}) g`);
  await run(`
    insert into screeners (title, sponsor_id, is_active)
    select 'Screener ' || g, g, g % 5 <> 0 from generate_series(1, ${SCREENERS}) g`);
  await run(`
    insert into media_channels (title, domain, screener_id, type, is_active)
    select 'Channel ' || lpad(g::text, 6, '0'), 'site' || g || '.example', (g % ${SCREENERS}) + 1,
           (array['Spectrum Website', 'Partner Website', 'Social Media', 'Other'])[(g % 4) + 1], g % 9 <> 0
    from generate_series(1, ${CHANNELS}) g`);
  await run(`
    insert into o_forms (identity, title, engagement_id, sponsor_id, is_approved, approved_at, container_count)
    select 'survey-' || g, 'Survey ' || g, ((g * 10) % ${ENGAGEMENTS}) + 1, g, true, now(), 3
    from generate_series(1, ${FORMS}) g`);
  await run(`
    insert into o_form_submissions (o_form_id, media_channel_id, token_hash, status, is_qualified, created)
    select (g % ${FORMS}) + 1, (g % ${CHANNELS}) + 1, md5(g::text), case when g % 10 = 0 then 'completed' else 'in_progress' end,
           case when g % 4 = 0 then true when g % 4 = 1 then false end, now() - (g % 100000) * interval '1 minute'
    from generate_series(1, ${SUBMISSIONS}) g`);
  // The channels' figures are the counters the participant runner keeps, in 16 shards a channel;
  // here, those submissions' counts.
  await run(`
    insert into media_channel_figures (media_channel_id, shard, submissions_started, submissions_completed, submissions_qualified, views)
    select media_channel_id, id % 16, count(*)::int, count(*) filter (where status = 'completed')::int,
           count(*) filter (where is_qualified)::int, 3 * count(*)::int
    from o_form_submissions group by media_channel_id, id % 16`);
  await run(`
    insert into contacts (submission_id, engagement_id, screener_id, media_channel_id, values_ciphertext, accept_terms, created)
    select g * ${Math.max(1, Math.floor(SUBMISSIONS / CONTACTS))}, (g % ${ENGAGEMENTS}) + 1, (g % ${SCREENERS}) + 1, (g % ${CHANNELS}) + 1,
           'sealed', true, now() - g * interval '1 minute'
    from generate_series(1, ${CONTACTS}) g`);
  await run(`
    insert into rms_audits (contact_id, rms_provider_id, rms_provider_name, succeeded, response_message, created)
    select g, (g % 5) + 1, 'Provider ' || ((g % 5) + 1), g % 6 <> 0, case when g % 6 = 0 then 'HTTP 500 Internal Server Error' else 'HTTP 200 OK' end,
           now() - g * interval '1 minute'
    from generate_series(1, ${CONTACTS}) g`);
  for (const table of [
    'sponsors',
    'rms_providers',
    'engagements',
    'site_locations',
    'engagement_site_locations',
    'referrals',
    'screeners',
    'media_channels',
    'media_channel_figures',
    'o_forms',
    'o_form_submissions',
    'contacts',
    'rms_audits',
  ]) {
    await run(`analyze ${table}`);
  }
}
