/**
 * Several participants' page saves in one statement: under load the participant path's cost was
 * the round trip and commit of each save (a third of the server's time went to socket writes to
 * PostgreSQL), so the saves that arrive together are written together (server/db/batchedWrites.ts)
 * — each save still checked on its own before (its answers validated, sealed in JS), and answered
 * with its own result after, exactly as ./entries.ts savePage answers one save alone.
 *
 * The statement is savePage's for many rows: each save's rate-limit hits are counted (per key, in
 * the saves' order, so the k-th save on a key sees the count the k-th single save would), a save
 * over a limit writes nothing else; the submissions of the others are locked in id order and
 * re-checked open; the runs that start are counted in their channels' figures; the pages'
 * answers replace their earlier ones, and the next pages' entries are made. It holds at most one
 * save a submission (batchedWrites keeps two saves of one run apart).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/open';
import { batchedWrites } from '../db/batchedWrites';
import { preparedQuery } from '../db/prepared';
import { oFormContainerEntries, oFormFieldEntries, oFormSubmissions } from '../db/schema';
import { countedHitsStatement } from '../http/rateLimit';
import { countsStatement } from './channelFigures';
import { madePage, OPEN_RUN, savePage, type PageSave, type SaveResult } from './entries';

/** Saves a batch at most: bounds the statement's parameter and its locks. */
const MAX_BATCH = 32;
/**
 * Batches in flight at once: two, so the database works on one while the next gathers (and both
 * cores serve on PostgreSQL); PGlite runs one statement at a time whatever this says.
 */
const MAX_IN_FLIGHT = 2;

const param = sql.placeholder;

// Rows are found by `id = any(array(…))`: an index scan for the batch's few ids, where a join
// with the saves (estimated at a hundred rows) could plan a scan of the whole table.
const savePagesQuery = preparedQuery((db) => {
  const saves = db.$with('saves', { n: sql<number>`n` }).as(sql`
    select * from jsonb_to_recordset(${param('saves')}::jsonb) as s(
      n int, submission_id int, page_entry_id int, entry_ids int[], answers jsonb, page_id int, child_container_ids int[], limit_keys text[], limit_max int[])`);
  // Each save's limits, with its place among the batch's saves on that key.
  const checks = db.$with('checks', { n: sql<number>`n` }).as(sql`
    select s.n, l.key, l.max, row_number() over (partition by l.key order by s.n) as place, count(*) over (partition by l.key) as batch_hits
    from saves s, unnest(s.limit_keys, s.limit_max) as l(key, max)`);
  const hits = db
    .$with('hits', { key: sql<string>`key` })
    .as(countedHitsStatement(sql`(select key, count(*)::int as hits from checks group by key) as h`, param('windowStart')));
  const over = db.$with('over', { n: sql<number>`n` }).as(sql`
    select distinct c.n from checks c join hits h on h.key = c.key where h.count - c.batch_hits + c.place > c.max`);
  // Locked in id order, so two batches sharing no save cannot deadlock on the submissions.
  const before = db.$with('before', { id: sql<number>`before_id` }).as(sql`
    select id as before_id, started_at as was_started from ${oFormSubmissions}
    where id = any(array(select s.submission_id from saves s where not exists (select 1 from over o where o.n = s.n)))
    order by id for update`);
  const locked = db.$with('locked', { id: sql<number>`id` }).as(sql`
    update ${oFormSubmissions} set modified = now(), started_at = coalesce(started_at, now())
    from before where id = before.before_id and ${OPEN_RUN}
    returning id, media_channel_id, possible_retake, was_started is null as starts`);
  const counted = db.$with('counted', { id: sql<number>`media_channel_id` }).as(
    sql`${countsStatement(
      sql`c.channel`,
      { submissionsStarted: sql`c.started`, possibleRetakes: sql`c.retakes` },
      sql`(select media_channel_id as channel, count(*) as started, count(*) filter (where possible_retake) as retakes
        from locked where starts and media_channel_id is not null group by media_channel_id order by media_channel_id) as c`,
    )} returning media_channel_id`,
  );
  const ok = db.$with('ok', { n: sql<number>`n` }).as(sql`select s.* from saves s join locked l on l.id = s.submission_id`);
  const answered = db.$with('answered', { id: sql<number>`id` }).as(sql`
    update ${oFormContainerEntries} set answered_at = now() where id = any(array(select page_entry_id from ok)) returning id`);
  const answers = db.$with('answers', { entryId: sql<number>`entry_id` }).as(sql`
    select a.entry_id, a.field_id, a.value, a.sealed from ok, jsonb_to_recordset(ok.answers) as a(entry_id int, field_id int, value jsonb, sealed text)`);
  const gone = db.$with('gone', { id: sql<number>`id` }).as(sql`
    delete from ${oFormFieldEntries} f
    where f.container_entry_id = any(array(select unnest(ok.entry_ids) from ok))
      and not exists (select 1 from answers a where a.entry_id = f.container_entry_id and a.field_id = f.field_id)
    returning f.id`);
  const saved = db.$with('saved', { id: sql<number>`id` }).as(sql`
    insert into ${oFormFieldEntries} (container_entry_id, field_id, field_value, sealed_value)
    select a.entry_id, a.field_id, a.value, a.sealed from answers a
    on conflict (container_entry_id, field_id) do update set field_value = excluded.field_value, sealed_value = excluded.sealed_value, created = excluded.created
    returning id`);
  const page = db.$with('page', { id: sql<number>`id` }).as(sql`
    insert into ${oFormContainerEntries} (submission_id, container_id)
    select ok.submission_id, ok.page_id from ok where ok.page_id is not null order by ok.n
    returning id, submission_id, container_id`);
  const kids = db.$with('kids', { id: sql<number>`id` }).as(sql`
    insert into ${oFormContainerEntries} (submission_id, container_id, parent_id)
    select p.submission_id, c.id, p.id from page p join ok on ok.submission_id = p.submission_id, unnest(ok.child_container_ids) with ordinality as c(id, k)
    order by p.id, c.k
    returning id, submission_id, container_id`);
  return db
    .with(saves, checks, hits, over, before, locked, counted, ok, answered, answers, gone, saved, page, kids)
    .select({
      n: sql<number>`s.n`.mapWith(Number),
      limited: sql<boolean>`exists (select 1 from over o where o.n = s.n)`,
      saved: sql<boolean>`exists (select 1 from locked l where l.id = s.submission_id)`,
      pageEntryId: sql<number | null>`(select p.id from page p where p.submission_id = s.submission_id)`.mapWith((v: unknown) =>
        v === null ? null : Number(v),
      ),
      pageChildren: sql<unknown>`(select json_agg(json_build_array(k.id, k.container_id) order by k.id) from kids k where k.submission_id = s.submission_id)`,
    })
    .from(sql`saves s`)
    .orderBy(sql`s.n`)
    .prepare('participant_save_pages');
});

