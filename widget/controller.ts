/**
 * One widget's run: the core runner (components subscribe to it), the language choice, the
 * resume snapshot (./storage.ts: one key per mount, so two widgets on a page and two channels in
 * a tab never mix), the second file (./restOfRun.ts) loaded while the first page is
 * read, and the one console error a dead end deserves.
 */
import { chooseLanguage } from '@core/i18n/participant';
import { createRunner, OutcomeReached, type PageTimes } from '@core/survey/runner';
import { createParticipantCaller } from '@core/participant/call';
import { HttpError } from '@core/participant/httpError';
import { startCalls } from '@core/participant/start';
import type { ParticipantTransport, ParticipantTransportOptions } from '@core/participant/transport';
import type { ControllerOptions, WidgetTransport } from './mountOptions';
import type { Controller, LaterModule } from './runTypes';
import { hostEvents, SHOWING } from './hostEvents';
import { earlyFetch } from './loader';
import { runStore } from './storage';
import { loadStrings } from './strings';

export type { ControllerOptions, WidgetTransport };

/**
 * Calls `seen` once at least half of `host` is in the viewport (or, for a widget taller than
 * two viewports, once it fills half of it); returns what stops watching.
 */
export function onceSeen(host: Element, seen: () => void): () => void {
  if (typeof IntersectionObserver === 'undefined') return () => undefined;
  const observer = new IntersectionObserver(
    (entries) => {
      for (const e of entries) {
        if (e.isIntersecting && (e.intersectionRatio >= 0.5 || e.intersectionRect.height >= (e.rootBounds?.height ?? innerHeight) / 2)) {
          observer.disconnect();
          seen();
        }
      }
    },
    { threshold: [0, 0.25, 0.5, 0.75, 1] },
  );
  observer.observe(host);
  return () => observer.disconnect();
}

/** The calls made after the first page, in the second file: each waits for it on first use. */
const LATER_CALLS = [
  'createSubmission',
  'page',
  'createEntry',
  'saveAnswers',
  'previewAnswers',
  'sanitize',
  'qualification',
  'sites',
  'contactFields',
  'submitContact',
  'leadFields',
  'submitLead',
  'metric',
  'transitionChannel',
  'entryAnswers',
  'outcome',
] as const;

