/**
 * What the participant API's route files share (docs/participant-api.md): the sub-app every
 * participant route is registered on (CORS on its paths before any handler), reading a request's
 * attributes, the rate limits, the submission a token opens and the resources answered. Public:
 * participants are not signed in. Calls about a submission need its token (access.ts); CORS
 * answers only the media channel's domain and the product's own origin (cors.ts).
 */
import { Hono, type Context } from 'hono';
import { asc, eq } from 'drizzle-orm';
import * as v from 'valibot';
import { JSON_API_MEDIA_TYPE, type Resource } from '@core/jsonapi';
import { CONTACT_FIELD_TYPES, type ContactFieldType } from '@core/model/contactField';
import { SiteSearchAttributes } from '@core/participant/requests';
import type { AnswerProblemsDocument, Entry } from '@core/participant/responses';
import { ENTRY_TYPE, SUBMISSION_TYPE } from '@core/participant/wire';
import { nowOf, type AppEnv, type AuthUser, type Deps } from '../context';
import type { Db } from '../db/open';
import { contactFieldScreeners, contactFields, oFormContainerEntries, oForms, oFormSubmissions } from '../db/schema';
import { bearerToken } from '../auth/guards';
import { accessTokenUser } from '../auth/tokens';
import { loadUser } from '../auth/users';
import { JSON_OR_PLAIN_TYPES, readAttributes as readAttributesOf } from '../http/body';
import { clientAddress } from '../http/clientAddress';
import { answerText } from '../http/responseText';
import { ApiProblem, conflict, notFound, unauthorized } from '../http/errors';
import { schemaParam } from '../http/params';
import { parseId } from '../http/query';
import { hitAll, tooManyRequests } from '../http/rateLimit';
import { toResource } from '../http/serialize';
import { contactMatcherOf } from '../security/contactMatch';
import { findForm } from '../surveys';
import { MISSING_TOKEN, readBodyToken, runEnded, submissionForToken, tokenOf, type SubmissionRow } from './access';
import { assertChannelOfRequest, participantCors } from './cors';
import { languageChain } from './messages';
import type { QualificationResult } from './qualification';
import type { FormRow } from './runSurvey';
import { chooseFromList } from '@core/validation/chooseFromList';

/**
 * Where to look for sites, in a GET's query (a POST sends it in the body): each parameter read and
 * described by the body's own attribute schema.
 */
export const PLACE_QUERY = {
  zip: schemaParam(SiteSearchAttributes.entries.zip, "The participant's US ZIP code: sites nearest first; with country, a postal code or a town."),
  country: schemaParam(SiteSearchAttributes.entries.country, 'Outside the US: the ISO country code.'),
  postalCode: schemaParam(SiteSearchAttributes.entries.postalCode, 'With country: a postal code (Canada).'),
  town: schemaParam(SiteSearchAttributes.entries.town, 'With country: a town.'),
};

export const UNKNOWN_SURVEY = chooseFromList('a survey');
export const UNKNOWN_CHANNEL = chooseFromList('a media channel');
export const UNKNOWN_PAGE = 'Choose a page of this survey.';
/** A submission opens only its survey's first page; later pages are opened where the answers lead. */
export const FIRST_PAGE_ONLY = "Choose the survey's first page: a submission opens only that one.";
export const SUBMISSION_COMPLETED = 'This survey has been completed; its answers can no longer change.';
export const PAGE_NOT_ON_PATH = 'This page is not on the path your answers lead through the survey: answer the pages before it first.';
export const NOTHING_TO_START = "Name a media channel, a screener or a survey: 'mediaChannelId', 'screenerId' or 'oFormIdentity'.";

export const MISSING_CONTACT_TOKEN = 'Cannot send contact details without a submission access token';
export const RUN_ALREADY_COMPLETE = 'This survey run is already complete.';
export const NOT_QUALIFIED_FOR_CONTACT = 'Only a participant who qualified can leave contact details.';
export const SCREENING_INCOMPLETE = 'The screening is not complete: answer every page of the survey first.';

export type ParticipantApp = Hono<AppEnv>;
/** A route file's registration: its handlers on the participant sub-app. */
export type ParticipantRoutes = (app: ParticipantApp, deps: Deps) => void;

/**
 * The paths the route files declare, as CORS covers them: a path with a parameter by its prefix
 * and '/*' (so a preflight or a malformed id still gets the CORS answer), one without as it is.
 */
export function declaredPaths(deps: Deps, routes: readonly ParticipantRoutes[]): string[] {
  const probe = new Hono<AppEnv>();
  for (const register of routes) register(probe, deps);
  const paths = probe.routes.map((r) => {
    const param = r.path.indexOf('/:');
    return param < 0 ? r.path : `${r.path.slice(0, param)}/*`;
  });
  return [...new Set(paths)];
}

/**
 * The sub-app mounted at /api/o-forms: CORS first on each path its route files declare, and the
 * token a body carries, then each route file's handlers in the order given (the order requests
 * are matched in).
 */
