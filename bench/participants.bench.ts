/**
 * Participant throughput (issue 10, item 2): 50 simulated participants at once, each creating a
 * submission and answering the three pages of a survey through the real server process over
 * HTTP, again and again for a fixed time. Only the page answers (PATCH …/o-form-submission-page)
 * are counted and timed; creating the submission with its first page's entry (one call, as the
 * widget starts a run) is part of each run but not of the figure. On PostgreSQL, pgbench's TPC-B-like script with the same client count and
 * duration runs against the same server in the same run, and the budget is 75% of its rate;
 * PGlite's budget is half of PostgreSQL's page answers/s in the same run (ratios from one run:
 * the machine is shared, absolute rates move with its load). The CPU the server process (and, on
 * PostgreSQL, the database's backends) spent per page answer is reported beside them: a cost per
 * answer that the neighbours' load moves far less than a rate.
 */
import { sql } from 'drizzle-orm';
import { benchServer, benchKinds, cpuMilliseconds, residentMegabytes, type BenchKind, type BenchRow } from './harness';
import type { Database } from '../server/db/open';
import { httpClient, runLoad, type Timed } from './load';
import { databaseCpu, databaseCpuSince, pgbenchTps } from './pgbench';
import { answerPage, createParticipantFixture, startSubmission, type ParticipantFixture } from '../tests/support/participantFixture';

const CLIENTS = 50;
const SECONDS = Number(process.env.BENCH_PARTICIPANT_SECONDS ?? 15);
/**
 * The same load before the measured one, not counted: a server in production has long since
 * compiled its hot code, opened its pool's connections and prepared their statements. What the
 * first seconds of a fresh process cost is reported beside the figures, without a budget.
 */
const WARM_UP_SECONDS = 3;
/** Runs the survey already had, as a channel in production has: its tables are not empty. */
const HISTORY_RUNS = 20_000;

/** The participant routes' per-address and per-channel limits are off: every client here is 127.0.0.1. */
const UNLIMITED = {
  PARTICIPANT_SUBMISSIONS_PER_ADDRESS: '0',
  PARTICIPANT_SUBMISSIONS_PER_CHANNEL: '0',
  PARTICIPANT_PAGES_PER_ADDRESS: '0',
  PARTICIPANT_PAGES_PER_CHANNEL: '0',
};

export default async function participants(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  // PostgreSQL first: its rate is PGlite's yardstick.
  let postgresRate: number | null = null;
  for (const kind of [...benchKinds()].reverse()) {
    const { rows: kindRows, rate } = await onDatabase(kind, postgresRate);
    if (kind === 'postgres') postgresRate = rate;
    rows.push(...kindRows);
  }
  return rows;
}

