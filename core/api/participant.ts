/**
 * The participant API over ky (docs/participant-api.md): the real `RunnerTransport` (and
 * `ResumeTransport`) of core/oform/runner.ts, plus `participantStart()`. It holds the
 * submission's access token, taken from the `Survey-Submission-Token` response header of the
 * submission's creation and sent back on every later call.
 *
 * It runs cross-origin (the widget lives on partner pages): `baseUrl` is the product's API
 * (`https://host/api`), and every call names the media channel in the query
 * (`?mediaChannelId=`) because the server's CORS check needs it before any body or token is read.
 * No cookies are sent (credentials 'omit'): the token header is the only credential.
 */
import type { KyInstance, Options } from 'ky';
import type { Resource } from '../jsonapi';
import type { FieldConfiguration, FieldType } from '../model/oform';
import type { Answers } from '../oform/answers';
import {
  OutcomeReached,
  type Outcome,
  type OutcomeMessages,
  type Qualification,
  type ResumeTransport,
  type RunnerPage,
  type RunnerStyles,
  type RunnerSurvey,
  type RunnerTransport,
  type SaveResult,
} from '../oform/runner';
import { ApiError, createApiClient, type ApiClient } from './client';

export const SUBMISSION_TOKEN_HEADER = 'Survey-Submission-Token';

export interface ParticipantApiOptions {
  /** The product's API root, origin plus `/api` (e.g. `https://recruit.example/api`). */
  baseUrl: string;
  mediaChannelId?: string | number | null;
  screenerId?: string | number | null;
  /** Sent as Accept-Language; the submission's language is chosen with `createSubmission`. */
  language?: string;
  /** The page the participant is on, stored with the submission (the widget passes location.href). */
  mediaChannelUrl?: string | null;
  /** A member of staff's access token, for previews of surveys not yet approved (admin only). */
  getStaffToken?: () => string | null | undefined;
  /**
   * Admin preview of one version (approved or not): `loadSurvey` reads that version through the
   * staff API (needs `getStaffToken`) instead of asking what a channel runs.
   */
  previewOFormId?: string | number | null;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** What `participantStart` answers: the survey to run, or why nothing runs. */
export type ParticipantStart =
  | {
      runnable: true;
      survey: RunnerSurvey;
      screenerId: string | null;
      mediaChannelId: string | null;
      firstPage: RunnerPage | null;
    }
  | { runnable: false; outcome: 'notActive'; messages: OutcomeMessages };

export interface ParticipantApi extends RunnerTransport, ResumeTransport {
  /** The shared client, for further participant calls (the contact steps use it with `withAccess`). */
  client: ApiClient;
  participantStart(options?: { oFormIdentity?: string; language?: string }): Promise<ParticipantStart>;
  /** Page timing (start and stop of one page's display). */
  pageMetric(metric: { identity: string; start: Date; stop?: Date | null }): Promise<void>;
  /** The submission this transport acts for, once created or resumed. */
  submissionId(): string | null;
  /** ky options carrying the token header and the channel query, for calls about the submission. */
  withAccess(options?: Options): Options;
}

interface StartMeta {
  runnable: boolean;
  outcome?: 'notActive';
  messages?: OutcomeMessages;
  oFormId?: string;
  oFormIdentity?: string;
  title?: string;
  containerCount?: number;
  languages?: string[];
  styles?: RunnerStyles;
  screenerId?: string | null;
  mediaChannelId?: string | null;
  firstPage?: { data: Resource; included?: Resource[] } | null;
}

interface PageMeta {
  success?: boolean;
  nextContainerIdentity?: string | null;
  nextContainerEntryId?: string | null;
  errors?: Record<string, string>;
}

/** A page document (the containers route) as the runner sees it. */
export function toRunnerPage(doc: { data: Resource; included?: Resource[] }): RunnerPage {
  const attrs = doc.data.attributes ?? {};
  const fieldRefs = doc.data.relationships?.oFormFields?.data;
  const order = Array.isArray(fieldRefs) ? fieldRefs.map((r) => r.id) : [];
  const fields = (doc.included ?? [])
    .filter((r) => r.type === 'o-form-fields')
    .sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id))
    .map((r) => {
      const a = r.attributes ?? {};
      return {
        id: r.id,
        identity: String(a.identity),
        type: a.type as FieldType,
        title: String(a.title ?? ''),
        displayOrder: Number(a.displayOrder ?? 0),
        configuration: a.configuration as FieldConfiguration,
      };
    });
  return {
    id: doc.data.id,
    identity: String(attrs.identity),
    title: String(attrs.title ?? ''),
    displayOrder: Number(attrs.displayOrder ?? 0),
    fields,
  };
}