export function participantApp(deps: Deps, routes: readonly ParticipantRoutes[]): ParticipantApp {
  const app = new Hono<AppEnv>();
  const cors = participantCors(deps);
  for (const path of declaredPaths(deps, routes)) app.use(path, cors, readBodyToken);
  for (const register of routes) register(app, deps);
  return app;
}

// ---------------------------------------------------------------------------------------------
// Input

/**
 * The attributes of `data` (any resource type), JSON also as text/plain. Routes read the body
 * their `describe()` declares (`c.var.body`); this is left for the one whose declaration says
 * otherwise (leads/participant.routes.ts: its document schema and these attributes differ in what
 * they refuse, and its refusals stay as they were).
 */
export const readAttributes = <S extends v.GenericSchema>(c: Context, schema: S): Promise<v.InferOutput<S>> => readAttributesOf(c, schema, JSON_OR_PLAIN_TYPES);

// ---------------------------------------------------------------------------------------------
// Access

/** A signed-in member of staff, when the request carries a valid access token (previews of unapproved surveys). */
async function optionalStaff(deps: Deps, c: Context): Promise<AuthUser | null> {
  const token = bearerToken(c);
  if (!token) return null;
  const userId = await accessTokenUser(deps.db, deps.jwtSecret, token, nowOf(deps));
  const user = userId === null ? null : await loadUser(deps.db, userId);
  if (!user || !user.isActive || userId === null) return null;
  return { id: userId, username: user.username, roles: user.roles.map((r) => r.name), sponsorIds: user.sponsors.map((s) => Number(s.id)), siteLocationIds: [] };
}

/** A survey version participants may read (approved and active), or any a member of staff may see. */
export async function readableForm(deps: Deps, c: Context, formId: number | null): Promise<FormRow> {
  if (formId === null) throw notFound('survey');
  const [form] = await deps.db.select().from(oForms).where(eq(oForms.id, formId));
  if (form && form.isApproved && form.isActive) return form;
  const user = form ? await optionalStaff(deps, c) : null;
  if (form && user && (await findForm(deps.db, form.id, user))) return form;
  throw notFound('survey');
}

/** The submission `:id` names, opened by its token (none: 401), from the channel the request names when it is cross-origin. */
export async function tokenSubmission<E extends AppEnv>(deps: Deps, c: Context<E>): Promise<SubmissionRow> {
  if (tokenOf(c) === null) throw unauthorized(MISSING_TOKEN.read);
  const { submission } = await submissionForToken(deps.db, c, parseId(c.req.param('id')));
  assertChannelOfRequest(c, deps, submission.mediaChannelId);
  return submission;
}

/** The submission `:submissionId` names (the contact steps), from the channel the request names when it is cross-origin. */
export async function openSubmission<E extends AppEnv>(deps: Deps, c: Context<E>, missing?: string): Promise<SubmissionRow> {
  const { submission } = await submissionForToken(deps.db, c, parseId(c.req.param('submissionId')), missing);
  assertChannelOfRequest(c, deps, submission.mediaChannelId);
  return submission;
}

/** Whether submission `submissionId` ended (runEnded) as it is now, or is gone. */
export async function hasEnded(db: Db, submissionId: number): Promise<boolean> {
  const [row] = await db
    .select({ status: oFormSubmissions.status, finishedAt: oFormSubmissions.finishedAt, isQualified: oFormSubmissions.isQualified })
    .from(oFormSubmissions)
    .where(eq(oFormSubmissions.id, submissionId));
  return !row || runEnded(row);
}

/**
 * What a refused call about submission `submissionId` answers: `problem`, unless the run ended,
 * then 404 as for an unknown `what` (its token reads only its outcome). For the calls that read
 * the run's status from what this process kept, which may be older than its end.
 */
export async function unlessEnded(db: Db, submissionId: number, what: 'submission' | 'page entry', problem: ApiProblem): Promise<ApiProblem> {
  return (await hasEnded(db, submissionId)) ? notFound(what) : problem;
}

/** A path that stops before the survey's end goes no further: nothing after qualification happens on it (409, nothing written). */
export function assertComplete(
  qualification: QualificationResult,
): asserts qualification is QualificationResult & { outcome: Exclude<QualificationResult['outcome'], 'incomplete'> } {
  if (qualification.outcome === 'incomplete') throw conflict(SCREENING_INCOMPLETE);
}

// ---------------------------------------------------------------------------------------------
// Rate limits

export type LimitCheck = { key: string | null; limit: number };

/**
 * The rate-limit key of a participant's client address for `kind` of call: the address only as
 * its keyed hash (security/contactMatch.ts, as possible retakes keep it), never in clear; null
 * without an address.
 */
export function addressLimitKey(deps: Deps, c: Context, kind: 'submissions' | 'pages' | 'views'): string | null {
  const hashed = contactMatcherOf(deps).clientAddress(clientAddress(c));
  return hashed === null ? null : `participant:${kind}:address:${hashed}`;
}

/** The rate-limit key of a media channel's calls of `kind` (those without a channel share one key). */
export const channelLimitKey = (kind: 'submissions' | 'pages', channelId: number | null): string =>
  channelId === null ? `participant:${kind}:no-channel` : `participant:${kind}:channel:${channelId}`;

