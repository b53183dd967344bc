/**
 * The participant API (docs/participant-api.md) as the runner's transport, over plain fetch: the
 * one client of the participant routes, used by the widget on partners' pages, by the admin's
 * preview (./preview.ts composes it) and by the tests. It holds the submission's access token
 * (answered once by the submission's creation, sent back on every later call) and names the media
 * channel in the query of every call, because the server's CORS answer depends on it.
 *
 * Bodies and answers are the contract's types (./requests.ts, ./responses.ts): the server builds
 * its answers with them and its tests check every answer against their schemas. The widget ships
 * this file to partners' pages, so it carries no schema library and does not check answers again;
 * callers where bytes do not count pass `check` (./responses.ts checkParticipantAnswer) and every
 * answer is checked on arrival.
 */
import { JSON_API_MEDIA_TYPE } from '../jsonapi';
import type { Answers } from '../oform/answers';
import type { Answer } from '../oform/navigation';
import {
  OutcomeReached,
  type ContactTransport,
  type FieldErrors,
  type ResumeTransport,
  type RunnerField,
  type RunnerPage,
  type RunnerSurvey,
  type RunnerTransport,
  type SaveResult,
} from '../oform/runner';
import { OFORM_FIELD_TYPE } from '../model/kinds';
import { HttpError } from './httpError';
import type { ContactBody, EntryBody, PageAnswersBody, PageMetricBody, SanitizationBody, SubmissionBody } from './requests';
import type { ErrorDocument, PageDocument, ParticipantAnswer, ParticipantAnswerName } from './responses';
import { CONTACT_TYPE, ENTRY_TYPE, PAGE_ANSWERS_TYPE, PAGE_METRIC_TYPE, SANITIZATION_TYPE, SUBMISSION_TOKEN_HEADER, SUBMISSION_TYPE } from './wire';

export { HttpError };

export interface ParticipantTransportOptions {
  /** The product's origin, e.g. https://recruit.example (the widget takes it from its script's src). */
  apiOrigin: string;
  /** The channel every call names (none in the admin's preview). */
  mediaChannelId?: string | null;
  screenerId?: string | null;
  /** A transition survey's identity, when the run continues in another survey. */
  oFormIdentity?: string;
  /** The page the participant is on, stored with the submission (mediaChannelUrl). */
  pageUrl?: string;
  /** The language of the page previews' problems. */
  language?: string;
  fetch?: typeof fetch;
  /** Checks each answer against the contract (throwing when it breaks it), e.g. checkParticipantAnswer. */
  check?: (answer: ParticipantAnswerName, status: number, body: unknown) => void;
}

/** Beyond the runner's steps: page timing, and the channel a transition survey continues on. */
export interface ParticipantExtras {
  /** One page's display (ISO times). Resolves once sent, and also when it failed: timing never fails a run. */
  metric(submissionId: string, identity: string, start: string, stop: string): Promise<void>;
  transitionChannel(identity: string): Promise<{ mediaChannelId: string; screenerId: string }>;
  /** The submission this transport acts for, once created or resumed. */
  submissionId(): string | null;
}

export type ParticipantTransport = RunnerTransport & ContactTransport & ResumeTransport & ParticipantExtras;

type Called<K extends ParticipantAnswerName> = { ok: true; body: ParticipantAnswer<K> } | { ok: false; errors: FieldErrors };

/** A page document (the containers route, or participant-start's first page): the page and its questions in order. */
function pageOf({ data, included }: PageDocument): RunnerPage {
  // The questions follow the page's child containers in `included`, in display order.
  const fields = included.flatMap((r): RunnerField[] => (r.type === OFORM_FIELD_TYPE ? [{ id: r.id, ...r.attributes }] : []));
  const { identity, title, displayOrder } = data.attributes;
  return { id: data.id, identity, title, displayOrder, fields };
}