/** The participant transport with only the start of a run in the first file. */
function widgetTransport(options: ParticipantTransportOptions, later: () => Promise<LaterModule>): WidgetTransport {
  const caller = createParticipantCaller(options);
  let full: ParticipantTransport | undefined;
  const rest = async () => (full ??= (await later()).createParticipantTransport(options, caller));
  const transport = {
    ...startCalls(caller, options),
    credentials: () => caller.token,
    resume(_submissionId: string, credentials: string) {
      caller.token = credentials;
    },
  } as WidgetTransport;
  for (const name of LATER_CALLS) {
    (transport as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => ((await rest())[name] as (...a: unknown[]) => unknown)(...args);
  }
  return transport;
}

export function createController(options: ControllerOptions): Controller {
  const preview = options.preview ?? false;
  const store = preview ? null : runStore(options);
  let dead = false;
  let laterModule: LaterModule | undefined;
  let laterLoading: Promise<LaterModule> | null = null;
  const later = () =>
    (laterLoading ??= import('./restOfRun').then(
      (m) => (laterModule = m),
      (error: unknown) => {
        laterLoading = null;
        throw error;
      },
    ));
  const base: WidgetTransport =
    options.transport ??
    widgetTransport(
      {
        apiOrigin: options.apiOrigin,
        mediaChannelId: options.mediaChannelId,
        screenerId: options.screenerId,
        pageUrl: options.pageUrl || (typeof location === 'undefined' ? undefined : location.href),
        fields: options.fields,
        fetch: options.fetch ?? earlyFetch,
      },
      later,
    );
  let logged = false;
  const browserLanguages = options.browserLanguages ?? (typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]));
  // The snippet's language (a malformed one is dropped by readSnippet), else the browser's, else English.
  const wanted = [options.language, ...browserLanguages];
  const choose = (survey: { languages?: string[] }) => chooseLanguage(survey.languages ?? ['en'], wanted);
  // Spanish strings start loading with the survey; the first page (or a dead end) waits for them if they are the ones.
  const strings = loadStrings(wanted);
  // Page timing: the page on screen and since when. It rides in the page's save (one request per
  // Next); a page left without one (Back, an outcome) sends it on its own once left.
  let shown: { id: string; at: string; saved?: boolean } | null = null;
  /**
   * A page left by its save (or by the submission's creation that saves it), with its timing.
   * Marked saved before the answer, as far as its own timing call goes: a page that cannot end
   * the run shows the next one at once; unmarked when the answer did not save it.
   */
  const leaving = async <T>(send: (timing: PageTimes | null) => Promise<T>, saved: (got: T) => boolean | undefined) => {
    const left = shown;
    if (left) left.saved = true;
    const got = await send(left && { start: left.at, stop: new Date().toISOString() });
    if (left) left.saved = saved(got);
    return got;
  };
  const transport: WidgetTransport = {
    ...base,
    saveAnswers: (entryId, answers) =>
      leaving(
        (timing) => base.saveAnswers(entryId, answers, timing),
        (got) => got.ok,
      ),
    // The first page's answers and timing go with the submission's creation, kept there when saved.
    createSubmission: (survey, language, page, answers) =>
      leaving(
        (timing) => base.createSubmission(survey, language, page, answers, timing),
        (made) => made.saved?.ok,
      ),
    async loadSurvey(identity) {
      try {
        const survey = await base.loadSurvey(identity);
        options.onStyles?.(survey.styles);
        await loadStrings([choose(survey)]);
        return survey;
      } catch (error) {
        await strings;
        // The server names an embed problem in one line (its detail): the console says it as is.
        const problem = error instanceof HttpError || error instanceof OutcomeReached ? error.problem?.detail : undefined;
        if (error instanceof HttpError && error.status >= 400 && error.status < 500) dead = true;
        if (!logged && (problem || dead)) console.error(`[trial widget] ${problem ?? `media channel ${options.mediaChannelId}: ${error}`}`);
        else if (!logged && !(error instanceof OutcomeReached)) console.error(`[trial widget] could not reach ${options.apiOrigin}:`, error);
        logged = true;
        throw error;
      }
    },
  };
  const resume = store?.read() ?? null;
  const events = !preview && options.host ? hostEvents(options.host, options, resume) : null;
  const runner = createRunner({
    transport,
    identity: options.identity ?? '',
    preview,
    // Until the survey is known (loading, a dead end): English or Spanish, as the widget's own strings go.
    language: chooseLanguage(['en', 'es'], wanted),
    chooseLanguage: choose,
    resume,
    later,
    // A submission the server no longer opens for this token: start afresh rather than loop.
    abandonResume: (error) => {
      const gone = error instanceof HttpError && error.status >= 400 && error.status < 500;
      if (gone) store?.write(null);
      return gone;
    },
  });
  let handedOver = false;
  let unwatch: (() => void) | undefined;
  const unsubscribe = runner.subscribe((s) => {
    // A view: once per page load, when the run shows something and half of it is on screen.
    if (!unwatch && !preview && options.host && SHOWING[s.phase])
      unwatch = onceSeen(options.host, () => {
        void transport.view?.(s.survey?.identity ?? null, s.language);
        events?.view();
      });
    const snap = runner.snapshot();
    const submissionId = runner.submissionId();
    events?.state(s, submissionId);
    const on = s.page?.identity;
    if (shown?.id !== on) {
      const now = new Date().toISOString();
      if (shown && !shown.saved && submissionId) transport.metric?.(submissionId, shown.id, shown.at, now);
      shown = on ? { id: on, at: now } : null;
    }
    if (s.transition && !handedOver && transport.transitionChannel) {
      handedOver = true;
      const identity = s.transition;
      transport.transitionChannel(identity).then(
        (next) => options.onTransition?.({ ...next, identity }),
        (error) => console.error(`[trial widget] no media channel runs the transition survey "${identity}":`, error),
      );
    }
    if (s.transition) store?.write(null);
    else if (snap) store?.write(snap);
  });
  return {
    runner,
    channel: options.mediaChannelId,
    dead: () => dead,
    later: () => laterModule,
    start: () => void runner.start(),
    stop() {
      unsubscribe();
      store?.release();
      unwatch?.();
    },
  };
}
