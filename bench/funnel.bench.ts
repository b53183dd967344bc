/**
 * The recruitment funnel at scale: 1,000,000 submissions over two years on 50 media channels
 * (10 screeners, 10 engagements of 5 sponsors, one 5-page survey each), 10,000,000 answers
 * (5 page entries of 2 answers a submission), 100,000 contacts with their referrals and
 * deliveries, and a day's views per channel and source. Then GET /api/recruitment-funnel for one
 * engagement grouped by week, and unfiltered. `BENCH_SCALE=0.1` for a quick look (a tenth of the
 * submissions, answers and contacts); the budgets are for 1.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { BENCH_PASSWORD, benchApp, onEachDatabase, measure, type BenchApp, type BenchKind, type BenchRow } from './harness';
import { startFunnelRecountJob } from '../server/funnel/recount';
import { createLogger } from '../server/log';

/** A migration's statements other than its CREATEs (the data it moves). */
const migrationStatements = (file: string) =>
  fs
    .readFileSync(path.join(import.meta.dirname, '../server/db/migrations', file), 'utf8')
    .split('--> statement-breakpoint')
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter((s) => s !== '' && !s.startsWith('CREATE'));

const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const SUBMISSIONS = Math.max(1000, Math.round(1_000_000 * SCALE));
const SPONSORS = 5;
const ENGAGEMENTS = 10;
const SCREENERS = 10;
const CHANNELS = 50;
const PAGES = 5;
const FIELDS_PER_PAGE = 2;
const SITES_PER_ENGAGEMENT = 5;
const DAYS = 730;
const scaleNote = SCALE === 1 ? '' : `, BENCH_SCALE=${SCALE}`;

/** `writes`: submissions whose status changes before each call (each marks its day's bucket stale). */
const QUERIES: { label: string; query: string; budget: number; writes?: number }[] = [
  { label: 'one engagement, groupBy=week', query: 'engagementId=3&groupBy=week', budget: 300 },
  { label: 'unfiltered', query: '', budget: 500 },
  { label: 'one engagement, groupBy=week, 10 submissions changed before each call', query: 'engagementId=3&groupBy=week', budget: 300, writes: 10 },
  { label: 'unfiltered, 10 submissions changed before each call', query: '', budget: 500, writes: 10 },
];

export default function funnel(): Promise<BenchRow[]> {
  return onEachDatabase(onDatabase);
}

/**
 * `BENCH_FUNNEL_DIR=<folder>` (PGlite): the seeded database is kept in that folder, and a later
 * run with the same folder (and scale) reads it again instead of seeding for minutes — to compare
 * two versions of the code on the same data. The reads' writes stay in it (statuses toggled; the
 * rollup follows them). The first read and the recount job are reported only when it is seeded.
 */
const KEPT_DIR = process.env.BENCH_FUNNEL_DIR || null;
const KEPT_MARK = 'funnel-seeded.json';

