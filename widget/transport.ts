/**
 * The participant API (docs/participant-api.md) as the runner's transport, over plain fetch:
 * the widget ships on partners' pages, so it carries no HTTP library. The submission's access
 * token lives here and goes out in the `Survey-Submission-Token` header of every later call.
 */
import { decode, type DataDocument, type ErrorObject, type Flat } from '../core/jsonapi';
import type { Answers } from '../core/oform/answers';
import {
  OutcomeReached,
  type ContactTransport,
  type FieldErrors,
  type Outcome,
  type OutcomeMessages,
  type ResumeTransport,
  type RunnerContactField,
  type RunnerField,
  type RunnerPage,
  type RunnerSurvey,
  type RunnerTransport,
  type TrialSite,
} from '../core/oform/runner';

export const TOKEN_HEADER = 'Survey-Submission-Token';
const MEDIA_TYPE = 'application/vnd.api+json';

/** An answer the widget cannot carry on from (unknown channel, malformed ids): not worth a retry. */
export class HttpError extends Error {
  declare readonly status: number;
  constructor(status: number) {
    super(`HTTP ${status}`);
    this.status = status;
  }
}

export interface ParticipantTransportOptions {
  /** e.g. https://host (from the script's own src). */
  apiOrigin: string;
  mediaChannelId: string;
  screenerId: string;
  /** A transition survey's identity, when the run continues in another survey. */
  oFormIdentity?: string;
  /** The page the participant is on, sent with the submission (mediaChannelUrl). */
  pageUrl?: string;
  fetch?: typeof fetch;
}

/** The widget's own extras: page timing, and the channel a transition survey continues on. */
export interface WidgetExtras {
  /** Fire-and-forget: never awaited, never fails the run. */
  metric(submissionId: string, identity: string, start: string, stop: string): void;
  transitionChannel(identity: string): Promise<{ mediaChannelId: string; screenerId: string }>;
}

export type ParticipantTransport = RunnerTransport & ContactTransport & ResumeTransport & WidgetExtras;

type Doc = DataDocument & { meta?: Record<string, unknown>; errors?: ErrorObject[] };

const str = (v: unknown): string => (v == null ? '' : String(v));
const e = encodeURIComponent;

/** A page from the containers route, flattened (its fields included), or as participant-start gives it. */
export function toRunnerPage(raw: Flat | Record<string, unknown>): RunnerPage {
  const fields = ((raw.oFormFields ?? []) as Record<string, unknown>[]).filter((f) => f.isActive !== false);
  return {
    ...(raw as unknown as RunnerPage),
    fields: fields
      .map((f) => ({ ...(f as unknown as RunnerField), configuration: { required: false, helperText: null, translations: {}, options: [], ...(f.configuration as object) } }))
      .sort((a, b) => a.displayOrder - b.displayOrder),
  };
}

/** Field errors from a 422: the meta map, or pointers (`/data/attributes/answers/q1`, `/data/attributes/values/email`) by their last part. */
function fieldErrors(body: Doc): FieldErrors {
  const out: FieldErrors = { ...(body.meta?.errors as FieldErrors | undefined) };
  for (const x of body.errors ?? []) {
    const name = x.source?.pointer?.split('/').pop() ?? x.source?.parameter;
    if (name && !(name in out)) out[name] = x.detail ?? x.title;
  }
  return out;
}

