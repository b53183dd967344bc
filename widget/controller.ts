/**
 * One widget's run: the core runner bound to a signal, the language choice, the resume
 * snapshot in sessionStorage (scoped to the channel, so two widgets on a page and two channels
 * in a tab never mix) and the one console error a dead end deserves.
 */
import { signal, type Signal } from '@preact/signals';
import { chooseLanguage } from '../core/i18n/participant';
import {
  createRunner,
  OutcomeReached,
  type ContactTransport,
  type ResumeTransport,
  type Runner,
  type RunnerSnapshot,
  type RunnerState,
  type RunnerStyles,
  type RunnerTransport,
} from '../core/oform/runner';
import { createParticipantTransport, HttpError, type ParticipantExtras } from '../core/participant/transport';

export type WidgetTransport = RunnerTransport & Partial<ContactTransport> & Partial<ResumeTransport> & Partial<ParticipantExtras>;

export interface ControllerOptions {
  mediaChannelId: string;
  screenerId: string;
  language?: string;
  apiOrigin: string;
  /** Preview: nothing stored, always qualified (the admin's preview passes its own transport). */
  preview?: boolean;
  /** The survey identity to run (preview, or a transition survey); the channel's current one otherwise. */
  identity?: string;
  transport?: WidgetTransport;
  fetch?: typeof fetch;
  /** Receives the screener's styles once known. */
  onStyles?: (styles: RunnerStyles | undefined) => void;
  storage?: Storage | null;
  browserLanguages?: readonly string[];
  /** The run handed over to a transition survey on this channel: the widget continues there. */
  onTransition?: (next: { mediaChannelId: string; screenerId: string; identity: string }) => void;
}

export interface Controller {
  runner: Runner;
  channel: string;
  state: Signal<RunnerState>;
  /** Set when the widget cannot run at all (unknown channel, malformed snippet): the friendly message shows. */
  dead: Signal<boolean>;
  start(): void;
  stop(): void;
}

const storageKey = (o: ControllerOptions) => `trial-widget:${o.mediaChannelId}:${o.screenerId}`;

function sessionStore(options: ControllerOptions): Storage | null {
  if (options.storage !== undefined) return options.storage;
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    // Storage blocked (third-party cookies off, sandboxed frame): no resume, the run still works.
    return null;
  }
}

function readSnapshot(store: Storage | null, key: string): RunnerSnapshot | null {
  try {
    const raw = store?.getItem(key);
    const parsed = raw ? (JSON.parse(raw) as RunnerSnapshot) : null;
    return parsed && typeof parsed.submissionId === 'string' && Array.isArray(parsed.history) ? parsed : null;
  } catch {
    return null;
  }
}

export function createController(options: ControllerOptions): Controller {
  const preview = options.preview ?? false;
  const store = preview ? null : sessionStore(options);
  const key = storageKey(options);
  const dead = signal(false);
  const base: WidgetTransport =
    options.transport ??
    createParticipantTransport({
      apiOrigin: options.apiOrigin,
      mediaChannelId: options.mediaChannelId,
      screenerId: options.screenerId,
      pageUrl: typeof location === 'undefined' ? undefined : location.href,
      fetch: options.fetch,
    });
  let logged = false;
  const transport: WidgetTransport = {
    ...base,
    async loadSurvey(identity) {
      try {
        const survey = await base.loadSurvey(identity);
        options.onStyles?.(survey.styles);
        return survey;
      } catch (error) {
        if (error instanceof HttpError && error.status >= 400 && error.status < 500) {
          dead.value = true;
          if (!logged) console.error(`[trial widget] media channel "${options.mediaChannelId}" with screener "${options.screenerId}" is unknown to ${options.apiOrigin} (HTTP ${error.status}).`);
        } else if (!logged && !(error instanceof OutcomeReached)) {
          console.error(`[trial widget] could not reach ${options.apiOrigin}:`, error);
        }
        logged = true;
        throw error;
      }
    },
  };
  const browserLanguages = options.browserLanguages ?? (typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]));
  const runner = createRunner({
    transport,
    identity: options.identity ?? '',
    preview,
    language: options.language ?? browserLanguages[0] ?? 'en',
    chooseLanguage: (survey) => chooseLanguage(survey.languages ?? ['en'], [options.language, ...browserLanguages]),
    resume: readSnapshot(store, key),
    // A submission the server no longer opens for this token: start afresh rather than loop.
    abandonResume: (error) => {
      const gone = error instanceof HttpError && error.status >= 400 && error.status < 500;
      if (gone) store?.removeItem(key);
      return gone;
    },
  });
  const state = signal(runner.getState());
  // Page timing: the page on screen and since when, sent once it is left.
  let shown: { id: string; at: string } | null = null;
  let submissionId: string | undefined;
  let handedOver = false;
  const unsubscribe = runner.subscribe((s) => {
    state.value = s;
    const snap = runner.snapshot();
    submissionId = snap?.submissionId ?? submissionId;
    const on = s.page?.identity;
    if (shown?.id !== on) {
      const now = new Date().toISOString();
      if (shown && submissionId) transport.metric?.(submissionId, shown.id, shown.at, now);
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
    try {
      if (s.phase === 'finished') store?.removeItem(key);
      else if (snap && s.phase !== 'failed' && s.phase !== 'loading' && s.phase !== 'saving') store?.setItem(key, JSON.stringify(snap));
    } catch {
      // A full or blocked storage only costs the resume.
    }
  });
  return {
    runner,
    channel: options.mediaChannelId,
    state,
    dead,
    start: () => void runner.start(),
    stop: unsubscribe,
  };
}
