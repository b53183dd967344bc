/**
 * The participant API up to qualification (issue 7, docs/participant-api.md): starting a run,
 * the submission and its access token, pages, page entries and answers, preview, sanitization,
 * qualification and page timing. Public: participants are not signed in. Calls about a
 * submission need its token (server/participant/access.ts); CORS answers only the media
 * channel's domain and the product's own origin (server/participant/cors.ts).
 */
import { Hono, type Context } from 'hono';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import * as v from 'valibot';
import { JSON_API_MEDIA_TYPE, type Resource } from '@core/jsonapi';
import { toFieldIssues } from '@core/model/fields';
import { isApiIsoCode } from '@core/i18n';
import { keepHiddenFields, pageAttribution } from '@core/participant/attribution';
import { EntryAttributes, PageAnswersAttributes, PageMetricAttributes, SanitizationAttributes, SubmissionAttributes, ViewAttributes } from '@core/participant/requests';
import { PARTICIPANT_ANSWERS, type AnswerProblemsDocument, type Entry, type ParticipantAnswer } from '@core/participant/responses';
import { ENTRY_TYPE, FIELD_ENTRY_TYPE, PAGE_METRIC_TYPE, SUBMISSION_TOKEN_HEADER, SUBMISSION_TYPE } from '@core/participant/wire';
import { nowOf, type AppEnv, type AuthUser, type Deps } from '../context';
import type { Db } from '../db/open';
import { preparedQuery } from '../db/prepared';
import { mediaChannels, oFormContainerEntries, oFormContainers, oFormFieldEntries, oFormPageMetrics, oForms, screeners } from '../db/schema';
import { bearerToken } from '../auth/guards';
import { accessTokenUser } from '../auth/tokens';
import { loadUser } from '../auth/users';
import { readJson } from '../http/body';
import { clientAddress } from '../http/client-address';
import { ApiProblem, badRequest, conflict, invalid, notFound, unauthorized } from '../http/errors';
import { parseId } from '../http/query';
import { hitAll, tooManyRequests, windowOf } from '../http/rate-limit';
import { sendDocument, sendResource, toResource } from '../http/serialize';
import { answerTargetForToken, entryForToken, issueToken, keptSubmissionForToken, rememberPageEntry, rememberSubmission, MISSING_TOKEN, submissionForToken, tokenOf, type SubmissionRow } from '../participant/access';
import { assertChannelOfRequest, participantCors, recordPageProblem } from '../participant/cors';
import { channelInactive, channelUnknown, screenerMismatch } from '../participant/embedProblems';
import { createChildEntry, createPageEntry, createSubmission } from '../participant/entries';
import { clearLeftPages, storePageAnswers } from '../participant/pageAnswers';
import { countView } from '../funnel/views';
import { languageChain, outcomeMessages } from '../participant/messages';
import {
  activeChildren,
  answerProblems,
  checkRunnable,
  fieldsOfPage,
  loadSurvey,
  nextAfter,
  pageDocument,
  resolveStart,
  runOfSubmission,
  offeredFromColumn,
  offeredLanguagesColumn,
  runFactColumns,
  identityScreenerColumn,
  surveyLanguages,
  type ChannelRow,
  type FormRow,
} from '../participant/run';
import { mayEnter, participantPath } from '../participant/path';
import { qualify, recordQualification } from '../participant/qualification';
import { openAnswer } from '../participant/sealedAnswers';
import { phiOf } from '../security/phi';
import { contactMatcherOf } from '../security/contactMatch';
import { findForm } from '../oform/versions';
import { describe } from '../openapi/describe';
import { OUTCOMES, type Outcome } from '@core/oform/runner';
import { retakeWindow } from '../participant/retakes';

export const UNKNOWN_SURVEY = 'Choose a survey from the list.';
export const UNKNOWN_CHANNEL = 'Choose a media channel from the list.';
export const UNKNOWN_PAGE = 'Choose a page of this survey.';
export const SUBMISSION_COMPLETED = 'This survey has been completed; its answers can no longer change.';
export const PAGE_NOT_ON_PATH = 'This page is not on the path your answers lead through the survey: answer the pages before it first.';
export const NOTHING_TO_START = "Name a media channel, a screener or a survey: 'mediaChannelId', 'screenerId' or 'oFormIdentity'.";

/** The paths this module answers (CORS applies to these and to the contact steps' paths). */
export const PARTICIPANT_PATHS = [
  '/participant-start',
  '/participant-views',
  '/o-form-submissions',
  '/o-form-containers',
  '/o-form-container-entries',
  '/o-form-container-entries/*',
  '/o-form-submission-page/*',
  '/o-form-submission-page-preview/*',
  '/o-form-submission-sanitization/*',
  '/o-form-submission-qualification/*',
  '/o-form-submission-outcome/*',
  '/o-form-page-metrics',
] as const;