async function onDatabase(kind: BenchKind, postgresRate: number | null): Promise<{ rows: BenchRow[]; rate: number }> {
  let fixture: ParticipantFixture | undefined;
  const server = await benchServer(
    kind,
    async (db) => {
      fixture = await createParticipantFixture(db);
      await seedHistory(db, fixture, HISTORY_RUNS);
    },
    UNLIMITED,
  );
  const h = httpClient(server.url);
  try {
    const f = fixture!;
    const expectOk = (status: number, page: string) => {
      if (status !== 200) throw new Error(`${page} answered ${status}`);
    };
    const scenario = async (_client: number, timed: Timed) => {
      const { token, firstEntryId } = await startSubmission(h, f, { withFirstPage: true });
      const p1 = await timed(() => answerPage(h, token, firstEntryId, { q_choice: 'yes' }));
      expectOk(p1.status, 'p1');
      const p2 = await timed(() => answerPage(h, token, p1.meta.nextContainerEntryId!, { q_dob: '1980-06-15', q_text: 'hello' }));
      expectOk(p2.status, 'p2');
      const p3 = await timed(() => answerPage(h, token, p2.meta.nextContainerEntryId!, { q_zip: '10001', q_conditions: ['a'] }));
      expectOk(p3.status, 'p3');
    };
    const warmUp = await runLoad({ concurrency: CLIENTS, seconds: WARM_UP_SECONDS, scenario });
    const cpuBefore = cpuMilliseconds(server.pid);
    const databaseCpuBefore = server.databaseUrl ? await databaseCpu(server.databaseUrl) : null;
    const load = await runLoad({ concurrency: CLIENTS, seconds: SECONDS, scenario });
    const cpuPerAnswer = (cpuMilliseconds(server.pid) - cpuBefore) / load.requests;
    const databaseCpuPerAnswer =
      server.databaseUrl && databaseCpuBefore ? (await databaseCpuSince(server.databaseUrl, databaseCpuBefore)) / load.requests : null;
    if (load.errors > 0) process.stderr.write(`bench: participants (${kind}): ${load.errors} runs failed\n`);
    if (load.requests === 0) throw new Error(`no page answered on ${kind}`);

    // Read before pgbench, which loads the database, not the server.
    const rss = residentMegabytes(server.pid);
    const tps = server.databaseUrl ? await pgbenchTps(server.databaseUrl, CLIENTS, SECONDS) : null;
    const what = `${CLIENTS} participants, 3-page survey, ${SECONDS} s`;
    const rate = load.requestsPerSecond;
    const throughput: BenchRow =
      tps !== null
        ? {
            figure: `page answers/s, ${what}, vs 75% of pgbench ${tps.toFixed(0)} tps -c ${CLIENTS} (${kind})`,
            value: rate,
            unit: '/s',
            budget: tps * 0.75,
            lowerIsBetter: false,
          }
        : postgresRate !== null
          ? {
              figure: `page answers/s, ${what}, vs 50% of PostgreSQL's ${postgresRate.toFixed(0)}/s in this run (${kind})`,
              value: rate,
              unit: '/s',
              budget: postgresRate / 2,
              lowerIsBetter: false,
            }
          : { figure: `page answers/s, ${what} (${kind}; no yardstick without BENCH_DATABASE_URL)`, value: rate, unit: '/s', budget: 0, lowerIsBetter: false };
    return {
      rate,
      rows: [
        throughput,
        { figure: `page answer p50, ${what} (${kind})`, value: load.p50, unit: 'ms', budget: 100, lowerIsBetter: true },
        { figure: `page answer p99, ${what} (${kind})`, value: load.p99, unit: 'ms', budget: kind === 'postgres' ? 60 : 100, lowerIsBetter: true },
        {
          figure: `page answer p99 in a fresh process's first ${WARM_UP_SECONDS} s, before the figures above (${kind})`,
          value: warmUp.p99,
          unit: 'ms',
          budget: NaN,
          lowerIsBetter: true,
          informational: true,
        },
        {
          figure: `server CPU per page answer, the runs' starts included (${kind})`,
          value: cpuPerAnswer,
          unit: 'ms',
          budget: NaN,
          lowerIsBetter: true,
          informational: true,
        },
        ...(databaseCpuPerAnswer === null
          ? []
          : [
              {
                figure: `PostgreSQL backends' CPU per page answer, the runs' starts included (${kind})`,
                value: databaseCpuPerAnswer,
                unit: 'ms',
                budget: NaN,
                lowerIsBetter: true,
                informational: true,
              },
            ]),
        {
          figure: `server RSS after the participants load (${kind}${kind === 'postgres' ? ', per process' : ''})`,
          value: rss,
          unit: 'MB',
          budget: kind === 'postgres' ? 200 : 350,
          lowerIsBetter: true,
        },
      ],
    };
  } finally {
    h.close();
    await server.close();
  }
}

/**
 * `runs` finished runs of the fixture's survey through its channel, each with its three pages'
 * entries and five answers (sealed placeholders: nothing reads them), then ANALYZE: the tables a
 * page answer touches hold what a live channel's do, with statistics as production keeps them.
 */
async function seedHistory(db: Database['db'], f: ParticipantFixture, runs: number): Promise<void> {
  const { p1, p2, p3 } = f.pages;
  const { q_choice, q_dob, q_text, q_zip, q_conditions } = f.fields;
  await db.execute(sql`
    with runs as (
      insert into o_form_submissions (o_form_id, media_channel_id, language, token_hash, status, outcome, is_qualified, started_at, finished_at, completed_at, created, modified)
      select ${f.oFormId}::int, ${f.mediaChannelId}::int, 'en', md5('history-' || g), 'completed', 'completed', true, t, t + interval '3 minutes', t + interval '4 minutes', t, t + interval '4 minutes'
      from (select g, now() - make_interval(mins => g) as t from generate_series(1, ${runs}::int) g) as past
      returning id, started_at),
    pages as (
      insert into o_form_container_entries (submission_id, container_id, answered_at)
      select runs.id, page.id, runs.started_at from runs, unnest(array[${p1.id}::int, ${p2.id}::int, ${p3.id}::int]) as page(id)
      returning id, container_id)
    insert into o_form_field_entries (container_entry_id, field_id, sealed_value)
    select pages.id, field.id, 'phi1.history' from pages
    join (values (${p1.id}::int, ${q_choice.id}::int), (${p2.id}::int, ${q_dob.id}::int), (${p2.id}::int, ${q_text.id}::int), (${p3.id}::int, ${q_zip.id}::int), (${p3.id}::int, ${q_conditions.id}::int))
      as field(page, id) on field.page = pages.container_id`);
  await db.execute(sql`analyze`);
}