async function onDatabase(kind: BenchKind): Promise<BenchRow[]> {
  // On disk for PGlite: ten million answers are more than its in-memory heap should hold.
  const kept = kind === 'pglite' && KEPT_DIR !== null;
  if (kept) fs.mkdirSync(KEPT_DIR, { recursive: true });
  const seeded = kept && fs.existsSync(path.join(KEPT_DIR, KEPT_MARK));
  if (seeded && JSON.parse(fs.readFileSync(path.join(KEPT_DIR, KEPT_MARK), 'utf8')).submissions !== SUBMISSIONS) {
    throw new Error(`BENCH_FUNNEL_DIR ${KEPT_DIR} holds another scale than ${SUBMISSIONS} submissions`);
  }
  const dataDir = kind === 'pglite' ? (kept ? KEPT_DIR : fs.mkdtempSync(path.join(os.tmpdir(), 'bench-funnel-'))) : null;
  const b = await benchApp(kind, dataDir);
  try {
    if (seeded) process.stderr.write(`bench: funnel (${kind}): the data seeded in ${KEPT_DIR}\n`);
    else await seedAndCount(b, kind);
    if (kept && !seeded) fs.writeFileSync(path.join(KEPT_DIR, KEPT_MARK), JSON.stringify({ submissions: SUBMISSIONS }));
    return await measureReads(b, kind);
  } finally {
    await b.close();
    if (dataDir && !kept) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The data, then the rollup's days handed to the recount job as migration 0022 would, the first read and the job. */
async function seedAndCount(b: BenchApp, kind: BenchKind) {
  const started = performance.now();
  await generate(b.db);
  process.stderr.write(`bench: funnel (${kind}): data generated in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  const token = await signIn(b);
  // The seed's triggers marked every bucket, as migration 0020 did on an installation with
  // submissions; migration 0022's statements hand those days to the recount job, as they would
  // there. The first read counts them from the submissions; the job's time is reported, not measured.
  for (const statement of migrationStatements('0022_funnel_recount.sql')) await b.db.execute(sql.raw(statement));
  let t = performance.now();
  await b.app.request('/api/recruitment-funnel', { headers: { Authorization: `Bearer ${token}` } });
  process.stderr.write(`bench: funnel (${kind}): first read, no day counted yet, ${(performance.now() - t).toFixed(0)} ms\n`);
  t = performance.now();
  const log = createLogger('info');
  await startFunnelRecountJob({ db: b.db, log }).done;
  process.stderr.write(`bench: funnel (${kind}): the recount job counted every day in ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
}

/** Signed in again: the seed outlasts the sign-in's access token. */
async function signIn(b: BenchApp): Promise<string> {
  const login = await b.app.request('/api/jwt/login?t=a', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ data: { username: 'admin', password: BENCH_PASSWORD } }),
  });
  return ((await login.json()) as { access: string }).access;
}

/** The figures: each of QUERIES, 20 calls after 3. */
async function measureReads(b: BenchApp, kind: BenchKind): Promise<BenchRow[]> {
  const token = await signIn(b);
  const rows: BenchRow[] = [];
  let round = 0;
  for (const { label, query, budget, writes } of QUERIES) {
    const url = `/api/recruitment-funnel${query ? `?${query}` : ''}`;
    let first: unknown = null;
    const { p50, p95 } = await measure(
      async () => {
        if (writes) {
          // Spread over the two years and the engagements, as participants and callbacks would write.
          round += 1;
          const ids = Array.from({ length: writes }, (_, i) => ((round * 7919 + i * 104729) % SUBMISSIONS) + 1);
          await b.db.execute(
            sql.raw(
              `update o_form_submissions set status = case when status = 'abandoned' then 'in_progress' else 'abandoned' end where id in (${ids.join(',')}) and status <> 'completed'`,
            ),
          );
        }
        const res = await b.app.request(url, { headers: { Authorization: `Bearer ${token}` } });
        if (res.status !== 200) throw new Error(`${url}: status ${res.status} ${await res.text()}`);
        const doc = (await res.json()) as { data: { attributes: Record<string, number> }[] };
        if (!doc.data.length || !doc.data.some((r) => r.attributes.started! > 0 && r.attributes.randomized! > 0))
          throw new Error(`${url}: no counts: ${JSON.stringify(doc).slice(0, 600)}`);
        first ??= doc.data.length;
      },
      20,
      3,
    );
    process.stderr.write(`bench: funnel (${kind}) ${label}: ${first} rows, p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms\n`);
    rows.push({ figure: `recruitment funnel, ${label}, p95 (${b.kind}${scaleNote})`, value: p95, unit: 'ms', budget, lowerIsBetter: true });
  }
  return rows;
}

