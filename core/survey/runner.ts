/**
 * A participant's run through a survey (SPEC section 4, "Survey run" and "Progress bar"), as a
 * framework-free state machine over an injected transport: the widget, the admin preview and the
 * tests drive the same one. Events: start, answer, next, back, goTo (an earlier page), retry.
 * Every failure becomes a `failed` state with a message; `retry` repeats what failed.
 *
 * This file holds the state and what shows the first page: the survey, its first page, and the
 * participant's answers on it. Everything after (./runnerLater.ts: the answer checks, moving
 * between pages, the submission, created with the first answered page, the qualification, and a
 * qualified participant's ZIP, sites, contact form and consent) is loaded while the first page is
 * read: the widget ships it as a second file. Any other outcome (notQualified, notActive,
 * noTrialSites) ends the run with its messages.
 */
import type { EventsPolicy } from '../model/eventsPolicy';
import type { FieldConfiguration, FieldType, OptionConfig, PageTranslations } from '../model/survey';
import type { Answers } from './answers';
import type { History, Visit } from './history';
import type { ContactValue } from './contact';
import type { Answer } from './navigation';
import { startProgress, type Progress } from './progress';

export type { ContactValue };

/** What a participant's client reads of a question's configuration (the server keeps the rest to itself or for its own checks). */
export type RunnerFieldConfiguration = Pick<
  FieldConfiguration,
  'required' | 'helperText' | 'translations' | 'minLength' | 'maxLength' | 'minDate' | 'maxDate'
> & {
  options: Pick<OptionConfig, 'value' | 'label' | 'translations'>[];
};

export interface RunnerField {
  id: string;
  identity: string;
  type: FieldType;
  title: string;
  displayOrder: number;
  configuration: RunnerFieldConfiguration;
}

export interface RunnerPage {
  id: string;
  identity: string;
  title: string;
  /** The title per language (API iso code): an approved version has one for each of its languages. */
  translations?: PageTranslations;
  displayOrder: number;
  fields: RunnerField[];
  /**
   * Given only when no answer on this page can end the run (the server's meta.cannotEnd): the
   * page that follows it whatever is answered, shown at once on Next while the save is confirmed.
   */
  next?: RunnerPage;
}

export interface RunnerSurvey {
  id: string;
  identity: string;
  title: string;
  containerCount: number;
  /** The survey's languages in the API form (`en`, `es_MX`), when the transport knows them. */
  languages?: string[];
  /** The screener's styles (core/model/screener's ScreenerStyles shape). */
  styles?: RunnerStyles;
  /** The channel's retake window in days: after an outcome, a reload shows it again for this long (0: retakes allowed). */
  retakeWindowDays?: number;
  /** What the widget announces to its host page (core/model/eventsPolicy.ts). */
  eventsPolicy?: EventsPolicy;
  /** The channel's region outside the US (ISO 3166-1, CA for en-CA): whose postal codes ZIP questions and fields take; absent for the US. */
  region?: string;
}

/** The screener's colours as 6 or 2 hex digits without '#', null for the widget's own. */
export type RunnerStyles = Partial<Record<string, Partial<Record<string, string | boolean | null>>>>;

