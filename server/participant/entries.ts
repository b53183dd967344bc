/**
 * A submission's page entries and their answers, on the participant's hottest path: each write
 * here is one prepared statement (server/db/prepared.ts), atomic without a transaction and one
 * round trip.
 *
 * Storing a page's answers updates the submission row first (its `modified`), which takes its
 * lock and re-checks under that lock that the run is still open (OPEN_RUN); every other part
 * runs only when that update found the row. The page entry is marked answered. The page's answers become the ones sent: answered questions
 * are upserted (the pair entry/question is unique), the page's other answers deleted. Two saves
 * of one page at the same moment (a double submit the widget's busy state prevents) both
 * succeed, the later winning each question both answered.
 */
import { and, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import * as v from 'valibot';
import type { Db } from '../db/open';
import { preparedQuery } from '../db/prepared';
import { intArray, parseJsonColumn, textArray } from '../db/rows';
import { EntryPairs, forgetPageEntry } from './access';
import { countsStatement } from './channelFigures';
import {
  engagementScreeners,
  engagements,
  mediaChannels,
  oFormContainerEntries,
  oFormFieldEntries,
  oForms,
  oFormSubmissions,
  participantSettingsVersion,
  screenerSurveys,
  screeners,
} from '../db/schema';
import { countedHitsStatement, hitsStatement } from '../http/rateLimit';
import type { StoredAnswer } from '../security/sealedAnswer';
import { possibleRetakeCondition } from './retakes';
import { engagementPausedCondition } from '../engagements';

export interface PageSave {
  submissionId: number;
  /** The page entry (first; marked answered) and its child entries: whose earlier answers are replaced. */
  entryIds: readonly number[];
  /** In their stored form (sealedAnswers.ts): sealed in JS before this one statement. */
  answers: readonly ({ entryId: number; fieldId: number } & StoredAnswer)[];
  /** The page the answers lead to, with its active child containers: its entry is created. */
  next: { pageId: number; childContainerIds: readonly number[] } | null;
  /** Rate limits this call counts against (rate_limits rows of one window); over one, nothing else is written. */
  limits: Limits;
}

/** Rate limits a call counts against: rate_limits rows of one window. */
export interface Limits {
  windowStart: Date;
  checks: readonly { key: string; limit: number }[];
}

export type EntryRow = typeof oFormContainerEntries.$inferSelect;
type SubmissionRow = typeof oFormSubmissions.$inferSelect;

const param = sql.placeholder;

/**
 * A run whose answers may still change (a condition on o_form_submissions): not completed, and
 * no outcome found yet (finished_at: from the qualification on, the answers are final).
 */
export const OPEN_RUN = sql`status <> 'completed' and finished_at is null`;

const entryColumns = {
  id: sql<number>`id`.mapWith(Number),
  submissionId: sql<number>`submission_id`.mapWith(Number),
  containerId: sql<number>`container_id`.mapWith(Number),
  parentId: sql<number | null>`parent_id`.mapWith((v: unknown) => (v === null ? null : Number(v))),
  answeredAt: sql<Date | null>`answered_at`.mapWith((v: unknown) => (v === null ? null : new Date(v as string | Date))),
  created: sql<Date>`created`.mapWith((v: unknown) => new Date(v as string | Date)),
};

/**
 * The CTEs `page` and `kids`: a page's entry, when `when` holds, and one child entry per child
 * container under it (SPEC: a parent entry, then a child entry), both returning their rows.
 */
function pageEntryCtes(db: Db, when: SQL, submissionId: SQL = sql`${param('submissionId')}::int`) {
  const page = db.$with('page', entryColumns).as(sql`
    insert into ${oFormContainerEntries} (submission_id, container_id)
    select ${submissionId}, ${param('pageId')}::int where ${when}
    returning id, submission_id, container_id, parent_id, answered_at, created`);
  const kids = db.$with('kids', entryColumns).as(sql`
    insert into ${oFormContainerEntries} (submission_id, container_id, parent_id)
    select page.submission_id, c.id, page.id from page, unnest(${param('childContainerIds')}::int[]) with ordinality as c(id, n)
    order by c.n
    returning id, submission_id, container_id, parent_id, answered_at, created`);
  return { page, kids };
}

/** The entries made by pageEntryCtes, as columns of the statement's one row: read them with madePage. */
const madePageColumns = {
  pageEntryId: sql<number | null>`(select id from page)`.mapWith((v: unknown) => (v === null ? null : Number(v))),
  pageChildren: sql<unknown>`(select json_agg(json_build_array(id, container_id) order by id) from kids)`,
};

/**
 * pageEntryCtes for a batch: `page` (each run's next page's entry, in the batch's order) and
 * `kids` (one child entry per child container under it), from `runs`, a CTE with columns n,
 * submission_id, page_id (null: no next page) and child_container_ids.
 */
function batchPageEntryCtes(db: Db, runs: SQL) {
  const page = db.$with('page', { id: sql<number>`id` }).as(sql`
    insert into ${oFormContainerEntries} (submission_id, container_id)
    select r.submission_id, r.page_id from ${runs} r where r.page_id is not null order by r.n
    returning id, submission_id, container_id`);
  const kids = db.$with('kids', { id: sql<number>`id` }).as(sql`
    insert into ${oFormContainerEntries} (submission_id, container_id, parent_id)
    select p.submission_id, c.id, p.id from page p join ${runs} r on r.submission_id = p.submission_id, unnest(r.child_container_ids) with ordinality as c(id, k)
    order by p.id, c.k
    returning id, submission_id, container_id`);
  return { page, kids };
}

/** The entries batchPageEntryCtes made for the run `submissionId` (a column of the row): read them with madePage. */
const batchMadePageColumns = (submissionId: SQL) => ({
  pageEntryId: sql<number | null>`(select p.id from page p where p.submission_id = ${submissionId})`.mapWith((v: unknown) => (v === null ? null : Number(v))),
  pageChildren: sql<unknown>`(select json_agg(json_build_array(k.id, k.container_id) order by k.id) from kids k where k.submission_id = ${submissionId})`,
});

/** A page entry made in a statement: its id, and its child entries' ids with their containers. */
export interface MadePage {
  id: number;
  children: { id: number; containerId: number }[];
}

export const madePage = (row: { pageEntryId: number | null; pageChildren: unknown }): MadePage | null =>
  row.pageEntryId === null ? null : { id: row.pageEntryId, children: parseJsonColumn(v.nullable(EntryPairs), row.pageChildren) ?? [] };

/**
 * The CTEs `hits` (the call's rate-limit hits, counted whatever follows; rows in key order, so no
 * deadlock) and `over` (the keys now over their limit), from the placeholders limitKeys,
 * limitMax and windowStart.
 */
function limitCtes(db: Db, when?: SQL) {
  const keys = when ? sql`(case when ${when} then ${param('limitKeys')}::text[] else '{}'::text[] end)` : param('limitKeys');
  const hits = db.$with('hits', { key: sql<string>`key` }).as(hitsStatement(keys, param('windowStart')));
  const over = db.$with('over', { key: sql<string>`key` }).as(sql`
    select hits.key from hits join unnest(${param('limitKeys')}::text[], ${param('limitMax')}::int[]) as l(key, max) on l.key = hits.key
    where hits.count > l.max`);
  return { hits, over };
}

/**
 * limitCtes for a batch: `checks` (each call's limits, with its place among the batch's calls on
 * that key), `hits` (counted per key, in key order) and `over` (the calls, by `n`, that their
 * place on a key puts over its limit: the k-th call on a key sees the count the k-th call alone
 * would), from `calls`, a CTE with columns n, limit_keys and limit_max.
 */
function batchLimitCtes(db: Db, calls: SQL) {
  const checks = db.$with('checks', { n: sql<number>`n` }).as(sql`
    select s.n, l.key, l.max, row_number() over (partition by l.key order by s.n) as place, count(*) over (partition by l.key) as batch_hits
    from ${calls} s, unnest(s.limit_keys, s.limit_max) as l(key, max)`);
  const hits = db
    .$with('hits', { key: sql<string>`key` })
    .as(countedHitsStatement(sql`(select key, count(*)::int as hits from checks group by key) as h`, param('windowStart')));
  const over = db.$with('over', { n: sql<number>`n` }).as(sql`
    select distinct c.n from checks c join hits h on h.key = c.key where h.count - c.batch_hits + c.place > c.max`);
  return { checks, hits, over };
}

/** The placeholders of limitCtes. */
const limitParams = (limits: Limits) => ({
  windowStart: limits.windowStart.toISOString(),
  limitKeys: textArray(limits.checks.map((l) => l.key)),
  limitMax: intArray(limits.checks.map((l) => l.limit)),
});

/** The row a submission's creation made, read from its CTE `made` with the table's own column decoders. */
const madeColumns = Object.fromEntries(
  Object.entries(getTableColumns(oFormSubmissions)).map(([key, column]) => [key, sql.raw(`made."${column.name}"`).mapWith(column)]),
) as { [K in keyof SubmissionRow]: SQL<SubmissionRow[K] | null> };

/**
 * Whether a run through `channelId` of survey version `formId` is paused at `now` (a select of one
 * boolean, without its alias): every engagement it refers to (its screener's active ones, else its
 * survey's own) is at its target or past its dates, so the run is not offered (notActive) and
 * nothing is written.
 */
const pausedRun = (channelId: SQL, formId: SQL, now: SQL) => sql`
    with scr as (
      select coalesce(
        (select mc.screener_id from ${mediaChannels} mc where mc.id = ${channelId}),
        (select ss.screener_id from ${screenerSurveys} ss join ${screeners} s on s.id = ss.screener_id
          where ss.o_form_identity = (select f.identity from ${oForms} f where f.id = ${formId}) and ss.is_active and s.is_active
          order by ss.display_order, ss.screener_id limit 1)) as id),
    run as (
      select e.* from ${engagements} e where e.is_active and (
        ((select id from scr) is not null and e.id in (select es.engagement_id from ${engagementScreeners} es where es.screener_id = (select id from scr)))
        or ((select id from scr) is null and e.id = (select f.engagement_id from ${oForms} f where f.id = ${formId}))))
    select exists (select 1 from run) and not exists (select 1 from run e where not ${engagementPausedCondition('e', now)})`;

/** The creation's statement; `withPage`: the first page's entry and its children's are made with it (CTEs page, kids). */
const submissionStatement = (withPage: boolean) => (db: Db) => {
  // The settings the start was decided on are still the current ones (startFacts.ts); else nothing is written.
  const fresh = db.$with('fresh', { ok: sql<boolean>`ok` }).as(sql`
    select ${param('settingsVersion')}::bigint is null or ${param('settingsVersion')}::bigint = coalesce((select version from ${participantSettingsVersion}), 0) as ok`);
  const isFresh = sql`(select ok from fresh)`;
  const { hits, over } = limitCtes(db, isFresh);
  const allowed = sql`${isFresh} and not exists (select 1 from over)`;
  // Whether the run is a possible retake (retakes.ts); counted with its first saved page.
  const retake = db
    .$with('retake', { flagged: sql<boolean>`flagged` })
    .as(sql`select ${possibleRetakeCondition(param('mediaChannelId'), param('clientMatch'), param('now'))} as flagged`);
  const paused = db
    .$with('paused', { paused: sql<boolean>`paused` })
    .as(sql`${pausedRun(sql`${param('mediaChannelId')}::int`, sql`${param('oFormId')}::int`, sql`${param('now')}`)} as paused`);
  const isOffered = sql`not (select paused from paused)`;
  const creation = db.$with('made', { id: sql<number>`id` }).as(sql`
    insert into ${oFormSubmissions} (o_form_id, media_channel_id, language, language_id, media_channel_url, utm, hidden_fields, token_hash, client_match, possible_retake)
    select ${param('oFormId')}::int, ${param('mediaChannelId')}::int, ${param('language')}::text, ${param('languageId')}::int,
      ${param('mediaChannelUrl')}::text, ${param('utm')}::jsonb, ${param('hiddenFields')}::jsonb, ${param('tokenHash')}::text, ${param('clientMatch')}::text, (select flagged from retake)
    where ${allowed} and ${isOffered}
    returning *`);
  const columns = {
    stale: sql<boolean>`not ${isFresh}`,
    limited: sql<boolean>`exists (select 1 from over)`,
    paused: sql<boolean>`(select paused from paused)`,
    submission: madeColumns,
  };
  if (!withPage) {
    const noPage = { pageEntryId: sql<number | null>`null::int`, pageChildren: sql<unknown>`null::json` };
    return db
      .with(fresh, hits, over, retake, paused, creation)
      .select({ ...columns, ...noPage })
      .from(sql`(select 1) as one left join made on true`)
      .prepare('participant_create_submission');
  }
  const { page, kids } = pageEntryCtes(db, sql`exists (select 1 from made)`, sql`(select id from made)`);
  return db
    .with(fresh, hits, over, retake, paused, creation, page, kids)
    .select({ ...columns, ...madePageColumns })
    .from(sql`(select 1) as one left join made on true`)
    .prepare('participant_create_submission_and_page');
};

const createSubmissionQuery = preparedQuery(submissionStatement(false));
const createSubmissionAndPageQuery = preparedQuery(submissionStatement(true));

/**
 * A new submission, after the call's rate-limit hits, all in one statement; `limited` (only the
 * hits written) when one is over its limit. A run from the same client (its keyed hash
 * `clientMatch`) and channel as one finished within the channel's retake window before `now` is
 * flagged possible_retake. It is counted in its channel's figures only once its participant saves
 * a page (savePage): a run is started then, for the channel's figures as for the funnel.
 */
export async function createSubmission(db: Db, { values, limits, now, firstPage, settingsVersion }: SubmissionCreation): Promise<CreationResult> {
  const pageParams = firstPage ? { pageId: firstPage.pageId, childContainerIds: intArray(firstPage.childContainerIds) } : {};
  const [row] = await (firstPage ? createSubmissionAndPageQuery : createSubmissionQuery)(db).execute({
    ...pageParams,
    settingsVersion,
    clientMatch: values.clientMatch ?? null,
    now: now.toISOString(),
    ...limitParams(limits),
    oFormId: values.oFormId,
    mediaChannelId: values.mediaChannelId ?? null,
    language: values.language,
    languageId: values.languageId ?? null,
    mediaChannelUrl: values.mediaChannelUrl ?? null,
    utm: JSON.stringify(values.utm ?? {}),
    hiddenFields: JSON.stringify(values.hiddenFields ?? {}),
    tokenHash: values.tokenHash,
  });
  if (!row) throw new Error('submission not created');
  return creationResult(row);
}

/** A start's creation: what createSubmission (and createSubmissions, for many) write. */
export interface SubmissionCreation {
  values: SubmissionValues;
  limits: Limits;
  now: Date;
  /** The first page's entry and its children's, made with it. */
  firstPage: { pageId: number; childContainerIds: readonly number[] } | null;
  /** The participant settings version the start was decided on; null: write whatever it is now. */
  settingsVersion: number | null;
}

export type SubmissionValues = Pick<
  typeof oFormSubmissions.$inferInsert,
  'oFormId' | 'mediaChannelId' | 'language' | 'languageId' | 'mediaChannelUrl' | 'utm' | 'hiddenFields' | 'tokenHash' | 'clientMatch'
>;

export type CreationResult =
  | { status: 'stale' }
  | { status: 'limited' }
  | { status: 'paused' }
  | { status: 'created'; submission: SubmissionRow; page: MadePage | null };

// The statement of createSubmission for many starts: each start's row is found again by its
// token hash, which only it has.
const createSubmissionsQuery = preparedQuery((db) => {
  const starts = db.$with('starts', { n: sql<number>`n` }).as(sql`
    select * from jsonb_to_recordset(${param('starts')}::jsonb) as s(
      n int, o_form_id int, media_channel_id int, language text, language_id int, media_channel_url text, utm jsonb, hidden_fields jsonb,
      token_hash text, client_match text, now timestamptz, settings_version bigint, page_id int, child_container_ids int[], limit_keys text[], limit_max int[])`);
  // As alone: a start decided on settings that changed since writes nothing, not even its hits.
  const fresh = db.$with('fresh', { n: sql<number>`n` }).as(sql`
    select s.* from starts s
    where s.settings_version is null or s.settings_version = coalesce((select version from ${participantSettingsVersion}), 0)`);
  const { checks, hits, over } = batchLimitCtes(db, sql`fresh`);
  const decided = db.$with('decided', { n: sql<number>`n` }).as(sql`
    select b.*, ${possibleRetakeCondition(sql`b.media_channel_id`, sql`b.client_match`, sql`b.now`)} as retake,
      (${pausedRun(sql`b.media_channel_id`, sql`b.o_form_id`, sql`b.now`)}) as paused
    from fresh b where not exists (select 1 from over o where o.n = b.n)`);
  const made = db.$with('made', { id: sql<number>`id` }).as(sql`
    insert into ${oFormSubmissions} (o_form_id, media_channel_id, language, language_id, media_channel_url, utm, hidden_fields, token_hash, client_match, possible_retake)
    select d.o_form_id, d.media_channel_id, d.language, d.language_id, d.media_channel_url, d.utm, d.hidden_fields, d.token_hash, d.client_match, d.retake
    from decided d where not d.paused order by d.n
    returning *`);
  // The runs made, with the first page each start asked for.
  const next = db.$with('next', { n: sql<number>`n` }).as(sql`
    select s.n, m.id as submission_id, s.page_id, s.child_container_ids from made m join starts s on s.token_hash = m.token_hash`);
  const { page, kids } = batchPageEntryCtes(db, sql`next`);
  return db
    .with(starts, fresh, checks, hits, over, decided, made, next, page, kids)
    .select({
      n: sql<number>`s.n`.mapWith(Number),
      stale: sql<boolean>`not exists (select 1 from fresh f where f.n = s.n)`,
      limited: sql<boolean>`exists (select 1 from over o where o.n = s.n)`,
      paused: sql<boolean>`coalesce((select d.paused from decided d where d.n = s.n), false)`,
      submission: madeColumns,
      ...batchMadePageColumns(sql`made.id`),
    })
    .from(sql`starts s left join made on made.token_hash = s.token_hash`)
    .orderBy(sql`s.n`)
    .prepare('participant_create_submissions');
});

/**
 * createSubmission for several starts in one statement, all or nothing, each answered with its own
 * result as if it had been written alone, in the batch's order: rate-limit hits per key in that
 * order, a stale, limited or paused start writing nothing of its own. The starts of a batch count
 * in one rate-limit window.
 */
export async function createSubmissions(db: Db, batch: readonly SubmissionCreation[]): Promise<CreationResult[]> {
  const windows = new Set(batch.map((c) => c.limits.windowStart.getTime()));
  if (windows.size > 1) throw new Error('the starts of a batch count in one window');
  const rows = await createSubmissionsQuery(db).execute({
    windowStart: batch[0]!.limits.windowStart.toISOString(),
    starts: JSON.stringify(
      batch.map(({ values, limits, now, firstPage, settingsVersion }, n) => ({
        n,
        o_form_id: values.oFormId,
        media_channel_id: values.mediaChannelId ?? null,
        language: values.language,
        language_id: values.languageId ?? null,
        media_channel_url: values.mediaChannelUrl ?? null,
        utm: values.utm ?? {},
        hidden_fields: values.hiddenFields ?? {},
        token_hash: values.tokenHash,
        client_match: values.clientMatch ?? null,
        now: now.toISOString(),
        settings_version: settingsVersion,
        page_id: firstPage?.pageId ?? null,
        child_container_ids: firstPage?.childContainerIds ?? [],
        limit_keys: limits.checks.map((c) => c.key),
        limit_max: limits.checks.map((c) => c.limit),
      })),
    ),
  });
  if (rows.length !== batch.length) throw new Error(`${batch.length} starts answered ${rows.length} rows`);
  return rows.map(creationResult);
}

/** What a creation statement's row says of its start. */
function creationResult(row: {
  stale: boolean | null;
  limited: boolean | null;
  paused: boolean | null;
  submission: { [K in keyof SubmissionRow]: SubmissionRow[K] | null };
  pageEntryId: number | null;
  pageChildren: unknown;
}): CreationResult {
  if (row.stale === true) return { status: 'stale' };
  if (row.limited === true) return { status: 'limited' };
  if (row.paused === true) return { status: 'paused' };
  if (row.submission.id === null) throw new Error('submission not created');
  // Every column of a made row holds what the table does.
  return { status: 'created', submission: row.submission as SubmissionRow, page: madePage(row) };
}

const createPageEntryQuery = preparedQuery((db) => {
  const { page, kids } = pageEntryCtes(db, sql`exists (select 1 from ${oFormSubmissions} where id = ${param('submissionId')} and ${OPEN_RUN})`);
  return db
    .with(page, kids)
    .select(entryColumns)
    .from(sql`(select *, 0 as k from page union all select *, 1 as k from kids) as made`)
    .orderBy(sql`k`, sql`id`)
    .prepare('participant_create_page_entry');
});

/** A page's entry and one child entry per given child container; null when the run is no longer open (nothing made). */
export async function createPageEntry(
  db: Db,
  submissionId: number,
  pageId: number,
  childContainerIds: readonly number[],
): Promise<{ entry: EntryRow; children: EntryRow[] } | null> {
  const [entry, ...children] = await createPageEntryQuery(db).execute({ submissionId, pageId, childContainerIds: intArray(childContainerIds) });
  return entry ? { entry, children } : null;
}

/**
 * A child container's entry under its page's entry in the submission (one the page entry lacks,
 * its container made after it). `notUnderPage` when the parent is not the entry of the
 * container's page in this submission, `closed` when the run is no longer open: nothing made.
 */
export async function createChildEntry(
  db: Db,
  submissionId: number,
  container: { id: number; parentId: number | null },
  parentId: number,
): Promise<{ status: 'notUnderPage' } | { status: 'closed' } | { status: 'made'; entry: typeof oFormContainerEntries.$inferSelect }> {
  const [parent] = await db
    .select()
    .from(oFormContainerEntries)
    .where(and(eq(oFormContainerEntries.id, parentId), eq(oFormContainerEntries.submissionId, submissionId)));
  if (!parent || parent.parentId !== null || container.parentId !== parent.containerId) return { status: 'notUnderPage' };
  const [open] = await db
    .select({ id: oFormSubmissions.id })
    .from(oFormSubmissions)
    .where(and(eq(oFormSubmissions.id, submissionId), OPEN_RUN));
  if (!open) return { status: 'closed' };
  const [entry] = await db.insert(oFormContainerEntries).values({ submissionId, containerId: container.id, parentId: parent.id }).returning();
  // The page entry's children changed: what this process kept of it no longer holds.
  forgetPageEntry(db, parent.id);
  return { status: 'made', entry: entry! };
}

/**
 * `limited` when a rate limit is over (only the hits are written), `closed` when the submission
 * is gone or no longer open (likewise); else `saved`, with the next page's new entry and its children.
 */
export type SaveResult =
  | { status: 'limited' }
  | { status: 'closed' }
  /** channelLocale: the run's channel's locale as the save found it (null: a run with no channel). */
  | { status: 'saved'; next: MadePage | null; channelLocale: string | null };

// Rows are found by `id = any(array(…))`: an index scan for the batch's few ids, where a join
// with the saves (estimated at a hundred rows) could plan a scan of the whole table.
const savePagesQuery = preparedQuery((db) => {
  const saves = db.$with('saves', { n: sql<number>`n` }).as(sql`
    select * from jsonb_to_recordset(${param('saves')}::jsonb) as s(
      n int, submission_id int, page_entry_id int, entry_ids int[], answers jsonb, page_id int, child_container_ids int[], limit_keys text[], limit_max int[])`);
  const { checks, hits, over } = batchLimitCtes(db, sql`saves`);
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
  const { page, kids } = batchPageEntryCtes(db, sql`ok`);
  return db
    .with(saves, checks, hits, over, before, locked, counted, ok, answered, answers, gone, saved, page, kids)
    .select({
      n: sql<number>`s.n`.mapWith(Number),
      limited: sql<boolean>`exists (select 1 from over o where o.n = s.n)`,
      saved: sql<boolean>`exists (select 1 from locked l where l.id = s.submission_id)`,
      ...batchMadePageColumns(sql`s.submission_id`),
      channelLocale: sql<string | null>`(select mc.locale from locked l join ${mediaChannels} mc on mc.id = l.media_channel_id where l.id = s.submission_id)`,
    })
    .from(sql`saves s`)
    .orderBy(sql`s.n`)
    .prepare('participant_save_pages');
});

/**
 * Saves of distinct submissions in one statement, all or nothing, each answered with its own
 * result. Each save's rate-limit hits are counted (per key, in the saves' order, so the k-th save
 * on a key sees the count the k-th save alone would), a save over a limit writes nothing else; the
 * submissions of the others are locked in id order and re-checked open (OPEN_RUN); the runs that
 * start are counted in their channels' figures; the pages' answers replace their earlier ones, and
 * the next pages' entries are made.
 */
export async function savePages(db: Db, batch: readonly PageSave[]): Promise<SaveResult[]> {
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
    return { status: 'saved', next: madePage(row), channelLocale: row.channelLocale };
  });
}

/** One page's save: a batch of one (./batchedSaves.ts gathers those that arrive together). */
export async function savePage(db: Db, save: PageSave): Promise<SaveResult> {
  const [result] = await savePages(db, [save]);
  return result!;
}