/** One set-based statement per table (generate_series), then `analyze`. */
export async function generate(db: BenchApp['db']) {
  const step = async (label: string, query: string) => {
    const t = performance.now();
    await db.execute(sql.raw(query));
    process.stderr.write(`bench: funnel: ${label} ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
  };
  await step('sponsors', `insert into sponsors (name, identification) select 'Funnel sponsor ' || g, 'FS' || g from generate_series(1, ${SPONSORS}) g`);
  const sponsor = (expr: string) => `(select id from sponsors where identification = 'FS' || ((${expr} - 1) % ${SPONSORS} + 1))`;
  await step(
    'engagements',
    `insert into engagements (name, identification, sponsor_id) select 'Funnel study ' || g, 'FE' || g, ${sponsor('g')} from generate_series(1, ${ENGAGEMENTS}) g`,
  );
  await step(
    'sites',
    `insert into site_locations (site_id, name, city, state, zip_code) select 'FSITE-' || g, 'Funnel site ' || g, 'City ' || g, 'NY', lpad(g::text, 5, '0')
     from generate_series(1, ${ENGAGEMENTS * SITES_PER_ENGAGEMENT}) g`,
  );
  // Fresh tables: ids run from 1 in insertion order, so the rows below refer to each other by arithmetic.
  await step(
    'engagement sites',
    `insert into engagement_site_locations (engagement_id, site_location_id)
     select (g - 1) / ${SITES_PER_ENGAGEMENT} + 1, g from generate_series(1, ${ENGAGEMENTS * SITES_PER_ENGAGEMENT}) g`,
  );
  await step('screeners', `insert into screeners (title, sponsor_id) select 'Funnel screener ' || g, ${sponsor('g')} from generate_series(1, ${SCREENERS}) g`);
  // Channel c belongs to screener (c - 1) % 10 + 1, whose survey is form (c - 1) % 10 + 1 of engagement (c - 1) % 10 + 1.
  await step(
    'media channels',
    `insert into media_channels (title, domain, screener_id, type) select 'Funnel channel ' || g, 'c' || g || '.example', (g - 1) % ${SCREENERS} + 1, 'Partner Website'
     from generate_series(1, ${CHANNELS}) g`,
  );
  await step(
    'surveys',
    `insert into o_forms (identity, title, engagement_id, sponsor_id, is_approved, approved_at, container_count)
     select 'funnel-' || g, 'Funnel survey ' || g, g, ${sponsor('g')}, true, now(), ${PAGES} from generate_series(1, ${ENGAGEMENTS}) g`,
  );
  await step(
    'pages',
    `insert into o_form_containers (identity, o_form_id, title, display_order)
     select 'fp-' || f || '-' || p, f, 'Page ' || p, p from generate_series(1, ${ENGAGEMENTS}) f, generate_series(1, ${PAGES}) p order by f, p`,
  );
  await step(
    'questions',
    `insert into o_form_fields (identity, container_id, title, type, display_order)
     select 'fq-' || c || '-' || k, c, 'Question ' || k, 'text', k from generate_series(1, ${ENGAGEMENTS * PAGES}) c, generate_series(1, ${FIELDS_PER_PAGE}) k order by c, k`,
  );
  // Of every 20 submissions: 2 never answered a page, 6 stopped part way, 12 reached the end; of
  // those 10 qualified, 8 chose a site, and 2 left a contact (a tenth of all: 100,000).
  await step(
    'submissions',
    `insert into o_form_submissions (o_form_id, media_channel_id, token_hash, status, outcome, is_qualified, language, utm, started_at, finished_at, created)
     select ch % ${SCREENERS} + 1, ch + 1, md5('funnel' || g),
            case when g % 20 in (12, 13) then 'completed' else 'in_progress' end,
            case when g % 20 in (12, 13) then 'completed' when g % 20 >= 14 then 'trialSiteSelected' when g % 20 >= 10 then 'noTrialSites' when g % 20 >= 8 then 'notQualified' end,
            case when g % 20 >= 10 then true when g % 20 >= 8 then false end,
            case when g % 7 = 0 then 'es' else 'en' end,
            jsonb_build_object('utm_source', (array['newsletter', 'facebook', 'google', 'partner', 'email'])[g % 5 + 1], 'utm_campaign', 'campaign-' || (g % 7)),
            case when g % 20 >= 2 then t + interval '1 minute' end,
            case when g % 20 >= 8 then t + interval '6 minutes' end,
            t
     from (select g, (g / 20) % ${CHANNELS} as ch, now() - ((g::bigint * 7919) % (${DAYS} * 1440)) * interval '1 minute' as t
           from generate_series(1, ${SUBMISSIONS}) g) x`,
  );
  // The two largest tables are consistent by construction: their foreign-key triggers (a lookup a
  // row) are off while they are written (session_replication_role = replica, in one transaction).
  const bulk = async (label: string, query: string) => {
    const t = performance.now();
    await db.transaction(async (tx) => {
      await tx.execute(sql.raw('set local session_replication_role = replica'));
      await tx.execute(sql.raw(query));
    });
    process.stderr.write(`bench: funnel: ${label} ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
  };
  await bulk(
    'page entries',
    `insert into o_form_container_entries (submission_id, container_id)
     select s.id, (s.o_form_id - 1) * ${PAGES} + p from o_form_submissions s, generate_series(1, ${PAGES}) p`,
  );
  await bulk(
    'answers',
    `insert into o_form_field_entries (container_entry_id, field_id, sealed_value)
     select e.id, (e.container_id - 1) * ${FIELDS_PER_PAGE} + k, 'sealed' from o_form_container_entries e, generate_series(1, ${FIELDS_PER_PAGE}) k`,
  );
  await step(
    'contacts',
    `insert into contacts (submission_id, engagement_id, engagement_site_location_id, screener_id, media_channel_id, values_ciphertext, accept_terms, created)
     select s.id, f.engagement_id, (f.engagement_id - 1) * ${SITES_PER_ENGAGEMENT} + s.id % ${SITES_PER_ENGAGEMENT} + 1, s.o_form_id, s.media_channel_id, 'sealed', true, s.created
     from o_form_submissions s join o_forms f on f.id = s.o_form_id where s.status = 'completed'`,
  );
  await step(
    'referrals',
    `insert into referrals (engagement_id, engagement_site_location_id, contact_id, is_screened, is_randomized)
     select engagement_id, engagement_site_location_id, id, id % 3 = 0, id % 9 = 0 from contacts`,
  );
  await step(
    'deliveries',
    `insert into rms_deliveries (contact_id, status, attempts, delivered_at)
     select id, case when id % 10 = 0 then 'undelivered' else 'delivered' end, 1, created from contacts`,
  );
  await step(
    'views',
    `insert into funnel_views (dimensions, shard, day, sponsor_id, engagement_id, screener_id, media_channel_id, o_form_id, o_form_identity, language, utm_source, utm_campaign, views)
     select d::text || '|' || c || '|' || src, 0, d, f.sponsor_id, f.engagement_id, (c - 1) % ${SCREENERS} + 1, c, f.id, f.identity, 'en', src, 'campaign-1',
            greatest(1, ${SUBMISSIONS} * 3 / ${DAYS * CHANNELS * 2})::int
     from generate_series(current_date - ${DAYS - 1}, current_date, interval '1 day') d, generate_series(1, ${CHANNELS}) c,
          unnest(array['newsletter', 'facebook']) src, o_forms f
     where f.id = (c - 1) % ${SCREENERS} + 1`,
  );
  for (const table of [
    'sponsors',
    'engagements',
    'site_locations',
    'engagement_site_locations',
    'screeners',
    'media_channels',
    'o_forms',
    'o_form_containers',
    'o_form_fields',
    'o_form_submissions',
    'o_form_container_entries',
    'o_form_field_entries',
    'contacts',
    'referrals',
    'rms_deliveries',
    'funnel_views',
  ]) {
    await db.execute(sql.raw(`analyze ${table}`));
  }
}