/** A 422's problems by question identity, contact field name, `zip` or `acceptTerms`: each error's pointer's last part, or its parameter. */
function fieldErrors({ errors }: ErrorDocument): FieldErrors {
  const out: FieldErrors = {};
  for (const { source, detail, title } of errors) {
    const name = source?.pointer?.split('/').pop() ?? source?.parameter;
    if (name && !(name in out)) out[name] = detail ?? title;
  }
  return out;
}

/** Answers as they travel: a question never touched (undefined) is not sent. */
const sendable = (answers: Answers): PageAnswersBody['answers'] =>
  Object.fromEntries(Object.entries(answers).filter((e): e is [string, Exclude<Answer, undefined>] => e[1] !== undefined));

export function createParticipantTransport(options: ParticipantTransportOptions): ParticipantTransport {
  const doFetch = options.fetch ?? fetch.bind(globalThis);
  const channel = options.mediaChannelId ?? null;
  const e = encodeURIComponent;
  let token: string | null = null;
  let submission: string | null = null;
  let started: { identity: string; page: RunnerPage | null } | null = null;

  /**
   * One call under /api/o-forms (or, from `/..`, beside it), answered by the contract's document
   * for `answer`; a 422 gives its problems; any other failure throws HttpError.
   */
  async function call<K extends ParticipantAnswerName>(
    method: string,
    path: string,
    answer: K,
    body?: { data: { type: string; id?: string; attributes: object } },
  ): Promise<Called<K>> {
    const headers: Record<string, string> = { Accept: JSON_API_MEDIA_TYPE };
    if (body) headers['Content-Type'] = JSON_API_MEDIA_TYPE;
    if (token) headers[SUBMISSION_TOKEN_HEADER] = token;
    const url = `${options.apiOrigin}/api/o-forms${path}${channel === null ? '' : `${path.includes('?') ? '&' : '?'}mediaChannelId=${e(channel)}`}`;
    const response = await doFetch(url, { method, headers, credentials: 'omit', body: body && JSON.stringify(body) });
    token = response.headers.get(SUBMISSION_TOKEN_HEADER) ?? token;
    if (!response.ok && response.status !== 422) throw new HttpError(response.status);
    const text = await response.text();
    const doc = JSON.parse(text || '{}');
    options.check?.(answer, response.status, doc);
    return response.status === 422 ? { ok: false, errors: fieldErrors(doc) } : { ok: true, body: doc };
  }

  const page = async (survey: RunnerSurvey, query: string) => {
    const got = await call('GET', `/o-form-containers?oFormId=${e(survey.id)}&${query}&include=oFormFields`, 'page');
    if (!got.ok) throw new HttpError(422);
    return pageOf(got.body);
  };
  const answering = async (path: string, id: string, answers: Answers): Promise<SaveResult> => {
    const attributes: PageAnswersBody = { answers: sendable(answers) };
    const got = await call('PATCH', path, 'pageSaved', { data: { type: PAGE_ANSWERS_TYPE, id, attributes } });
    return got.ok ? { ok: true, ...got.body.meta } : got;
  };

  return {
    async loadSurvey(identity) {
      const q = new URLSearchParams();
      if (options.screenerId) q.set('screenerId', options.screenerId);
      const oFormIdentity = identity || options.oFormIdentity;
      if (oFormIdentity) q.set('oFormIdentity', oFormIdentity);
      const got = await call('GET', `/participant-start?${q}`, 'start');
      if (!got.ok) throw new HttpError(422);
      const meta = got.body.meta;
      if (!meta.runnable) throw new OutcomeReached(meta.outcome, meta.messages);
      const { oFormId: id, oFormIdentity: runs, title, containerCount, languages, styles, firstPage } = meta;
      started = { identity: runs, page: firstPage && pageOf(firstPage) };
      return { id, identity: runs, title, containerCount, languages, styles };
    },

    async createSubmission(survey, language) {
      const attributes: SubmissionBody = { oFormId: survey.id, mediaChannelId: channel, language, mediaChannelUrl: options.pageUrl };
      const got = await call('POST', '/o-form-submissions', 'submission', { data: { type: SUBMISSION_TYPE, attributes } });
      if (!got.ok) throw new HttpError(422);
      const doc = got.body;
      if (doc.data === null) throw new OutcomeReached(doc.meta.outcome, doc.meta.messages);
      submission = doc.data.id;
      return { submissionId: submission };
    },

    async firstPage(survey) {
      const cached = started?.identity === survey.identity ? started.page : null;
      started = null;
      return cached ?? page(survey, 'type=firstContainerPerForm');
    },

    page: (survey, identity) => page(survey, `identity=${e(identity)}`),

    async createEntry(submissionId, p) {
      const attributes: EntryBody = { oFormContainerId: p.id, oFormSubmissionId: submissionId };
      const got = await call('POST', '/o-form-container-entries', 'entry', { data: { type: ENTRY_TYPE, attributes } });
      if (!got.ok) throw new HttpError(422);
      return { entryId: got.body.data.id };
    },

    saveAnswers: (entryId, answers) => answering(`/o-form-submission-page/${e(entryId)}`, entryId, answers),

    previewAnswers: (p, answers) =>
      answering(`/o-form-submission-page-preview/${e(p.id)}${options.language ? `?language=${e(options.language)}` : ''}`, p.id, answers),

    async sanitize(submissionId, entryIds) {
      const attributes: SanitizationBody = { pageIds: entryIds };
      const got = await call('PATCH', `/o-form-submission-sanitization/${e(submissionId)}`, 'sanitized', { data: { type: SANITIZATION_TYPE, id: submissionId, attributes } });
      return got.ok && got.body.meta.isSanitizeSuccess;
    },

    async qualification(submissionId) {
      const got = await call('GET', `/o-form-submission-qualification/${e(submissionId)}`, 'qualification');
      if (!got.ok) throw new HttpError(422);
      return got.body.meta;
    },

    async sites(submissionId, zip) {
      const got = await call('GET', `/o-form-submission-sites/${e(submissionId)}?zip=${e(zip)}`, 'sites');
      if (!got.ok) return got;
      const { data, meta } = got.body;
      return { ok: true, ...meta, sites: data.map((r) => ({ id: r.id, ...r.attributes })) };
    },

    async contactFields(submissionId) {
      const got = await call('GET', `/o-form-submission-contact-fields/${e(submissionId)}`, 'contactFields');
      if (!got.ok) throw new HttpError(422);
      const { data, meta } = got.body;
      return { fields: data.map((r) => ({ id: r.id, ...r.attributes })), messages: meta.messages };
    },

    async submitContact(submissionId, contact) {
      const attributes: ContactBody = contact;
      const got = await call('POST', `/o-form-submission-contact/${e(submissionId)}`, 'contact', { data: { type: CONTACT_TYPE, attributes } });
      return got.ok ? { ok: true, ...got.body.meta } : got;
    },

    async metric(submissionId, identity, start, stop) {
      const attributes: PageMetricBody = { start, stop, type: 'page', identity, oFormSubmissionId: submissionId };
      await call('POST', '/o-form-page-metrics', 'metric', { data: { type: PAGE_METRIC_TYPE, attributes } }).catch(() => undefined);
    },

    async transitionChannel(identity) {
      // The route sits beside /api/o-forms; the dot segment resolves there.
      const got = await call('GET', `/../get-media-channel-for-transition-survey/${e(identity)}/${e(channel ?? '')}`, 'transitionChannel');
      if (!got.ok) throw new HttpError(422);
      return { mediaChannelId: got.body.data.id, screenerId: String(got.body.data.attributes.screenerId) };
    },

    submissionId: () => submission,
    credentials: () => token,
    resume(submissionId, credentials) {
      submission = submissionId;
      token = credentials;
    },

    async entryAnswers(entryId) {
      const got = await call('GET', `/o-form-container-entries/${e(entryId)}?include=oFormFieldEntries`, 'entryAnswers');
      if (!got.ok) throw new HttpError(422);
      // Stored numbers come back as numbers; the inputs hold text.
      return Object.fromEntries(Object.entries(got.body.meta.answers).map(([k, v]) => [k, typeof v === 'number' ? String(v) : v]));
    },
  };
}