// ---------------------------------------------------------------------------------------------
// Input

/** The attributes of `data` (any resource type: participant bodies are small and named by the route). */
async function readAttributes<S extends v.GenericSchema>(c: Context, schema: S): Promise<v.InferOutput<S>> {
  const body = await readJson(c);
  const data = (body as { data?: unknown } | null)?.data;
  const attributes = data && typeof data === 'object' && !Array.isArray(data) ? (data as { attributes?: unknown }).attributes : undefined;
  if (!attributes || typeof attributes !== 'object' || Array.isArray(attributes)) {
    throw new ApiProblem(422, [
      { status: '422', title: 'Invalid Document', detail: 'The body must be a JSON:API document with attributes under "data".', source: { pointer: '/data/attributes' } },
    ]);
  }
  const parsed = v.safeParse(schema, attributes);
  if (!parsed.success) throw invalid(toFieldIssues(parsed.issues, '/data/attributes'));
  return parsed.output;
}

// ---------------------------------------------------------------------------------------------
// Helpers

/** A signed-in member of staff, when the request carries a valid access token (previews of unapproved surveys). */
async function optionalStaff(deps: Deps, c: Context): Promise<AuthUser | null> {
  const token = bearerToken(c);
  if (!token) return null;
  const userId = await accessTokenUser(deps.db, deps.jwtSecret, token, nowOf(deps));
  const user = userId === null ? null : await loadUser(deps.db, userId);
  if (!user || !user.isActive || userId === null) return null;
  return { id: userId, username: user.username, roles: user.roles.map((r) => r.name), sponsorIds: user.sponsors.map((s) => Number(s.id)) };
}

/** A survey version participants may read (approved and active), or any a member of staff may see. */
async function readableForm(deps: Deps, c: Context, formId: number | null): Promise<FormRow> {
  if (formId === null) throw notFound('survey');
  const [form] = await deps.db.select().from(oForms).where(eq(oForms.id, formId));
  if (form && form.isApproved && form.isActive) return form;
  const user = form ? await optionalStaff(deps, c) : null;
  if (form && user && (await findForm(deps.db, form.id, user))) return form;
  throw notFound('survey');
}

type LimitCheck = { key: string | null; limit: number };

/** The checks that count: a limit of 0 is no limit, a null key (no address) is not counted. */
const countedChecks = (checks: readonly LimitCheck[]) => checks.filter((check): check is { key: string; limit: number } => check.key !== null && check.limit > 0);

/** 429 with Retry-After until the window ends. */
function limitExceeded(c: Context, resetAt: Date, now: Date): ApiProblem {
  const retryAfter = Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000));
  c.header('Retry-After', String(retryAfter));
  return tooManyRequests(retryAfter);
}

/** Counts one hit against each limit in the window `now` falls in, in one statement; over one: 429. */
async function enforceLimits(db: Db, c: Context, now: Date, windowSeconds: number, checks: readonly LimitCheck[]) {
  const counted = countedChecks(checks);
  if (counted.length === 0) return;
  const { counts, resetAt } = await hitAll(
    db,
    counted.map((check) => check.key),
    windowSeconds,
    now.getTime(),
  );
  if (counted.some(({ key, limit }) => (counts.get(key) ?? 0) > limit)) throw limitExceeded(c, resetAt, now);
}

/** 422 `{meta:{success:false, errors}}` (the contract's shape), with the same problems as JSON:API errors. */
function answerProblemsResponse(c: Context, problems: Record<string, string>) {
  const errors = Object.entries(problems).map(([identity, detail]) => ({
    status: '422',
    title: 'Invalid Attribute',
    detail,
    source: { pointer: `/data/attributes/answers/${identity}` },
  }));
  const body: AnswerProblemsDocument = { errors, meta: { success: false, errors: problems } };
  return c.body(JSON.stringify(body), 422, { 'Content-Type': JSON_API_MEDIA_TYPE });
}