export function createParticipantTransport(options: ParticipantTransportOptions): ParticipantTransport {
  const doFetch = options.fetch ?? fetch.bind(globalThis);
  const base = `${options.apiOrigin}/api/o-forms`;
  let token: string | null = null;
  let firstPage: RunnerPage | null = null;

  /** One call; 2xx and 422 answer their body, anything else throws. */
  async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Doc }> {
    const headers: Record<string, string> = { Accept: MEDIA_TYPE };
    if (body !== undefined) headers['Content-Type'] = MEDIA_TYPE;
    if (token) headers[TOKEN_HEADER] = token;
    // Every call names the channel: the server's CORS answer depends on it.
    const url = `${base}${path}${path.includes('?') ? '&' : '?'}mediaChannelId=${e(options.mediaChannelId)}`;
    const response = await doFetch(url, { method, headers, credentials: 'omit', body: body === undefined ? undefined : JSON.stringify(body) });
    const received = response.headers.get(TOKEN_HEADER);
    if (received) token = received;
    const text = await response.text();
    const parsed = (text ? JSON.parse(text) : {}) as Doc;
    if (!response.ok && response.status !== 422) throw new HttpError(response.status);
    return { status: response.status, body: parsed };
  }

  const meta = (doc: Doc) => doc.meta ?? {};
  const messagesOf = (doc: Doc) => (meta(doc).messages ?? {}) as OutcomeMessages;
  const page = async (query: string) => {
    const { body } = await call('GET', `/o-form-containers?${query}&include=oFormFields`);
    const flat = decode(body);
    const one = Array.isArray(flat) ? flat[0] : flat;
    if (!one) throw new HttpError(404);
    return toRunnerPage(one);
  };

  return {
    async loadSurvey(identity) {
      const q = new URLSearchParams({ screenerId: options.screenerId });
      const oFormIdentity = identity || options.oFormIdentity;
      if (oFormIdentity) q.set('oFormIdentity', oFormIdentity);
      const { body } = await call('GET', `/participant-start?${q}`);
      const m = meta(body);
      if (m.runnable !== true) throw new OutcomeReached('notActive', messagesOf(body));
      firstPage = m.firstPage ? toRunnerPage(decode(m.firstPage as DataDocument) as Flat) : null;
      return {
        id: str(m.oFormId),
        identity: str(m.oFormIdentity),
        title: str(m.title),
        containerCount: Number(m.containerCount ?? 0),
        languages: Array.isArray(m.languages) ? m.languages.map(str) : ['en'],
        styles: (m.styles ?? {}) as RunnerSurvey['styles'],
      };
    },

    async createSubmission(survey, language) {
      const attributes: Record<string, string> = { oFormId: survey.id, mediaChannelId: options.mediaChannelId };
      if (language) attributes.language = language;
      if (options.pageUrl) attributes.mediaChannelUrl = options.pageUrl;
      const { body } = await call('POST', '/o-form-submissions', { data: { type: 'o-form-submissions', attributes } });
      const data = body.data as { id?: string } | null;
      if (!data?.id) throw new OutcomeReached('notActive', messagesOf(body));
      return { submissionId: data.id };
    },

    async firstPage(survey) {
      const cached = firstPage;
      firstPage = null;
      return cached ?? page(`oFormId=${e(survey.id)}&type=firstContainerPerForm`);
    },

    page: (survey, identity) => page(`oFormId=${e(survey.id)}&identity=${e(identity)}`),

    async createEntry(submissionId, p) {
      const { body } = await call('POST', '/o-form-container-entries', {
        data: { type: 'o-form-container-entries', attributes: { oFormContainerId: p.id, oFormSubmissionId: submissionId } },
      });
      return { entryId: str((body.data as { id?: string } | null)?.id) };
    },

    async saveAnswers(entryId, answers) {
      return saveResult(await call('PATCH', `/o-form-submission-page/${e(entryId)}`, { data: { attributes: { answers } } }));
    },

    async previewAnswers(p, answers) {
      return saveResult(await call('PATCH', `/o-form-submission-page-preview/${e(p.id)}`, { data: { attributes: { answers } } }));
    },

    async sanitize(submissionId, entryIds) {
      const { body } = await call('PATCH', `/o-form-submission-sanitization/${e(submissionId)}`, {
        data: { attributes: { pageIds: entryIds } },
      });
      return meta(body).isSanitizeSuccess === true;
    },

    async qualification(submissionId) {
      const { body } = await call('GET', `/o-form-submission-qualification/${e(submissionId)}`);
      const m = meta(body);
      return { ...m, isQualified: m.isQualified === true, messages: messagesOf(body) };
    },

    async sites(submissionId, zip) {
      const { status, body } = await call('GET', `/o-form-submission-sites/${e(submissionId)}?zip=${e(zip)}`);
      if (status === 422) return { ok: false, errors: fieldErrors(body) };
      const sites = (decode(body) as Flat[] | null) ?? [];
      return {
        ok: true,
        outcome: (meta(body).outcome ?? 'qualified') as Outcome,
        messages: messagesOf(body),
        sites: sites.map((s) => ({ ...(s as unknown as TrialSite), id: s.id, name: str(s.name), distanceMiles: Number(s.distanceMiles ?? 0) })),
      };
    },

    async contactFields(submissionId) {
      const { body } = await call('GET', `/o-form-submission-contact-fields/${e(submissionId)}`);
      const fields = ((decode(body) as Flat[] | null) ?? []).map((f) => ({ ...(f as unknown as RunnerContactField), required: f.required === true }));
      return { fields, messages: messagesOf(body) };
    },

    async submitContact(submissionId, contact) {
      const { status, body } = await call('POST', `/o-form-submission-contact/${e(submissionId)}`, { data: { attributes: contact } });
      if (status === 422) return { ok: false, errors: fieldErrors(body) };
      return { ok: true, outcome: 'completed', messages: messagesOf(body) };
    },

    metric(submissionId, identity, start, stop) {
      call('POST', '/o-form-page-metrics', {
        data: { type: 'o-form-page-metrics', attributes: { start, stop, type: 'page', identity, oFormSubmissionId: submissionId } },
      }).catch(() => undefined);
    },

    async transitionChannel(identity) {
      // The route sits beside /api/o-forms; fetch resolves the dot segment.
      const { body } = await call('GET', `/../get-media-channel-for-transition-survey/${e(identity)}/${e(options.mediaChannelId)}`);
      const channel = decode(body) as Flat;
      return { mediaChannelId: str(channel.id), screenerId: str(channel.screenerId) };
    },

    credentials: () => token,
    resume(_submissionId, credentials) {
      token = credentials;
    },

    async entryAnswers(entryId) {
      const { body } = await call('GET', `/o-form-container-entries/${e(entryId)}?include=oFormFieldEntries`);
      // Stored numbers come back as numbers; the inputs hold text.
      const answers = (meta(body).answers ?? {}) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(answers).map(([k, v]) => [k, typeof v === 'number' ? String(v) : v])) as Answers;
    },
  };

  function saveResult({ status, body }: { status: number; body: Doc }) {
    const m = meta(body);
    if (status === 422 || m.success === false) return { ok: false as const, errors: fieldErrors(body) };
    return {
      ok: true as const,
      nextContainerIdentity: (m.nextContainerIdentity as string | null) ?? null,
      nextContainerEntryId: (m.nextContainerEntryId as string | null) ?? null,
      nextOFormIdentity: (m.nextOFormIdentity as string | null) ?? null,
    };
  }
}