/** `incomplete`: the server found answers missing on the participant's path (never for an honest run). */
export const OUTCOMES = ['qualified', 'notQualified', 'notActive', 'noTrialSites', 'trialSiteSelected', 'completed', 'incomplete'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** The screener's message pair for an outcome, HTML already sanitized by the server. */
export interface OutcomeMessages {
  contactForm?: string | null;
  consent?: string | null;
  /** The separate consent to be texted, offered with a referral's contact form that asks a phone number. */
  sms?: string | null;
}

/**
 * Thrown by a transport when the server answers that nothing is runnable (the notActive
 * outcome): the run ends with these messages rather than a failure, or offers the outcome's lead
 * form through the submission the server made for it. Made from the answer's meta as it comes.
 */
export class OutcomeReached extends Error {
  // Declared, not class fields: the widget's es2020 build would add a defineProperty helper.
  declare readonly outcome: Outcome;
  declare readonly messages: OutcomeMessages;
  /** Why, for the page's webmaster (a channel switched off), when the server says. */
  declare readonly problem?: ServerProblem;
  /** The submission the server made for the outcome's lead form (notActive before the run began), when it offers one. */
  declare readonly submissionId?: string;
  constructor(meta: { outcome: Outcome; messages: OutcomeMessages; problem?: ServerProblem; submissionId?: string }) {
    // No message: the outcome is read from its own field, by the runner alone.
    super();
    Object.assign(this, meta);
  }
}

/** A problem the server names in an answer: its `code` and a one-line `detail` for the console. */
export interface ServerProblem {
  code?: string;
  detail?: string;
}

export interface TrialSite {
  /** The engagement site location's id, which the contact names. */
  id: string;
  name: string;
  address1?: string | null;
  city?: string | null;
  state?: string | null;
  zipCode?: string | null;
  distanceMiles: number;
  /** The distance in `distanceUnit`: kilometres where the channel's locale reads them. */
  distance?: number;
  distanceUnit?: 'mi' | 'km';
  engagementId?: string;
}

export interface RunnerContactField {
  id: string;
  name: string;
  label: string;
  fieldType: 'text' | 'email' | 'phone' | 'zip' | 'date' | 'checkbox';
  required: boolean;
  translations?: Record<string, string>;
}

/** Field problems keyed by field identity, contact field name, `zip` or `acceptTerms`. */
export type FieldErrors = Record<string, string>;

export type SitesResult = { ok: true; outcome: Outcome; sites: TrialSite[]; messages?: OutcomeMessages } | { ok: false; errors: FieldErrors };

export type ContactResult = { ok: true; outcome: 'completed'; messages?: OutcomeMessages } | { ok: false; errors: FieldErrors };

/** A lead's contact at notQualified, noTrialSites or notActive: the values, the consent, the ZIP searched from (noTrialSites). */
export interface LeadContact {
  values: Record<string, ContactValue>;
  acceptTerms: boolean;
  zip: string | null;
  /** Outside the US: the country (ISO code) `zip`, a postal code or town, is in. */
  country?: string | null;
}

/**
 * The steps after qualification. Optional: a transport without them (the admin preview, which
 * writes nothing) ends at the qualification.
 */
export interface ContactTransport {
  /** Sites near a US ZIP code, or with `country` (ISO code) near a postal code or town there. */
  sites(submissionId: string, zip: string, country?: string): Promise<SitesResult>;
  /** The screener's contact fields in weight order, and the texts around the form (trialSiteSelected). */
  contactFields(submissionId: string): Promise<{ fields: RunnerContactField[]; messages?: OutcomeMessages }>;
  submitContact(
    submissionId: string,
    contact: { engagementSiteLocationId: string; values: Record<string, ContactValue>; acceptTerms: boolean; smsConsent?: boolean },
  ): Promise<ContactResult>;
  /**
   * The lead's form at notQualified, noTrialSites or notActive: the screener's contact fields and
   * the outcome's message pair. Optional: without it (or when it fails) those outcomes just end.
   */
  leadFields?(submissionId: string, zip: string, country?: string): Promise<{ fields: RunnerContactField[]; messages?: OutcomeMessages }>;
  /** Keeps the lead; answers the texts to show now (the thanks for it). */
  submitLead?(submissionId: string, lead: LeadContact): Promise<{ ok: true; messages?: OutcomeMessages } | { ok: false; errors: FieldErrors }>;
}

/** The steps after qualification (./contactSteps.ts), driven through the runner's methods of the same names. */
/** The consent boxes of the contact steps, named as the state holds them. */
export type ConsentBox = 'acceptTerms' | 'sms';

export interface ContactSteps {
  /** One step back within these steps; false on the first of them. On a lead's form, its "No thanks": the outcome, nothing stored. */
  back(): boolean;
  /** The ZIP (or, with a country outside the US, postal code or town) typed, and the country chosen ('' for the US). */
  enterZip(zip: string, country?: string): void;
  submitZip(): Promise<void>;
  /** Marks a site as the one chosen, before going on with it (chooseSite). */
  pickSite(siteId: string): void;
  chooseSite(siteId: string): Promise<void>;
  setContact(name: string, value: ContactValue): void;
  submitContact(): void;
  /** Ticks a consent box: the consent (acceptTerms, the default) or the separate one to be texted (sms). */
  accept(accepted: boolean, box?: ConsentBox): void;
  submitConsent(): Promise<void>;
}

/** What the rest of a run (./runnerLater.ts) does, on behalf of the runner's methods of the same names. */
export interface RunMoves {
  next(): Promise<void>;
  /** One step or page back; false when there is none. */
  back(): Promise<boolean>;
  goTo(historyIndex: number): Promise<void>;
  /** Carries on with a snapshot saved before a reload; false when it gave way to a fresh run (abandonResume). */
  resume(snapshot: RunnerSnapshot): Promise<boolean>;
  /**
   * The outcome of submission `id`, made by the server for a run refused before it began, read
   * from the server, then its lead form. Not the runner's submission: nothing to resume, no start.
   */
  finish(id: string): Promise<void>;
}

/** A page's save sent behind the page shown ahead of it: the run's place until it is confirmed. */
export interface Pending {
  history: History;
  progress: Progress;
  /** Settles once the save is confirmed, or the run is back on its page (refused, not answered). */
  done: Promise<void>;
}

/** The run's state and what the rest of it (./runnerLater.ts) works with. */
export interface RunContext {
  options: RunnerOptions;
  transport: RunnerOptions['transport'];
  preview: boolean;
  state(): RunnerState;
  set(patch: Partial<RunnerState>): void;
  /** Runs a call: busy meanwhile, a failure becomes `failed`, and retry repeats it. */
  attempt(busy: Phase, step: () => Promise<void>): Promise<void>;
  /** The save confirmed behind a page shown ahead of its answer (./runnerLater.ts next), while it is out. */
  confirming: Pending | null;
  end(outcome: Outcome | null, messages?: OutcomeMessages): void;
  show(page: RunnerPage, history: History, progress: Progress, answers?: Answers): void;
  /** The submission once created (with the first answered page) or resumed. */
  submissionId: string | null;
  /** The survey's pages are done: the qualification is (being) read. */
  finishedPages: boolean;
  /** Answers given on each visited page, so going back shows them again. */
  answersByPage: Map<string, Answers>;
  /** The pages seen, to find a ZIP answer for the trial-site search. */
  pagesSeen: Map<string, RunnerPage>;
  /** The steps after qualification once begun (set by ./runnerLater.ts): the runner's methods of the same names call them. */
  steps: ContactSteps | null;
}

/** ./runnerLater.ts, as the runner loads it. */
export interface RunnerLater {
  createRunMoves(context: RunContext): RunMoves;
}

/**
 * Resuming after a reload: the transport hands over what it needs to act for the submission
 * again (its access token), takes it back, reads a page entry's stored answers, and asks the
 * server for a finished run's outcome.
 */
export interface ResumeTransport {
  credentials(): string | null;
  resume(submissionId: string, credentials: string): void;
  entryAnswers(entryId: string): Promise<Answers>;
  /**
   * The outcome a finished run shows again while its channel's retake window holds. Once it no
   * longer does (passed, or a channel that allows retakes), it throws as for a submission gone,
   * so the caller's abandonResume gives way to a fresh run.
   */
  outcome(submissionId: string): Promise<{ outcome: Outcome; messages: OutcomeMessages }>;
}

/**
 * What a reload needs to carry on with the same submission on the same page: the place, the
 * pages visited and ids, never an answer value, a ZIP or a contact detail (browser storage is
 * readable by every script of the partner's page). What is typed on the page on screen lives in
 * memory only; a resumed page shows the answers the server holds. There is none before the
 * submission exists. A finished run's holds no path and no outcome: the server answers the
 * outcome, and whether it is still to be shown, on each resume (the snapshot may outlive the tab).
 */
export interface RunnerSnapshot {
  identity: string;
  submissionId: string;
  credentials: string;
  language: string;
  history: Visit[];
  progress: number;
  /**
   * Where the participant was: on a page (of `history`), at a step after the survey, or at the
   * outcome. Contact details stay in memory only, so a reload on the consent step returns to
   * the (empty) contact form; the ZIP is the one the survey's answers hold on the server.
   */
  step: 'page' | 'zip' | 'sites' | 'contact' | 'consent' | 'finished';
  siteId?: string | null;
  /**
   * The country chosen at the site step ('' for the US): an ISO code, not health data. The place
   * typed there is not kept, so a reload with a country returns to the site step, country chosen.
   */
  country?: string;
}

export interface Qualification {
  isQualified: boolean;
  outcome?: Outcome;
  messages?: OutcomeMessages;
  [detail: string]: unknown;
}

/** The server's answer to a page's answers: where to go next, or each field's problem. */
export type SaveResult =
  | {
      ok: true;
      nextContainerIdentity: string | null;
      nextContainerEntryId: string | null;
      nextOFormIdentity?: string | null;
      /** The next page itself, when the server answered it with the save: no second call for it. */
      nextPage?: RunnerPage | null;
    }
  | { ok: false; errors: Record<string, string> };

/** When a page was shown and left (ISO times), as the participant's browser saw it: the page's timing as sent. */
export type PageTimes = { start: string; stop: string };

/** What the runner needs from the server; the participant API (or a fake in tests) provides it. */
export interface RunnerTransport {
  loadSurvey(identity: string): Promise<RunnerSurvey>;
  /**
   * With `firstPage` (the survey's first page), its entry is opened with the submission when the
   * server answers `entryId`; with its `answers` too (and its `timing`), they are saved with it
   * when the server answers `saved` (else they go in the page's own save).
   */
  createSubmission(
    survey: RunnerSurvey,
    language?: string,
    firstPage?: RunnerPage,
    answers?: Answers,
    timing?: PageTimes | null,
  ): Promise<{ submissionId: string; entryId?: string; saved?: SaveResult }>;
  firstPage(survey: RunnerSurvey): Promise<RunnerPage>;
  page(survey: RunnerSurvey, identity: string): Promise<RunnerPage>;
  /** A page entry (the parent, then its child) in the submission. */
  createEntry(submissionId: string, page: RunnerPage): Promise<{ entryId: string }>;
  /** With `timing`, when the page was shown and left: kept with the answers (one request per Next). */
  saveAnswers(entryId: string, answers: Answers, timing?: PageTimes | null): Promise<SaveResult>;
  /** Preview: where the answers lead, writing nothing. */
  previewAnswers(page: RunnerPage, answers: Answers): Promise<SaveResult>;
  sanitize(submissionId: string, entryIds: string[]): Promise<boolean>;
  qualification(submissionId: string): Promise<Qualification>;
}

/**
 * `finished` ends every run; its `outcome` says how (null when the transport reported none).
 * `zip`, `sites`, `contact` and `consent` are the qualified participant's steps.
 */
export type Phase = 'idle' | 'loading' | 'page' | 'saving' | 'zip' | 'sites' | 'contact' | 'consent' | 'finished' | 'failed';

export interface RunnerState {
  phase: Phase;
  survey: RunnerSurvey | null;
  page: RunnerPage | null;
  answers: Answers;
  /** Problems by field identity (or contact field name, `zip`, `acceptTerms`), from the check before sending or from the server. */
  errors: FieldErrors;
  /**
   * Set in the `failed` phase: the failureMessage option's text, what went wrong for the
   * participant (none without one: the widget shows its own text, in the participant's language).
   */
  message?: string | null;
  history: History;
  progress: Progress;
  qualification: Qualification | null;
  preview: boolean;
  /** The participant's language (API form), chosen once the survey's languages are known. */
  language: string;
  outcome: Outcome | null;
  messages: OutcomeMessages;
  zip: string;
  /** The country the participant searches sites in (ISO code), '' for the US. */
  country: string;
  sites: TrialSite[];
  siteId: string | null;
  contactFields: RunnerContactField[];
  contact: Record<string, ContactValue>;
  acceptTerms: boolean;
  /** The separate consent to be texted (messages.sms) ticked: sent as smsConsent with the contact. */
  sms?: boolean;
  /**
   * Set while the contact step is a lead's form (the outcome it was offered at): the outcome's
   * message pair around the fields, the consent box in the same form, and "No thanks".
   */
  lead?: Outcome | null;
  /** Set when the run ends by handing over to another survey (its identity): the widget continues there. */
  transition: string | null;
}

export interface RunnerOptions {
  transport: RunnerTransport & Partial<ContactTransport> & Partial<ResumeTransport>;
  identity: string;
  preview?: boolean;
  language?: string;
  /** Picks the participant's language once the survey (and its languages) is loaded. */
  chooseLanguage?: (survey: RunnerSurvey) => string;
  /** A snapshot saved before a reload: carry on with that submission. */
  resume?: RunnerSnapshot | null;
  /** Whether a failed resume should give way to a fresh run (say the submission is gone: 4xx). */
  abandonResume?: (error: unknown) => boolean;
  /** The participant-facing text for a failed call (already in the participant's language), as the failed state's message. */
  failureMessage?: string;
  /**
   * Loads ./runnerLater.ts (in the widget, a dynamic import of a module exporting createRunMoves),
   * as soon as the first page shows; a failed load is tried again when next needed.
   */
  later: () => Promise<RunnerLater>;
}

/** The participant's moves; the steps after qualification are ContactSteps' own (their `back` is the runner's). */
export interface Runner extends Omit<ContactSteps, 'back'> {
  getState(): RunnerState;
  subscribe(listener: (state: RunnerState) => void): () => void;
  start(): Promise<void>;
  answer(fieldIdentity: string, value: Answer): void;
  next(): Promise<void>;
  back(): Promise<void>;
  goTo(historyIndex: number): Promise<void>;
  retry(): Promise<void>;
  /** What a reload needs; null before anything is answered, in preview, or once it handed over to another survey. */
  snapshot(): RunnerSnapshot | null;
  /** The submission, once created (with the first answered page) or resumed; null in preview. */
  submissionId(): string | null;
}

/** The phases a snapshot names as the participant's place: those in which the run shows something of the survey. */
export const PLACES: Partial<Record<Phase, RunnerSnapshot['step']>> = {
  page: 'page',
  zip: 'zip',
  sites: 'sites',
  contact: 'contact',
  consent: 'consent',
  finished: 'finished',
};

export function createRunner(options: RunnerOptions): Runner {
  const { transport } = options;
  const preview = options.preview ?? false;
  const listeners = new Set<(state: RunnerState) => void>();
  const resume = preview ? null : (options.resume ?? null);
  let lastAction: (() => Promise<void>) | null = null;

  let state: RunnerState = {
    phase: 'idle',
    survey: null,
    page: null,
    answers: {},
    errors: {},
    message: null,
    history: [],
    progress: startProgress(0),
    qualification: null,
    preview,
    language: resume?.language ?? options.language ?? 'en',
    outcome: null,
    messages: {},
    zip: '',
    country: '',
    sites: [],
    siteId: null,
    contactFields: [],
    contact: {},
    acceptTerms: false,
    transition: null,
  };

  const set = (patch: Partial<RunnerState>) => {
    state = { ...state, ...patch };
    for (const listener of listeners) listener(state);
  };

  const end = (outcome: Outcome | null, messages: OutcomeMessages = {}) => {
    lastAction = null;
    set({ phase: 'finished', outcome, messages, page: null, errors: {} });
  };

  /** Runs a step; a failure becomes the `failed` phase, and `retry` runs the step again. */
  const attempt = async (busy: Phase, step: () => Promise<void>) => {
    lastAction = step;
    set({ phase: busy, message: null });
    try {
      await step();
      if (lastAction === step) lastAction = null;
    } catch (error) {
      if (!(error instanceof OutcomeReached)) set({ phase: 'failed', message: options.failureMessage });
      // Not offered: its lead form as a run that became notActive shows it, through the submission the server made for it.
      else if (error.submissionId) await attempt('loading', async () => (await moves()).finish(error.submissionId!));
      else end(error.outcome, error.messages);
    }
  };

  const context: RunContext = {
    options,
    transport,
    preview,
    state: () => state,
    set,
    attempt,
    confirming: null,
    end,
    show(page, history, progress, answers) {
      context.pagesSeen.set(page.identity, page);
      if (answers) context.answersByPage.set(page.identity, answers);
      set({ phase: 'page', page, history, progress, answers: context.answersByPage.get(page.identity) ?? {}, errors: {} });
    },
    submissionId: null,
    finishedPages: false,
    answersByPage: new Map(),
    pagesSeen: new Map(),
    steps: null,
  };

  let loading: Promise<RunMoves> | null = null;
  /** The rest of the run, loaded once (a failed load is tried again when next needed). */
  const moves = () =>
    (loading ??= options.later().then(
      (later) => later.createRunMoves(context),
      (error: unknown) => {
        loading = null;
        throw error;
      },
    ));
  // A move on a page shown ahead of its previous page's save (runnerLater.ts next) waits for that
  // save's answer, and is dropped when the answer took the participant back to that page.
  const later =
    <K extends 'next' | 'back' | 'goTo'>(name: K) =>
    async (...args: Parameters<RunMoves[K]>): Promise<void> => {
      const on = state.page;
      await context.confirming?.done;
      if (state.page === on) await ((await moves())[name] as (...a: Parameters<RunMoves[K]>) => Promise<unknown>)(...args);
    };
  // Nothing to do before the steps have begun. Async for all: the synchronous ones change the
  // state before their promise is made, so the state reads the same right after the call.
  const step =
    <K extends Exclude<keyof ContactSteps, 'back'>>(name: K) =>
    async (...args: Parameters<ContactSteps[K]>): Promise<void> => {
      await (context.steps?.[name] as ((...a: Parameters<ContactSteps[K]>) => unknown) | undefined)?.(...args);
    };

  const start = async () => {
    if (resume && context.submissionId === null) {
      // moves().resume gives way to a fresh run when the submission is gone (abandonResume).
      if (await (await moves()).resume(resume)) return;
    }
    const survey = await transport.loadSurvey(options.identity);
    const language = options.chooseLanguage?.(survey) ?? state.language;
    set({ survey, language });
    const first = await transport.firstPage(survey);
    context.show(first, [{ page: first.identity }], startProgress(survey.containerCount));
    // The rest of the run arrives while the participant reads the first page.
    moves().catch(() => undefined);
  };

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    start: () => attempt('loading', start),

    answer(fieldIdentity, value) {
      if (state.phase !== 'page' || !state.page) return;
      const answers = { ...state.answers, [fieldIdentity]: value };
      context.answersByPage.set(state.page.identity, answers);
      const { [fieldIdentity]: _cleared, ...errors } = state.errors;
      set({ answers, errors });
    },

    next: later('next'),
    back: later('back'),
    goTo: later('goTo'),

    async retry() {
      if (state.phase !== 'failed' || !lastAction) return;
      await attempt(state.survey ? 'saving' : 'loading', lastAction);
    },

    enterZip: step('enterZip'),
    submitZip: step('submitZip'),
    pickSite: step('pickSite'),
    chooseSite: step('chooseSite'),
    setContact: step('setContact'),
    submitContact: step('submitContact'),
    accept: step('accept'),
    submitConsent: step('submitConsent'),

    submissionId: () => context.submissionId,

    snapshot() {
      const credentials = transport.credentials?.() ?? null;
      const step = PLACES[state.phase];
      // A page shown ahead of its previous page's save: the place is that page until the save is confirmed.
      const at = context.confirming ?? state;
      if (preview || context.submissionId === null || credentials === null || !step || state.transition) return null;
      return {
        identity: state.survey?.identity ?? options.identity,
        submissionId: context.submissionId,
        credentials,
        language: state.language,
        history: step === 'finished' ? [] : [...at.history],
        progress: at.progress.value,
        step,
        ...(step !== 'finished' && { siteId: state.siteId, country: state.country }),
      };
    },
  };
}