function submissionResource(row: SubmissionRow): Resource {
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

type EntryRow = typeof oFormContainerEntries.$inferSelect;

function entryResource(entry: EntryRow, identity: string | null, children: readonly EntryRow[] = []): Resource {
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
function runLanguage(requested: string | null, offered: readonly string[]): string {
  return languageChain(requested).find((code) => offered.includes(code)) ?? 'en';
}

/**
 * A version, a channel (a join on nothing they share; none for a null id), whether the version
 * runs through it and the languages it offers: all a submission's start reads, in one query.
 */
const formAndChannelQuery = preparedQuery((db) =>
  db
    .select({
      form: oForms,
      channel: mediaChannels,
      facts: { ...runFactColumns(oForms.identity, mediaChannels.id, mediaChannels.screenerId), identityScreener: identityScreenerColumn(oForms.identity) },
      languages: offeredLanguagesColumn(oForms.id),
    })
    .from(oForms)
    .leftJoin(mediaChannels, eq(mediaChannels.id, sql.placeholder('mediaChannelId')))
    .where(eq(oForms.id, sql.placeholder('oFormId')))
    .prepare('participant_form_and_channel'),
);

// ---------------------------------------------------------------------------------------------
// Routes

export function participantRoutes(deps: Deps) {
  const { db, config } = deps;
  const limits = config.participantLimits;
  const phi = phiOf(deps);
  const matcher = contactMatcherOf(deps);
  const app = new Hono<AppEnv>();
  const cors = participantCors(deps);
  for (const path of PARTICIPANT_PATHS) app.use(path, cors);

  /** Start: what the widget runs for a channel (or screener, or survey identity). Counts nothing: a view is the widget seen (below). */
  app.get('/participant-start', describe({
    summary: "Participant: what a media channel's run starts with",
    access: 'public',
    query: { mediaChannelId: 'The media channel.', screenerId: 'Its screener.', oFormIdentity: 'A survey to run instead of the current one (preview, transition).', language: 'The preferred language.' },
    answer: { document: PARTICIPANT_ANSWERS.start },
  }), async (c) => {
    const raw = { channel: c.req.query('mediaChannelId'), screener: c.req.query('screenerId'), identity: c.req.query('oFormIdentity') };
    const language = c.req.query('language') ?? null;
    const channelId = raw.channel === undefined ? null : parseId(raw.channel);
    const screenerId = raw.screener === undefined ? null : parseId(raw.screener);
    if (raw.channel !== undefined && channelId === null) throw badRequest("'mediaChannelId' must be a positive whole number.", 'mediaChannelId');
    if (raw.screener !== undefined && screenerId === null) throw badRequest("'screenerId' must be a positive whole number.", 'screenerId');
    if (raw.identity !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(raw.identity)) throw badRequest("'oFormIdentity' is not a survey identity.", 'oFormIdentity');
    if (language !== null && !isApiIsoCode(language)) throw badRequest("'language' must be an API language code such as en or es_MX.", 'language');
    if (channelId === null && screenerId === null && raw.identity === undefined) throw badRequest(NOTHING_TO_START);

    let channel: ChannelRow | null = null;
    if (channelId !== null) {
      [channel = null] = await db.select().from(mediaChannels).where(eq(mediaChannels.id, channelId));
      if (!channel) throw channelUnknown(channelId);
      // A snippet whose screener is not its channel's: the webmaster's to fix, named as such.
      if (screenerId !== null && screenerId !== channel.screenerId) {
        await recordPageProblem(c, deps, channel.id, 'screener-mismatch');
        throw screenerMismatch(channel, screenerId);
      }
    }
    if (screenerId !== null && !(await db.select({ id: screeners.id }).from(screeners).where(eq(screeners.id, screenerId)))[0]) {
      throw notFound('screener');
    }
    const target = await resolveStart(db, { channel, screenerId, identity: raw.identity ?? null });
    if (!target.runnable || !target.form) {
      const messages = await outcomeMessages(db, target.screenerId, 'notActive', language, target.form?.id ?? null);
      // A channel switched off: participants read its not-active message, the console why.
      const inactive = channel !== null && !channel.isActive ? channel : null;
      if (inactive) await recordPageProblem(c, deps, inactive.id, 'channel-inactive');
      const problem = inactive ? { problem: channelInactive(inactive.id) } : {};
      return sendDocument(c, { meta: { runnable: false, outcome: 'notActive', messages, ...problem } } satisfies ParticipantAnswer<'start'>);
    }
    const languages = await surveyLanguages(db, target.form.id);
    const survey = await loadSurvey(db, target.form);
    const first = survey.pages[0];
    const [screener] = target.screenerId === null ? [] : await db.select({ styles: screeners.styles }).from(screeners).where(eq(screeners.id, target.screenerId));
    return sendDocument(c, {
      meta: {
        runnable: true,
        oFormId: String(target.form.id),
        oFormIdentity: target.form.identity,
        title: target.form.title,
        containerCount: survey.pages.length,
        languages,
        styles: screener?.styles ?? {},
        screenerId: target.screenerId === null ? null : String(target.screenerId),
        mediaChannelId: channel ? String(channel.id) : null,
        retakeWindowDays: channel?.retakeWindowDays ?? 0,
        firstPage: first ? pageDocument(survey, first) : null,
      },
    });
  });

  /**
   * A view: the widget, once per page load, when at least half of it is on screen. Counted on an
   * active channel only (an inactive one shows no survey); a client address counts at most
   * `viewsPerAddress` views of a channel per window, beyond which the call is a 429.
   */
  app.post('/participant-views', describe({
    summary: 'Participant: the widget was seen (counts a view of the channel)',
    access: 'public',
    query: { mediaChannelId: 'The media channel (CORS).' },
    body: { resource: null, attributes: ViewAttributes },
    answer: { document: PARTICIPANT_ANSWERS.view, status: 202 },
  }), async (c) => {
    const input = await readAttributes(c, ViewAttributes);
    const [channel] = await db.select().from(mediaChannels).where(eq(mediaChannels.id, input.mediaChannelId));
    if (!channel) throw invalid([{ pointer: '/data/attributes/mediaChannelId', detail: UNKNOWN_CHANNEL }]);
    assertChannelOfRequest(c, deps, channel.id);
    const address = clientAddress(c);
    await enforceLimits(db, c, nowOf(deps), limits.windowSeconds, [
      { key: address === null ? null : `participant:views:address:${address}:${channel.id}`, limit: limits.viewsPerAddress },
    ]);
    if (channel.isActive) {
      // The survey the widget showed, as participant-start chose it; the funnel keeps its day, survey, language and campaign.
      const target = await resolveStart(db, { channel, screenerId: null, identity: input.oFormIdentity });
      const languages = target.form ? await surveyLanguages(db, target.form.id) : [];
      await countView(db, {
        at: nowOf(deps),
        mediaChannelId: channel.id,
        screenerId: target.screenerId,
        oFormId: target.form?.id ?? null,
        language: target.form ? runLanguage(input.language, languages) : (input.language ?? 'en'),
        utmSource: input.utm?.utm_source ?? null,
        utmCampaign: input.utm?.utm_campaign ?? null,
      });
    }
    c.header('Cache-Control', 'no-store');
    return sendDocument(c, { meta: { counted: channel.isActive } } satisfies ParticipantAnswer<'view'>, 202);
  });

  /** A new submission (in_progress) and its token, once, in the response header. */
  app.post('/o-form-submissions', describe({
    summary: 'Participant: start a submission (answers the submission token)',
    access: 'public',
    body: { resource: null, attributes: SubmissionAttributes },
    answer: { document: PARTICIPANT_ANSWERS.submission, status: 201 },
  }), async (c) => {
    const input = await readAttributes(c, SubmissionAttributes);
    const [found] = await formAndChannelQuery(db).execute({ oFormId: input.oFormId, mediaChannelId: input.mediaChannelId });
    if (!found) throw invalid([{ pointer: '/data/attributes/oFormId', detail: UNKNOWN_SURVEY }]);
    const { form, channel, facts } = found;
    if (input.mediaChannelId !== null && !channel) throw invalid([{ pointer: '/data/attributes/mediaChannelId', detail: UNKNOWN_CHANNEL }]);
    assertChannelOfRequest(c, deps, channel?.id ?? null);
    const address = clientAddress(c);
    const now = nowOf(deps);
    const limitChecks: LimitCheck[] = [
      { key: address === null ? null : `participant:submissions:address:${address}`, limit: limits.submissionsPerAddress },
      { key: channel ? `participant:submissions:channel:${channel.id}` : 'participant:submissions:no-channel', limit: limits.submissionsPerChannel },
    ];
    const target = await checkRunnable(db, form, channel, facts);
    if (!target.runnable) {
      // Counted apart (a rare answer); a submission's creation counts inside its own statement.
      await enforceLimits(db, c, now, limits.windowSeconds, limitChecks);
      const messages = await outcomeMessages(db, target.screenerId, 'notActive', input.language, form.id);
      return sendDocument(c, { data: null, meta: { outcome: 'notActive', messages } } satisfies ParticipantAnswer<'submission'>);
    }
    const offered = offeredFromColumn(found.languages);
    const language = runLanguage(input.language, offered.map((l) => l.isoCode));
    const { token, hash } = issueToken();
    const page = input.mediaChannelUrl === null ? { url: null, utm: {} } : pageAttribution(input.mediaChannelUrl);
    const window = windowOf(limits.windowSeconds, now.getTime());
    const created = await createSubmission(db, {
      oFormId: form.id,
      mediaChannelId: channel?.id ?? null,
      language,
      languageId: offered.find((l) => l.isoCode === language)?.id ?? null,
      mediaChannelUrl: page.url,
      utm: { ...page.utm, ...input.utm },
      hiddenFields: keepHiddenFields(channel?.hiddenFields ?? [], input.fields),
      tokenHash: hash,
      // The address only as its keyed hash, and only with a channel: a possible retake is per channel.
      clientMatch: channel ? matcher.clientAddress(address) : null,
    }, { windowStart: window.windowStart, checks: countedChecks(limitChecks) }, now);
    if (created.status === 'limited') throw limitExceeded(c, window.resetAt, now);
    const row = created.submission;
    rememberSubmission(db, { submission: row, form });
    c.header(SUBMISSION_TOKEN_HEADER, token);
    c.header('Cache-Control', 'no-store');
    return sendResource(c, submissionResource(row), 201);
  });

  /** One page with its active questions: the first page, or the page with an identity. */
  app.get('/o-form-containers', describe({ summary: 'Participant: read a survey page to show', access: 'public', answer: { document: PARTICIPANT_ANSWERS.page } }), async (c) => {
    const params = new URL(c.req.url).searchParams;
    for (const key of params.keys()) {
      if (!['oFormId', 'type', 'identity', 'include', 'mediaChannelId'].includes(key)) throw badRequest(`Unknown query parameter '${key}'.`, key);
    }
    const type = params.get('type');
    const identity = params.get('identity');
    if (type !== null && type !== 'firstContainerPerForm') throw badRequest("'type' may only be firstContainerPerForm.", 'type');
    if ((type === null) === (identity === null)) throw badRequest("Give either 'type=firstContainerPerForm' or 'identity'.", identity === null ? 'type' : 'identity');
    const rawId = params.get('oFormId');
    if (rawId === null) throw badRequest("'oFormId' is required.", 'oFormId');
    const form = await readableForm(deps, c, parseId(rawId));
    const survey = await loadSurvey(db, form);
    const page = identity === null ? survey.pages[0] : survey.pages.find((p) => p.identity === identity);
    if (!page) throw notFound('page');
    const { data, included } = pageDocument(survey, page);
    return sendResource(c, data, 200, included);
  });

  /** A page entry of the submission the token opens (a page; or a child container's entry under its page entry). */
  app.post('/o-form-container-entries', describe({
    summary: 'Participant: open a page of the submission',
    access: 'participant',
    body: { resource: null, attributes: EntryAttributes },
    answer: { document: PARTICIPANT_ANSWERS.entry, status: 201 },
  }), async (c) => {
    if (tokenOf(c) === null) throw unauthorized(MISSING_TOKEN.createEntry);
    const input = await readAttributes(c, EntryAttributes);
    // A page's entry re-checks the run's status as it is made; a child's entry (rare) reads it afresh.
    const { submission, form } =
      input.parentId === null
        ? await keptSubmissionForToken(db, c, input.oFormSubmissionId, MISSING_TOKEN.createEntry)
        : await submissionForToken(db, c, input.oFormSubmissionId, MISSING_TOKEN.createEntry);
    assertChannelOfRequest(c, deps, submission.mediaChannelId);
    if (submission.status === 'completed') throw conflict(SUBMISSION_COMPLETED);
    const survey = await loadSurvey(db, form);
    const container = survey.containers.find((x) => x.id === input.oFormContainerId && x.isActive);
    if (!container) throw invalid([{ pointer: '/data/attributes/oFormContainerId', detail: UNKNOWN_PAGE }]);
    if (input.parentId === null) {
      if (container.parentId !== null) throw invalid([{ pointer: '/data/attributes/parentId', detail: 'A child container needs the entry of its page as parentId.' }]);
      if (!survey.pages.some((p) => p.id === container.id)) throw invalid([{ pointer: '/data/attributes/oFormContainerId', detail: UNKNOWN_PAGE }]);
      // Beyond the first page, only where the stored answers lead (or back along that path).
      if (survey.pages[0]?.id !== container.id && !mayEnter(survey, await participantPath(db, survey, submission.id, phi), container.id)) {
        throw conflict(PAGE_NOT_ON_PATH);
      }
      const made = await createPageEntry(db, submission.id, container.id, activeChildren(survey, container.id));
      // Completed since this process last read it: nothing was made.
      if (!made) throw conflict(SUBMISSION_COMPLETED);
      const { entry, children } = made;
      rememberPageEntry(db, entry.id, { submission, form, page: { id: entry.id, containerId: container.id, children: children.map((ch) => ({ id: ch.id, containerId: ch.containerId })) } });
      return sendResource(c, entryResource(entry, container.identity, children), 201);
    }
    const made = await createChildEntry(db, submission.id, container, input.parentId);
    if (made.status === 'notUnderPage') {
      throw invalid([{ pointer: '/data/attributes/parentId', detail: "Choose the entry of this container's page in this submission." }]);
    }
    if (made.status === 'closed') throw conflict(SUBMISSION_COMPLETED);
    return sendResource(c, entryResource(made.entry, container.identity), 201);
  });

  /** A page entry with its answers (include=oFormFieldEntries); meta.answers maps field identity to value. */
  app.get('/o-form-container-entries/:id', describe({ summary: 'Participant: read a page of the submission with its answers', access: 'participant', answer: { document: PARTICIPANT_ANSWERS.entryAnswers } }), async (c) => {
    if (tokenOf(c) === null) throw unauthorized(MISSING_TOKEN.read);
    const include = c.req.query('include');
    if (include !== undefined && !['', 'oFormFieldEntries', 'OFormFieldEntries'].includes(include)) throw badRequest(`Cannot include '${include}'. Include oFormFieldEntries.`, 'include');
    const { entry, submission, form } = await entryForToken(db, c, parseId(c.req.param('id')));
    assertChannelOfRequest(c, deps, submission.mediaChannelId);
    const survey = await loadSurvey(db, form);
    const children = await db.select().from(oFormContainerEntries).where(eq(oFormContainerEntries.parentId, entry.id)).orderBy(asc(oFormContainerEntries.id));
    const entryIds = [entry.id, ...children.map((ch) => ch.id)];
    const answers = await db.select().from(oFormFieldEntries).where(inArray(oFormFieldEntries.containerEntryId, entryIds)).orderBy(asc(oFormFieldEntries.id));
    const identityOf = new Map(survey.fields.map((f) => [f.id, f.identity]));
    const given = new Map(answers.map((a) => [a.id, openAnswer(phi, { value: a.fieldValue, sealed: a.sealedValue })]));
    const containerIdentity = survey.containers.find((x) => x.id === entry.containerId)?.identity ?? null;
    const included = include
      ? answers.map((a) =>
          toResource(FIELD_ENTRY_TYPE, a.id, {
            fieldValue: given.get(a.id),
            oFormFieldId: a.fieldId,
            oFormFieldIdentity: identityOf.get(a.fieldId) ?? null,
            containerEntryId: a.containerEntryId,
          }),
        )
      : [];
    const data = entryResource(entry, containerIdentity, children);
    data.relationships = { ...data.relationships, oFormFieldEntries: { data: answers.map((a) => ({ type: FIELD_ENTRY_TYPE, id: String(a.id) })) } };
    const meta = { answers: Object.fromEntries(answers.flatMap((a) => (identityOf.has(a.fieldId) ? [[identityOf.get(a.fieldId)!, given.get(a.id)]] : []))) };
    return sendDocument(c, included.length ? { data, included, meta } : { data, meta });
  });

  /** A page's answers: checked, stored (replacing that entry's earlier ones) and followed to the next page. */
  app.patch('/o-form-submission-page/:id', describe({
    summary: "Participant: save a page's answers and learn where they lead",
    access: 'participant',
    body: { resource: null, attributes: PageAnswersAttributes },
    answer: { document: PARTICIPANT_ANSWERS.pageSaved },
  }), async (c) => {
    if (tokenOf(c) === null) throw unauthorized(MISSING_TOKEN.read);
    const requestedId = parseId(c.req.param('id'));
    const found = await answerTargetForToken(db, c, requestedId);
    const { submission } = found;
    assertChannelOfRequest(c, deps, submission.mediaChannelId);
    const now = nowOf(deps);
    const address = clientAddress(c);
    const limitChecks: LimitCheck[] = [
      { key: address === null ? null : `participant:pages:address:${address}`, limit: limits.pagesPerAddress },
      { key: submission.mediaChannelId === null ? 'participant:pages:no-channel' : `participant:pages:channel:${submission.mediaChannelId}`, limit: limits.pagesPerChannel },
    ];
    // A valid answer counts against the limits inside its save (one statement); every other
    // outcome counts here first, so a refused call is counted as before and may answer 429.
    const refused = async (error: unknown): Promise<never> => {
      await enforceLimits(db, c, now, limits.windowSeconds, limitChecks);
      throw error;
    };
    const { answers } = await readAttributes(c, PageAnswersAttributes).catch(refused);
    if (submission.status === 'completed') await refused(conflict(SUBMISSION_COMPLETED));
    const { page: pageEntry } = found;
    const survey = await loadSurvey(db, found.form);
    const page = survey.pages.find((p) => p.id === pageEntry.containerId) ?? (await refused(notFound('page')));
    const fields = fieldsOfPage(survey, page.id);
    const problems = answerProblems(fields, answers, submission.language);
    if (Object.keys(problems).length > 0) {
      await enforceLimits(db, c, now, limits.windowSeconds, limitChecks);
      return answerProblemsResponse(c, problems);
    }

    const next = nextAfter(survey, page, answers);
    const window = windowOf(limits.windowSeconds, now.getTime());
    const saved = await storePageAnswers(db, phi, found, survey, page, answers, next.page, { windowStart: window.windowStart, checks: countedChecks(limitChecks) });
    if (saved.status === 'limited') throw limitExceeded(c, window.resetAt, now);
    // The run was completed (or removed) after the entry was read: nothing was written.
    if (saved.status === 'closed') throw conflict(SUBMISSION_COMPLETED);
    const { nextEntryId } = saved;
    return sendDocument(c, {
      meta: {
        success: true,
        nextContainerIdentity: next.page?.identity ?? null,
        nextContainerEntryId: nextEntryId === null ? null : String(nextEntryId),
        nextOFormIdentity: next.surveyIdentity,
        nextPage: next.page && pageDocument(survey, next.page),
      },
    } satisfies ParticipantAnswer<'pageSaved'>);
  });

  /** Preview: where a page's answers lead, writing nothing (public for approved surveys, staff for the rest). */
  app.patch('/o-form-submission-page-preview/:id', describe({
    summary: "Preview: where a page's answers lead (nothing stored)",
    access: 'public',
    query: { language: 'The language previewed.' },
    body: { resource: null, attributes: PageAnswersAttributes },
    answer: { document: PARTICIPANT_ANSWERS.pageSaved },
  }), async (c) => {
    const pageId = parseId(c.req.param('id'));
    const [container] = pageId === null ? [] : await db.select({ oFormId: oFormContainers.oFormId }).from(oFormContainers).where(eq(oFormContainers.id, pageId));
    if (!container) throw notFound('page');
    const form = await readableForm(deps, c, container.oFormId);
    const { answers } = await readAttributes(c, PageAnswersAttributes);
    const survey = await loadSurvey(db, form);
    const page = survey.pages.find((p) => p.id === pageId);
    if (!page) throw notFound('page');
    const lang = c.req.query('language');
    const problems = answerProblems(fieldsOfPage(survey, page.id), answers, lang && isApiIsoCode(lang) ? lang : 'en');
    if (Object.keys(problems).length > 0) return answerProblemsResponse(c, problems);
    const next = nextAfter(survey, page, answers);
    return sendDocument(c, {
      meta: {
        success: true,
        nextContainerIdentity: next.page?.identity ?? null,
        nextContainerEntryId: null,
        nextOFormIdentity: next.surveyIdentity,
        nextPage: next.page && pageDocument(survey, next.page),
      },
    } satisfies ParticipantAnswer<'pageSaved'>);
  });

  /** Deletes the answers of page entries the participant left behind (and of their child entries). */
  app.patch('/o-form-submission-sanitization/:id', describe({
    summary: 'Participant: finish the submission',
    access: 'participant',
    body: { resource: null, attributes: SanitizationAttributes },
    answer: { document: PARTICIPANT_ANSWERS.sanitized },
  }), async (c) => {
    if (tokenOf(c) === null) throw unauthorized(MISSING_TOKEN.read);
    const { submission } = await submissionForToken(db, c, parseId(c.req.param('id')));
    assertChannelOfRequest(c, deps, submission.mediaChannelId);
    const { pageIds } = await readAttributes(c, SanitizationAttributes);
    if (submission.status === 'completed' || submission.finishedAt !== null) throw conflict(SUBMISSION_COMPLETED);
    const cleared = await clearLeftPages(db, submission.id, [...new Set(pageIds)]);
    if (cleared === 'closed') throw conflict(SUBMISSION_COMPLETED);
    const isSanitizeSuccess = cleared === 'cleared';
    return sendDocument(c, { meta: { isSanitizeSuccess } } satisfies ParticipantAnswer<'sanitized'>);
  });

  /** Qualification per engagement; stores the outcome and counts a newly qualified submission on its channel. */
  app.get('/o-form-submission-qualification/:id', describe({ summary: 'Participant: whether the submission qualified', access: 'participant', answer: { document: PARTICIPANT_ANSWERS.qualification } }), async (c) => {
    if (tokenOf(c) === null) throw unauthorized(MISSING_TOKEN.read);
    const { submission } = await submissionForToken(db, c, parseId(c.req.param('id')));
    assertChannelOfRequest(c, deps, submission.mediaChannelId);
    const result = await qualify(db, submission, { today: nowOf(deps), phi });
    if (submission.status !== 'completed') await recordQualification(db, submission.id, result, () => nowOf(deps));
    const target = await runOfSubmission(db, submission);
    const messages = await outcomeMessages(db, target.screenerId, result.outcome, submission.language, submission.oFormId);
    return sendDocument(c, {
      meta: { isQualified: result.isQualified, outcome: result.outcome, engagementIds: result.engagementIds.map(String), messages },
    } satisfies ParticipantAnswer<'qualification'>);
  });

  /**
   * Where the run stands, for a reloaded widget: its outcome, when it reached it and whether the
   * channel's retake window still holds (then the widget shows the outcome again, not a fresh
   * survey). Reads only.
   */
  app.get('/o-form-submission-outcome/:id', describe({
    summary: "Participant: the submission's outcome and whether the channel's retake window still holds",
    access: 'participant',
    answer: { document: PARTICIPANT_ANSWERS.outcome },
  }), async (c) => {
    if (tokenOf(c) === null) throw unauthorized(MISSING_TOKEN.read);
    const { submission } = await submissionForToken(db, c, parseId(c.req.param('id')));
    assertChannelOfRequest(c, deps, submission.mediaChannelId);
    const target = await runOfSubmission(db, submission);
    const outcome: Outcome = OUTCOMES.find((o) => o === submission.outcome) ?? 'incomplete';
    const finishedAt = submission.finishedAt ?? submission.completedAt;
    const window = retakeWindow(finishedAt, target.channel?.retakeWindowDays ?? 0, nowOf(deps));
    const messages = await outcomeMessages(db, target.screenerId, outcome, submission.language, submission.oFormId);
    c.header('Cache-Control', 'no-store');
    return sendDocument(c, {
      meta: {
        outcome,
        isQualified: submission.isQualified,
        finishedAt: finishedAt?.toISOString() ?? null,
        retakeWindowDays: window.days,
        retakeWindowEnds: window.endsAt?.toISOString() ?? null,
        withinRetakeWindow: window.within,
        messages,
      },
    } satisfies ParticipantAnswer<'outcome'>);
  });

  /** Page timing: when a page was shown and left. */
  app.post('/o-form-page-metrics', describe({
    summary: 'Participant: record time spent on a page',
    access: 'participant',
    body: { resource: null, attributes: PageMetricAttributes },
    answer: { document: PARTICIPANT_ANSWERS.metric, status: 201 },
  }), async (c) => {
    if (tokenOf(c) === null) throw unauthorized(MISSING_TOKEN.metrics);
    const body = await readJson(c);
    const attributes = (body as { data?: { attributes?: { oFormSubmissionId?: unknown } } } | null)?.data?.attributes;
    if (!attributes || attributes.oFormSubmissionId === undefined || attributes.oFormSubmissionId === null) throw unauthorized(MISSING_TOKEN.metrics);
    const parsed = v.safeParse(PageMetricAttributes, attributes);
    if (!parsed.success) throw invalid(toFieldIssues(parsed.issues, '/data/attributes'));
    const input = parsed.output;
    const { submission, form } = await submissionForToken(db, c, input.oFormSubmissionId, MISSING_TOKEN.metrics);
    assertChannelOfRequest(c, deps, submission.mediaChannelId);
    const survey = await loadSurvey(db, form);
    if (!survey.containers.some((x) => x.identity === input.identity && x.parentId === null)) {
      throw invalid([{ pointer: '/data/attributes/identity', detail: UNKNOWN_PAGE }]);
    }
    const [row] = await db
      .insert(oFormPageMetrics)
      .values({ submissionId: submission.id, oFormId: submission.oFormId, type: input.metricType, identity: input.identity, start: input.start, stop: input.stop })
      .returning();
    return sendResource(
      c,
      toResource(PAGE_METRIC_TYPE, row!.id, {
        start: row!.start.toISOString(),
        stop: row!.stop?.toISOString() ?? null,
        metricType: row!.type,
        identity: row!.identity,
        oFormSubmissionId: row!.submissionId,
      }),
      201,
    );
  });

  return app;
}
