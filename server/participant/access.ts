/**
 * The submission access token (SPEC sections 4 and 7): handed out once, in the
 * `Survey-Submission-Token` response header of the submission's creation, and required in the
 * same request header on every later call about that submission. Only its SHA-256 is stored
 * (o_form_submissions.token_hash), so a database read does not yield working tokens.
 *
 * A token opens its own submission only: another submission's id, or another submission's page
 * entry, answers 404 exactly as an id that does not exist (nothing tells the two apart).
 *
 * A run that ended (runEnded) keeps its token in the browser for the channel's retake window,
 * where any script of the partner's page can read it: from then on the token opens only the
 * run's outcome, and its entries, answers, sites and contact answer 404 the same way.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { SUBMISSION_TOKEN_HEADER, SUBMISSION_TOKEN_META } from '@core/participant/wire';
import type { AppEnv } from '../context';
import { eq, sql } from 'drizzle-orm';
import * as v from 'valibot';
import type { Db } from '../db/open';
import { keptPerDatabase } from '../db/rowCache';
import { preparedQuery } from '../db/prepared';
import { parseJsonColumn } from '../db/rows';
import { mediaChannels, oFormContainerEntries, oFormSubmissions, oForms } from '../db/schema';
import { NotFound, Unauthenticated } from '../errors';
import { regionOfLocale } from './sites';
import { pooledRandomBytes } from '../security/randomPool';

/** SPEC section 8: what a call without its token answers (401). */
export const MISSING_TOKEN = {
  read: 'Cannot get page entry data without a submission access token',
  createEntry: 'Cannot create a page entry without a submission access token',
  metrics: 'Cannot send page metrics without a submission id',
} as const;

export type SubmissionRow = typeof oFormSubmissions.$inferSelect;
export type EntryRow = typeof oFormContainerEntries.$inferSelect;
type FormRow = typeof oForms.$inferSelect;

/**
 * Whether a run ended: its contact was left (completed), or its outcome found it not qualified
 * (notQualified, notActive). A qualified run whose answers are final still has its sites and
 * contact steps ahead, so it has not.
 */
export const runEnded = (s: Pick<SubmissionRow, 'status' | 'finishedAt' | 'isQualified'>): boolean =>
  s.status === 'completed' || (s.finishedAt !== null && s.isQualified === false);

/** 404 (as for a submission or entry that does not exist) when the run ended: its token reads only its outcome. */
export function assertRunNotEnded(s: Pick<SubmissionRow, 'status' | 'finishedAt' | 'isQualified'>, what: 'submission' | 'page entry'): void {
  if (runEnded(s)) throw new NotFound(what);
}

/** 32 random bytes, base64url: 43 characters. */
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** A fresh token and the hash to store; the token itself goes only into the response header. */
export function issueToken(): { token: string; hash: string } {
  const token = pooledRandomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

/**
 * The request's token: its header's, else its body's `meta.submissionToken` (readBodyToken), or
 * null when neither carries one.
 */
export function tokenOf(c: Context): string | null {
  const raw = (c.req.header(SUBMISSION_TOKEN_HEADER) ?? (c as Context<AppEnv>).get('bodyToken'))?.trim();
  return raw ? raw : null;
}

/**
 * Reads the token a call's body carries (core/participant/wire.ts: a POST sent as text/plain
 * with no header of its own is a CORS simple request, which needs no preflight). Before the
 * handler, so tokenOf stays synchronous; the body is kept for the handler to read. A body that
 * is not JSON is left to the handler's own reading, which refuses it.
 */
export const readBodyToken = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.method !== 'GET' && c.req.method !== 'OPTIONS' && c.req.header(SUBMISSION_TOKEN_HEADER) === undefined && c.req.header('content-length') !== '0') {
    let token: unknown;
    try {
      token = (JSON.parse(await c.req.text()) as { meta?: Record<string, unknown> } | null)?.meta?.[SUBMISSION_TOKEN_META];
    } catch {
      token = undefined;
    }
    if (typeof token === 'string') c.set('bodyToken', token);
  }
  await next();
});

