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
 * answer is checked on arrival. The calls go through ./call.ts; the start of a run is ./start.ts,
 * which the widget loads first (this file follows while the first question is on screen).
 */
import type { Answers } from '../survey/answers';
import {
  OutcomeReached,
  type FieldErrors,
  type PageTimes,
  type ContactTransport,
  type ResumeTransport,
  type RunnerTransport,
  type SaveResult,
} from '../survey/runner';
import { pageAttribution } from './attribution';
import { bodyOf, createParticipantCaller, type ParticipantCallOptions, type ParticipantCaller } from './call';
import { HttpError } from './httpError';
import type { ContactBody, EntryBody, LeadBody, PageAnswersBody, PageMetricBody, SanitizationBody, SubmissionBody } from './requests';
import type { PageSavedMeta, ParticipantAnswer } from './responses';
import { fetchPage, pageOf, startCalls, type StartCalls, type StartOptions } from './start';
import { CONTACT_TYPE, ENTRY_TYPE, LEAD_CONTACT_TYPE, PAGE_ANSWERS_TYPE, PAGE_METRIC_TYPE, SANITIZATION_TYPE, SUBMISSION_TYPE } from './wire';

export { HttpError };

export interface ParticipantTransportOptions extends ParticipantCallOptions, StartOptions {
  /** Hidden fields the page passes with the run (the channel keeps those it declares). */
  fields?: Record<string, string>;
  /** The language of the page previews' problems. */
  language?: string;
}

/** Beyond the runner's steps: views, the timing of a page left without a save, and the channel a transition survey continues on. */
export interface ParticipantExtras extends Pick<StartCalls, 'view'> {
  /** One page's display (ISO times). Resolves once sent, and also when it failed: timing never fails a run. */
  metric(submissionId: string, identity: string, start: string, stop: string): Promise<void>;
  transitionChannel(identity: string): Promise<{ mediaChannelId: string; screenerId: string }>;
  /** The submission this transport acts for, once created or resumed. */
  submissionId(): string | null;
}

export type ParticipantTransport = RunnerTransport & Required<ContactTransport> & ResumeTransport & ParticipantExtras;