/** Error documents' field pointers (/data/attributes/answers/x) as a map of field to message. */
function fieldErrors(errors: ApiError['errors']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of errors) {
    const field = e.source?.pointer?.split('/').pop();
    if (field && !(field in out)) out[field] = e.detail ?? e.title;
  }
  return out;
}

export function createParticipantApi(options: ParticipantApiOptions): ParticipantApi {
  const client = createApiClient({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    language: options.language,
    fetch: options.fetch,
    timeoutMs: options.timeoutMs,
    getToken: options.getStaffToken,
  });
  const channel = options.mediaChannelId === undefined || options.mediaChannelId === null ? null : String(options.mediaChannelId);
  let token: string | null = null;
  let submission: string | null = null;
  let started: { identity: string; firstPage: RunnerPage | null } | null = null;

  const query = (extra: Record<string, string> = {}): Record<string, string> => (channel === null ? extra : { ...extra, mediaChannelId: channel });
  const base: Options = { credentials: 'omit' };
  const withAccess = (extra: Options = {}): Options => {
    const search = extra.searchParams && typeof extra.searchParams === 'object' && !(extra.searchParams instanceof URLSearchParams) && !Array.isArray(extra.searchParams)
      ? (extra.searchParams as Record<string, string>)
      : {};
    return {
      ...base,
      ...extra,
      searchParams: query(search),
      headers: { ...(extra.headers as Record<string, string> | undefined), ...(token ? { [SUBMISSION_TOKEN_HEADER]: token } : {}) },
    };
  };
  const body = (type: string, attributes: Record<string, unknown>, id?: string) => ({ data: { type, ...(id ? { id } : {}), attributes } });
  const call = <T>(run: (http: KyInstance) => Promise<T>) => client.call(run);

  /** A call answering `{meta:{success:false, errors}}` with 422 gives the field map rather than failing. */
  const saving = async (run: (http: KyInstance) => Promise<Response>): Promise<SaveResult> => {
    try {
      const res = await call(run);
      const meta = ((await res.json()) as { meta?: PageMeta }).meta ?? {};
      return { ok: true, nextContainerIdentity: meta.nextContainerIdentity ?? null, nextContainerEntryId: meta.nextContainerEntryId ?? null };
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) return { ok: false, errors: fieldErrors(error.errors) };
      throw error;
    }
  };

  const loadPage = async (survey: RunnerSurvey, params: Record<string, string>) => {
    const doc = await call((http) =>
      http.get('o-forms/o-form-containers', withAccess({ searchParams: { oFormId: survey.id, include: 'oFormFields', ...params } })).json<{ data: Resource; included?: Resource[] }>(),
    );
    return toRunnerPage(doc);
  };

  const api: ParticipantApi = {
    client,
    withAccess,
    submissionId: () => submission,

    async participantStart(start = {}) {
      const params: Record<string, string> = {};
      if (options.screenerId !== undefined && options.screenerId !== null) params.screenerId = String(options.screenerId);
      if (start.oFormIdentity) params.oFormIdentity = start.oFormIdentity;
      if (start.language ?? options.language) params.language = (start.language ?? options.language)!;
      const { meta } = await call((http) => http.get('o-forms/participant-start', withAccess({ searchParams: params })).json<{ meta: StartMeta }>());
      if (!meta.runnable) return { runnable: false, outcome: 'notActive', messages: meta.messages ?? {} };
      const survey: RunnerSurvey = {
        id: String(meta.oFormId),
        identity: String(meta.oFormIdentity),
        title: meta.title ?? '',
        containerCount: meta.containerCount ?? 0,
        languages: meta.languages,
        styles: meta.styles,
      };
      const firstPage = meta.firstPage ? toRunnerPage(meta.firstPage) : null;
      started = { identity: survey.identity, firstPage };
      return { runnable: true, survey, screenerId: meta.screenerId ?? null, mediaChannelId: meta.mediaChannelId ?? null, firstPage };
    },

    async loadSurvey(identity) {
      if (options.previewOFormId !== undefined && options.previewOFormId !== null) {
        const id = encodeURIComponent(String(options.previewOFormId));
        const doc = await call((http) => http.get(`o-forms/o-forms/${id}`, { ...base, searchParams: { include: 'languages' } }).json<{ data: Resource; included?: Resource[] }>());
        const a = doc.data.attributes ?? {};
        const codes = (doc.included ?? []).filter((r) => r.type === 'languages').map((r) => String(r.attributes?.isoCode));
        return {
          id: doc.data.id,
          identity: String(a.identity),
          title: String(a.title ?? ''),
          containerCount: Number(a.containerCount ?? 0),
          languages: ['en', ...codes.filter((c) => c !== 'en')],
        };
      }
      const start = await api.participantStart(identity ? { oFormIdentity: identity } : {});
      if (!start.runnable) throw new OutcomeReached('notActive', start.messages);
      return start.survey;
    },

    async createSubmission(survey, language) {
      const res = await call((http) =>
        http.post(
          'o-forms/o-form-submissions',
          withAccess({
            json: body('o-form-submissions', {
              oFormId: Number(survey.id),
              ...(channel === null ? {} : { mediaChannelId: Number(channel) }),
              language: language ?? options.language ?? 'en',
              mediaChannelUrl: options.mediaChannelUrl ?? null,
            }),
          }),
        ),
      );
      const doc = (await res.json()) as { data: Resource | null; meta?: { outcome?: Outcome; messages?: OutcomeMessages } };
      if (!doc.data) throw new OutcomeReached(doc.meta?.outcome ?? 'notActive', doc.meta?.messages ?? {});
      const issued = res.headers.get(SUBMISSION_TOKEN_HEADER);
      if (!issued) throw new ApiError(0, [{ status: '0', title: 'The server did not hand out a submission token.' }]);
      token = issued;
      submission = doc.data.id;
      return { submissionId: doc.data.id };
    },

    async firstPage(survey) {
      if (started?.identity === survey.identity && started.firstPage) return started.firstPage;
      return loadPage(survey, { type: 'firstContainerPerForm' });
    },

    page: (survey, identity) => loadPage(survey, { identity }),

    async createEntry(submissionId, page) {
      const doc = await call((http) =>
        http
          .post(
            'o-forms/o-form-container-entries',
            withAccess({ json: body('o-form-container-entries', { oFormContainerId: Number(page.id), oFormSubmissionId: Number(submissionId) }) }),
          )
          .json<{ data: Resource }>(),
      );
      return { entryId: doc.data.id };
    },

    saveAnswers: (entryId, answers) =>
      saving((http) =>
        http.patch(`o-forms/o-form-submission-page/${encodeURIComponent(entryId)}`, withAccess({ json: body('o-form-submission-pages', { answers }, entryId) })),
      ),

    previewAnswers: (page, answers) =>
      saving((http) =>
        http.patch(
          `o-forms/o-form-submission-page-preview/${encodeURIComponent(page.id)}`,
          withAccess({ json: body('o-form-submission-pages', { answers }, page.id), ...(options.language ? { searchParams: { language: options.language } } : {}) }),
        ),
      ),

    async sanitize(submissionId, entryIds) {
      const doc = await call((http) =>
        http
          .patch(
            `o-forms/o-form-submission-sanitization/${encodeURIComponent(submissionId)}`,
            withAccess({ json: body('o-form-submission-sanitizations', { pageIds: entryIds.map(Number) }, submissionId) }),
          )
          .json<{ meta?: { isSanitizeSuccess?: boolean } }>(),
      );
      return doc.meta?.isSanitizeSuccess === true;
    },

    async qualification(submissionId): Promise<Qualification> {
      const doc = await call((http) =>
        http
          .get(`o-forms/o-form-submission-qualification/${encodeURIComponent(submissionId)}`, withAccess())
          .json<{ meta: { isQualified: boolean; outcome: Outcome; engagementIds?: string[]; messages?: OutcomeMessages } }>(),
      );
      return { isQualified: doc.meta.isQualified, outcome: doc.meta.outcome, engagementIds: doc.meta.engagementIds ?? [], messages: doc.meta.messages ?? {} };
    },

    async pageMetric(metric) {
      if (submission === null) return;
      await call((http) =>
        http.post(
          'o-forms/o-form-page-metrics',
          withAccess({
            json: body('o-form-page-metrics', {
              start: metric.start.toISOString(),
              stop: metric.stop?.toISOString() ?? null,
              type: 'page',
              identity: metric.identity,
              oFormSubmissionId: Number(submission),
            }),
          }),
        ),
      );
    },

    credentials: () => token,
    resume(submissionId, credentials) {
      submission = submissionId;
      token = credentials;
    },
    async entryAnswers(entryId): Promise<Answers> {
      const doc = await call((http) =>
        http
          .get(`o-forms/o-form-container-entries/${encodeURIComponent(entryId)}`, withAccess({ searchParams: { include: 'oFormFieldEntries' } }))
          .json<{ meta?: { answers?: Answers } }>(),
      );
      return doc.meta?.answers ?? {};
    },
  };
  return api;
}