const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

const submissionQuery = preparedQuery((db) =>
  db
    .select({ submission: oFormSubmissions, form: oForms, channelLocale: mediaChannels.locale })
    .from(oFormSubmissions)
    .innerJoin(oForms, eq(oForms.id, oFormSubmissions.oFormId))
    .leftJoin(mediaChannels, eq(mediaChannels.id, oFormSubmissions.mediaChannelId))
    .where(eq(oFormSubmissions.id, sql.placeholder('id')))
    .prepare('participant_submission'),
);

const entryQuery = preparedQuery((db) =>
  db
    .select({
      entry: oFormContainerEntries,
      submission: oFormSubmissions,
      form: oForms,
      channelLocale: mediaChannels.locale,
      page: sql<unknown>`(
        select json_build_object(
          'id', pe.id,
          'containerId', pe.container_id,
          'children', coalesce((select json_agg(json_build_array(ch.id, ch.container_id) order by ch.id) from ${oFormContainerEntries} ch where ch.parent_id = pe.id), '[]'))
        from ${oFormContainerEntries} pe where pe.id = coalesce(${oFormContainerEntries.parentId}, ${oFormContainerEntries.id}))`,
    })
    .from(oFormContainerEntries)
    .innerJoin(oFormSubmissions, eq(oFormSubmissions.id, oFormContainerEntries.submissionId))
    .innerJoin(oForms, eq(oForms.id, oFormSubmissions.oFormId))
    .leftJoin(mediaChannels, eq(mediaChannels.id, oFormSubmissions.mediaChannelId))
    .where(eq(oFormContainerEntries.id, sql.placeholder('id')))
    .prepare('participant_entry'),
);

/**
 * The submission `submissionId` names and its survey version, when the request's token opens it.
 * No token: 401 with `missing`; a token that does not open it (or no such submission, or a
 * malformed id): 404. One query: every participant call starts here, so the version comes along.
 */
export async function submissionForToken(
  db: Db,
  c: Context,
  submissionId: number | null,
  missing: string = MISSING_TOKEN.read,
): Promise<{ submission: SubmissionRow; form: FormRow; region: string }> {
  const token = tokenOf(c);
  if (token === null) throw new Unauthenticated(missing);
  if (submissionId === null || !TOKEN_FORMAT.test(token)) throw new NotFound('submission');
  const [found] = await submissionQuery(db).execute({ id: submissionId });
  if (!found || !sameHash(found.submission.tokenHash, hashToken(token))) throw new NotFound('submission');
  return { submission: found.submission, form: found.form, region: regionOfLocale(found.channelLocale) };
}

/** A page's entry: itself, or the parent of a child container's entry; with its child entries. */
export interface PageEntry {
  id: number;
  containerId: number;
  children: { id: number; containerId: number }[];
}

/** Entries as a query's json_build_array(id, container_id) pairs. */
export const EntryPairs = v.array(
  v.pipe(
    v.tuple([v.number(), v.number()]),
    v.transform(([id, containerId]) => ({ id, containerId })),
  ),
);

const PageEntryJson = v.object({ id: v.number(), containerId: v.number(), children: EntryPairs });

/**
 * The page entry `entryId` names, its submission and survey version, when the request's token
 * opens that submission; and the entry's page entry with its children. One query: a page answer
 * needs all of it, on every page of every participant.
 */
export async function entryForToken(
  db: Db,
  c: Context,
  entryId: number | null,
  missing: string = MISSING_TOKEN.read,
): Promise<{ entry: EntryRow; submission: SubmissionRow; form: FormRow; region: string; page: PageEntry }> {
  const token = tokenOf(c);
  if (token === null) throw new Unauthenticated(missing);
  if (entryId === null || !TOKEN_FORMAT.test(token)) throw new NotFound('page entry');
  const [found] = await entryQuery(db).execute({ id: entryId });
  if (!found || !sameHash(found.submission.tokenHash, hashToken(token))) throw new NotFound('page entry');
  const page = parseJsonColumn(PageEntryJson, found.page);
  return { entry: found.entry, submission: found.submission, form: found.form, region: regionOfLocale(found.channelLocale), page };
}