/** The checks that count: a limit of 0 is no limit, a null key (no address) is not counted. */
export const countedChecks = (checks: readonly LimitCheck[]) =>
  checks.filter((check): check is { key: string; limit: number } => check.key !== null && check.limit > 0);

/** 429 with Retry-After until the window ends. */
export function limitExceeded(c: Context, resetAt: Date, now: Date): ApiProblem {
  const retryAfter = Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000));
  c.header('Retry-After', String(retryAfter));
  return tooManyRequests(retryAfter);
}

/** What a submission's creation counts against: the client address's and the channel's limits. */
export const submissionLimitChecks = (deps: Deps, c: Context, channelId: number | null): LimitCheck[] => [
  { key: addressLimitKey(deps, c, 'submissions'), limit: deps.config.participantLimits.submissionsPerAddress },
  { key: channelLimitKey('submissions', channelId), limit: deps.config.participantLimits.submissionsPerChannel },
];

/** The limits a page's save counts against: its address's and its channel's. */
export const pageLimitChecks = (deps: Deps, c: Context, channelId: number | null): LimitCheck[] => [
  { key: addressLimitKey(deps, c, 'pages'), limit: deps.config.participantLimits.pagesPerAddress },
  { key: channelLimitKey('pages', channelId), limit: deps.config.participantLimits.pagesPerChannel },
];

/** Counts one hit against each limit in the window `now` falls in, in one statement: the window's end when one is over, else null. */
export async function hitLimits(db: Db, now: Date, windowSeconds: number, checks: readonly LimitCheck[]): Promise<Date | null> {
  const counted = countedChecks(checks);
  if (counted.length === 0) return null;
  const { counts, resetAt } = await hitAll(
    db,
    counted.map((check) => check.key),
    windowSeconds,
    now.getTime(),
  );
  return counted.some(({ key, limit }) => (counts.get(key) ?? 0) > limit) ? resetAt : null;
}

/** hitLimits; over one: 429. */
export async function enforceLimits(db: Db, c: Context, now: Date, windowSeconds: number, checks: readonly LimitCheck[]) {
  const over = await hitLimits(db, now, windowSeconds, checks);
  if (over) throw limitExceeded(c, over, now);
}

// ---------------------------------------------------------------------------------------------
// Reading and answering

/** 422 `{meta:{success:false, errors}}` (the contract's shape), with the same problems as JSON:API errors. */
export function answerProblemsResponse(c: Context, problems: Record<string, string>) {
  const errors = Object.entries(problems).map(([identity, detail]) => ({
    status: '422',
    title: 'Invalid Attribute',
    detail,
    source: { pointer: `/data/attributes/answers/${identity}` },
  }));
  const body: AnswerProblemsDocument = { errors, meta: { success: false, errors: problems } };
  return answerText(c, JSON.stringify(body), 422, { 'Content-Type': JSON_API_MEDIA_TYPE });
}

export function submissionResource(row: SubmissionRow): Resource {
  return toResource(SUBMISSION_TYPE, row.id, {
    status: row.status,
    oFormId: row.oFormId,
    mediaChannelId: row.mediaChannelId,
    language: row.language,
    outcome: row.outcome,
    isQualified: row.isQualified,
    created: row.created.toISOString(),
  });
}

export type EntryRow = typeof oFormContainerEntries.$inferSelect;

export function entryResource(entry: EntryRow, identity: string | null, children: readonly EntryRow[] = []): Resource {
  return toResource(
    ENTRY_TYPE,
    entry.id,
    {
      oFormContainerId: entry.containerId,
      oFormContainerIdentity: identity,
      oFormSubmissionId: entry.submissionId,
      parentId: entry.parentId,
      created: entry.created.toISOString(),
    } satisfies Entry['attributes'],
    { relationships: { childEntries: { data: children.map((ch) => ({ type: ENTRY_TYPE, id: String(ch.id) })) } } },
  );
}

/** The language a participant runs in: theirs when the survey offers it (or its base language), else English. */
export function runLanguage(requested: string | null, offered: readonly string[]): string {
  return languageChain(requested).find((code) => offered.includes(code)) ?? 'en';
}

/** The screener's contact fields in weight order (then name, so equal weights keep one order). */
export async function screenerContactFields(db: Db, screenerId: number | null) {
  if (screenerId === null) return [];
  const rows = await db
    .select({ field: contactFields, weight: contactFieldScreeners.weight })
    .from(contactFieldScreeners)
    .innerJoin(contactFields, eq(contactFields.id, contactFieldScreeners.contactFieldId))
    .where(eq(contactFieldScreeners.screenerId, screenerId))
    .orderBy(asc(contactFieldScreeners.weight), asc(contactFields.name));
  return rows.map((r) => ({
    ...r.field,
    fieldType: ((CONTACT_FIELD_TYPES as readonly string[]).includes(r.field.fieldType) ? r.field.fieldType : 'text') as ContactFieldType,
  }));
}