/** The transport; `caller` when the start of the run (./start.ts) already made calls with it. */
export function createParticipantTransport(
  options: ParticipantTransportOptions,
  caller: ParticipantCaller = createParticipantCaller(options),
): ParticipantTransport {
  const { call, channel } = caller;
  const e = encodeURIComponent;
  let submission: string | null = null;

  const saved = ({ nextPage, ...meta }: PageSavedMeta): SaveResult => ({ ok: true, ...meta, nextPage: nextPage && pageOf(nextPage) });

  const answering = async (path: string, id: string, answers: Answers, timing?: PageTimes | null): Promise<SaveResult> => {
    // A question never touched (undefined) is not sent: the JSON writer (./jsonText.ts) leaves undefined members out (so is no timing).
    const attributes = { answers, timing } as PageAnswersBody;
    const got = await call(path, 'pageSaved', { data: { type: PAGE_ANSWERS_TYPE, id, attributes } });
    return got.ok ? saved(got.body.meta) : got;
  };

  /**
   * A contact form: a referral's or a lead's (for the place searched from), each with the texts
   * around it. POST with the token and the place in the body: no preflight, no ZIP in an address.
   */
  const contactForm = async (path: string, answer: 'contactFields' | 'leadFields', zip?: string, country?: string) => {
    const { data, meta } = bodyOf(await call(path, answer, { data: { attributes: { zip, country } } }));
    return { fields: data.map((r) => ({ id: r.id, ...r.attributes })), messages: meta.messages };
  };

  /** A contact sent with its consent (a referral's or a lead's): its problems, or the texts to show now. */
  const sending = async <K extends 'contact' | 'lead'>(
    path: string,
    answer: K,
    type: string,
    attributes: object,
  ): Promise<({ ok: true } & ParticipantAnswer<K>['meta']) | { ok: false; errors: FieldErrors }> => {
    const got = await call(path, answer, { data: { type, attributes } });
    return got.ok ? ({ ok: true, ...got.body.meta } as { ok: true } & ParticipantAnswer<K>['meta']) : got;
  };

  return {
    ...startCalls(caller, options),

    async createSubmission(survey, language, firstPage, answers, timing) {
      // Only the page's origin and path and its campaign parameters leave the browser.
      const page = options.pageUrl === undefined ? null : pageAttribution(options.pageUrl);
      const attributes: SubmissionBody = {
        oFormId: survey.id,
        mediaChannelId: channel,
        language,
        mediaChannelUrl: page?.url ?? null,
        ...(page && Object.keys(page.utm).length ? { utm: page.utm } : {}),
        ...(options.fields ? { fields: options.fields } : {}),
        oFormContainerId: firstPage?.id,
        // Undefined members (a question never touched, no timing) are left out by the JSON writer (./jsonText.ts).
        answers: answers as PageAnswersBody['answers'] | undefined,
        timing,
      };
      const doc = bodyOf(await call('/o-form-submissions', 'submission', { data: { type: SUBMISSION_TYPE, attributes } }));
      if (doc.data === null) throw new OutcomeReached(doc.meta);
      submission = doc.data.id;
      const first = doc.meta?.pageSaved;
      return { submissionId: submission, entryId: doc.meta?.containerEntryId, saved: first && saved(first) };
    },

    page: (survey, identity) => fetchPage(caller, survey, `identity=${e(identity)}`),

    async createEntry(submissionId, p) {
      const attributes: EntryBody = { oFormContainerId: p.id, oFormSubmissionId: submissionId };
      return { entryId: bodyOf(await call('/o-form-container-entries', 'entry', { data: { type: ENTRY_TYPE, attributes } })).data.id };
    },

    // A simple request, no preflight; the page's timing rides in it.
    saveAnswers: (entryId, answers, timing) => answering(`/o-form-submission-page/${e(entryId)}`, entryId, answers, timing),

    previewAnswers: (p, answers) =>
      answering(`/o-form-submission-page-preview/${e(p.id)}${options.language ? `?language=${e(options.language)}` : ''}`, p.id, answers),

    async sanitize(submissionId, entryIds) {
      const attributes: SanitizationBody = { pageIds: entryIds };
      const got = await call(`/o-form-submission-sanitization/${e(submissionId)}`, 'sanitized', {
        data: { type: SANITIZATION_TYPE, id: submissionId, attributes },
      });
      return got.ok && got.body.meta.isSanitizeSuccess;
    },

    async qualification(submissionId) {
      // POST with only the token in its body: no preflight for the run's last Next.
      return bodyOf(await call(`/o-form-submission-qualification/${e(submissionId)}`, 'qualification', {})).meta;
    },

    async sites(submissionId, zip, country) {
      // The place in the body, never in an address; with the token there, no preflight.
      const got = await call(`/o-form-submission-sites/${e(submissionId)}`, 'sites', { data: { attributes: { zip, country } } });
      if (!got.ok) return got;
      const { data, meta } = got.body;
      return { ok: true, ...meta, sites: data.map((r) => ({ id: r.id, ...r.attributes })) };
    },

    contactFields: (submissionId) => contactForm(`/o-form-submission-contact-fields/${e(submissionId)}`, 'contactFields'),

    submitContact: (submissionId, contact: ContactBody) => sending(`/o-form-submission-contact/${e(submissionId)}`, 'contact', CONTACT_TYPE, contact),

    leadFields: (submissionId, zip, country) => contactForm(`/o-form-submission-lead-fields/${e(submissionId)}`, 'leadFields', zip, country),

    submitLead: (submissionId, lead: LeadBody) => sending(`/o-form-submission-lead/${e(submissionId)}`, 'lead', LEAD_CONTACT_TYPE, lead),

    async metric(submissionId, identity, start, stop) {
      const attributes: PageMetricBody = { start, stop, identity, oFormSubmissionId: submissionId };
      await call('/o-form-page-metrics', 'metric', { data: { type: PAGE_METRIC_TYPE, attributes } }).catch(() => undefined);
    },

    async transitionChannel(identity) {
      // The route sits beside /api/o-forms; the dot segment resolves there.
      const { data } = bodyOf(await call(`/../get-media-channel-for-transition-survey/${e(identity)}/${e(channel ?? '')}`, 'transitionChannel'));
      return { mediaChannelId: data.id, screenerId: String(data.attributes.screenerId) };
    },

    submissionId: () => submission,
    credentials: () => caller.token,
    resume(submissionId, credentials) {
      submission = submissionId;
      caller.token = credentials;
    },

    async outcome(submissionId) {
      const got = await call(`/o-form-submission-outcome/${e(submissionId)}`, 'outcome', {});
      // Past the channel's retake window (or on a channel that allows retakes) the run is over
      // as a submission gone is: the caller starts a fresh survey.
      if (!got.ok || !got.body.meta.withinRetakeWindow) throw new HttpError(410);
      return got.body.meta;
    },

    async entryAnswers(entryId) {
      const { meta } = bodyOf(await call(`/o-form-container-entries/${e(entryId)}`, 'entryAnswers', {}));
      // Stored numbers come back as numbers; the inputs hold text.
      return Object.fromEntries(Object.entries(meta.answers).map(([k, v]) => [k, typeof v === 'number' ? String(v) : v]));
    },
  };
}