/** What answering a page needs of its entry: the submission's unchanging facts, its version, the page entry. */
export interface AnswerTarget {
  /** `status` as last read: the writes that follow re-check it under the submission's lock. */
  submission: Pick<SubmissionRow, 'id' | 'tokenHash' | 'mediaChannelId' | 'language' | 'status'>;
  form: FormRow;
  /**
   * The region of the run's channel (sites.ts channelRegion) as of the run's last call: read with
   * its entry, or carried from the call before (the start, the previous page's save, which reads
   * it again). So a page's ZIP question costs no read of its own, and a channel's new locale
   * reaches a run in progress at its next page.
   */
  region: string;
  page: PageEntry;
}

/**
 * Submissions and page entries this process made or read, so that the calls every participant
 * makes on every page (making a page entry, answering it) are one statement each rather than
 * two. What is kept never changes: a submission's token hash, channel and language; an entry's
 * page and child entries; and only versions whose structure is approved (loadSurvey keeps that
 * structure). A submission's status may go stale here, which is why the writes re-check it.
 */
const knownSubmissions = keptPerDatabase<number, Pick<AnswerTarget, 'submission' | 'form' | 'region'>>(20_000);
const knownEntries = keptPerDatabase<number, AnswerTarget>(20_000);

/** Only what a kept run answers with: a run's row read in full carries its attribution, and thousands are kept. */
const keptRun = ({ id, tokenHash, mediaChannelId, language, status }: AnswerTarget['submission']): AnswerTarget['submission'] => ({
  id,
  tokenHash,
  mediaChannelId,
  language,
  status,
});

export function rememberSubmission(db: Db, target: Pick<AnswerTarget, 'submission' | 'form' | 'region'>): void {
  if (target.form.approvedAt !== null) knownSubmissions.set(db, target.submission.id, { ...target, submission: keptRun(target.submission) });
}

export function rememberPageEntry(db: Db, entryId: number, target: AnswerTarget): void {
  if (target.form.approvedAt !== null) knownEntries.set(db, entryId, { ...target, submission: keptRun(target.submission) });
}

/** Drops what this process kept of a page entry (its child entries changed), under any of its entries' ids. */
export function forgetPageEntry(db: Db, pageEntryId: number): void {
  knownEntries.deleteWhere(db, (id, target) => id === pageEntryId || target.page.id === pageEntryId);
}

/** submissionForToken for making a page entry: from what this process keeps when it can, else one query. */
export async function keptSubmissionForToken(
  db: Db,
  c: Context,
  submissionId: number | null,
  missing: string,
): Promise<Pick<AnswerTarget, 'submission' | 'form' | 'region'>> {
  const token = tokenOf(c);
  if (token === null) throw new Unauthenticated(missing);
  const kept = submissionId === null ? undefined : knownSubmissions.get(db, submissionId);
  if (!kept) return submissionForToken(db, c, submissionId, missing);
  if (!TOKEN_FORMAT.test(token) || !sameHash(kept.submission.tokenHash, hashToken(token))) throw new NotFound('submission');
  return kept;
}

/** entryForToken for answering a page: from what this process keeps when it can, else one query. */
export async function answerTargetForToken(db: Db, c: Context, entryId: number | null): Promise<AnswerTarget> {
  const token = tokenOf(c);
  if (token === null) throw new Unauthenticated(MISSING_TOKEN.read);
  if (entryId === null || !TOKEN_FORMAT.test(token)) throw new NotFound('page entry');
  const kept = knownEntries.get(db, entryId);
  if (kept) {
    if (!sameHash(kept.submission.tokenHash, hashToken(token))) throw new NotFound('page entry');
    return kept;
  }
  const { submission, form, region, page } = await entryForToken(db, c, entryId);
  const target = { submission, form, region, page };
  rememberPageEntry(db, entryId, target);
  return target;
}