/** Several saves of distinct submissions in one statement, all or nothing: each answered as savePage answers it. */
export async function savePagesTogether(db: Db, batch: readonly PageSave[]): Promise<SaveResult[]> {
  if (new Set(batch.map((s) => s.submissionId)).size !== batch.length) throw new Error('one save a submission in a batch');
  const windows = new Set(batch.map((s) => s.limits.windowStart.getTime()));
  // The saves of one batch count in one window (they arrived together); one that straddles a
  // window's end goes to the fallback, each on its own.
  if (windows.size > 1) throw new Error('the saves of a batch count in one window');
  const rows = await savePagesQuery(db).execute({
    windowStart: batch[0]!.limits.windowStart.toISOString(),
    saves: JSON.stringify(
      batch.map((save, n) => ({
        n,
        submission_id: save.submissionId,
        page_entry_id: save.entryIds[0] ?? null,
        entry_ids: save.entryIds,
        answers: save.answers.map((a) => ({ entry_id: a.entryId, field_id: a.fieldId, value: a.value, sealed: a.sealed })),
        page_id: save.next?.pageId ?? null,
        child_container_ids: save.next?.childContainerIds ?? [],
        limit_keys: save.limits.checks.map((c) => c.key),
        limit_max: save.limits.checks.map((c) => c.limit),
      })),
    ),
  });
  if (rows.length !== batch.length) throw new Error(`${batch.length} saves answered ${rows.length} rows`);
  return rows.map((row): SaveResult => {
    if (row.limited === true) return { status: 'limited' };
    if (row.saved !== true) return { status: 'closed' };
    return { status: 'saved', next: madePage(row) };
  });
}

const writersByDb = new WeakMap<Db, (save: PageSave) => Promise<SaveResult>>();

/**
 * A page's save, written with the others that arrive with it (savePagesTogether), or alone
 * (savePage) when none does or their batch failed; answered once it is committed.
 */
export function savePageWithOthers(db: Db, save: PageSave): Promise<SaveResult> {
  let write = writersByDb.get(db);
  if (!write) {
    write = batchedWrites<PageSave, SaveResult>({
      keyOf: (s) => s.submissionId,
      maxBatch: MAX_BATCH,
      maxInFlight: MAX_IN_FLIGHT,
      one: (s) => savePage(db, s),
      many: (saves) => savePagesTogether(db, saves),
    });
    writersByDb.set(db, write);
  }
  return write(save);
}
