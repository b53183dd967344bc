/**
 * A participant's run through a survey (SPEC section 4, "Survey run" and "Progress bar"), as a
 * framework-free state machine over an injected transport: the widget, the admin preview and the
 * tests drive the same one. Events: start, answer, next, back, goTo (an earlier page), retry.
 * Every failure becomes a `failed` state with a message; `retry` repeats what failed.
 *
 * After the survey's pages: the qualification; when qualified and the transport knows the
 * contact steps (not in preview), a ZIP code (taken from a ZIP answer when one was given), the
 * trial sites nearest first, the screener's contact form and the consent, then `completed`.
 * Any other outcome (notQualified, notActive, noTrialSites) ends the run with its messages.
 */
import type { FieldConfiguration, FieldType, OptionConfig } from '../model/oform';
import { checkAnswers, type Answers } from './answers';
import { back as popVisit, currentVisit, revisit, visit, type History, type Visit } from './history';
import { validateParticipantValue as validateValue, type ParticipantRule as Rule } from '../validation/ruleCheck';
import { contactFieldRules, normalizeContactValue, type ContactValue } from './contact';

export type { ContactValue };
import type { Answer } from './navigation';
import { resetProgress, setProgress, startProgress, stepDown, stepUp, type Progress } from './progress';

/** What a participant's client reads of a question's configuration (the server keeps the rest to itself or for its own checks). */
export type RunnerFieldConfiguration = Pick<FieldConfiguration, 'required' | 'helperText' | 'translations' | 'minLength' | 'maxLength' | 'minDate' | 'maxDate'> & {
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
  displayOrder: number;
  fields: RunnerField[];
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
}

/**
 * Thrown by a transport when the server answers that nothing is runnable (the notActive
 * outcome): the run ends with these messages rather than a failure.
 */
export class OutcomeReached extends Error {
  // Declared, not class fields: the widget's es2020 build would add a defineProperty helper.
  declare readonly outcome: Outcome;
  declare readonly messages: OutcomeMessages;
  constructor(outcome: Outcome, messages: OutcomeMessages = {}) {
    super(outcome);
    this.outcome = outcome;
    this.messages = messages;
  }
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
  engagementId?: string;
}

export interface RunnerContactField {
  id: string;
  name: string;
  label: string;
  type: 'text' | 'email' | 'phone' | 'zip' | 'date' | 'checkbox';
  required: boolean;
  translations?: Record<string, string>;
}

/** Field problems keyed by field identity, contact field name, `zip` or `acceptTerms`. */
export type FieldErrors = Record<string, string>;

export type SitesResult =
  | { ok: true; outcome: Outcome; sites: TrialSite[]; messages?: OutcomeMessages }
  | { ok: false; errors: FieldErrors };

export type ContactResult = { ok: true; outcome: 'completed'; messages?: OutcomeMessages } | { ok: false; errors: FieldErrors };

/**
 * The steps after qualification. Optional: a transport without them (the admin preview, which
 * writes nothing) ends at the qualification.
 */
export interface ContactTransport {
  sites(submissionId: string, zip: string): Promise<SitesResult>;
  /** The screener's contact fields in weight order, and the texts around the form (trialSiteSelected). */
  contactFields(submissionId: string): Promise<{ fields: RunnerContactField[]; messages?: OutcomeMessages }>;
  submitContact(
    submissionId: string,
    contact: { engagementSiteLocationId: string; values: Record<string, ContactValue>; acceptTerms: boolean },
  ): Promise<ContactResult>;
}

/**
 * Resuming after a reload: the transport hands over what it needs to act for the submission
 * again (its access token), takes it back, and reads a page entry's stored answers.
 */
export interface ResumeTransport {
  credentials(): string | null;
  resume(submissionId: string, credentials: string): void;
  entryAnswers(entryId: string): Promise<Answers>;
}

/** What a reload needs to carry on with the same submission on the same page. */
export interface RunnerSnapshot {
  identity: string;
  submissionId: string;
  credentials: string;
  language: string;
  history: Visit[];
  progress: number;
  /** The survey's pages are done: resume at the qualification. */
  finished: boolean;
}

export interface Qualification {
  isQualified: boolean;
  outcome?: Outcome;
  messages?: OutcomeMessages;
  [detail: string]: unknown;
}

/** The server's answer to a page's answers: where to go next, or each field's problem. */
export type SaveResult =
  | { ok: true; nextContainerIdentity: string | null; nextContainerEntryId: string | null; nextOFormIdentity?: string | null }
  | { ok: false; errors: Record<string, string> };

/** What the runner needs from the server; the participant API (or a fake in tests) provides it. */
export interface RunnerTransport {
  loadSurvey(identity: string): Promise<RunnerSurvey>;
  createSubmission(survey: RunnerSurvey, language?: string): Promise<{ submissionId: string }>;
  firstPage(survey: RunnerSurvey): Promise<RunnerPage>;
  page(survey: RunnerSurvey, identity: string): Promise<RunnerPage>;
  /** A page entry (the parent, then its child) in the submission. */
  createEntry(submissionId: string, page: RunnerPage): Promise<{ entryId: string }>;
  saveAnswers(entryId: string, answers: Answers): Promise<SaveResult>;
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
  /** Set in the `failed` phase: what went wrong, for the participant. */
  message: string | null;
  history: History;
  progress: Progress;
  qualification: Qualification | null;
  preview: boolean;
  /** The participant's language (API form), chosen once the survey's languages are known. */
  language: string;
  outcome: Outcome | null;
  messages: OutcomeMessages;
  zip: string;
  sites: TrialSite[];
  siteId: string | null;
  contactFields: RunnerContactField[];
  contact: Record<string, ContactValue>;
  acceptTerms: boolean;
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
  /** The participant-facing text for a failed call (already in the participant's language). */
  failureMessage?: string;
}

export interface Runner {
  getState(): RunnerState;
  subscribe(listener: (state: RunnerState) => void): () => void;
  start(): Promise<void>;
  answer(fieldIdentity: string, value: Answer): void;
  next(): Promise<void>;
  back(): Promise<void>;
  goTo(historyIndex: number): Promise<void>;
  retry(): Promise<void>;
  enterZip(zip: string): void;
  submitZip(): Promise<void>;
  chooseSite(siteId: string): Promise<void>;
  setContact(name: string, value: ContactValue): void;
  submitContact(): void;
  accept(accepted: boolean): void;
  submitConsent(): Promise<void>;
  /** What a reload needs; null before the submission exists, in preview, or once it ended. */
  snapshot(): RunnerSnapshot | null;
}

const ZIP_RULES: Rule[] = ['required', 'numeric', { rule: 'min', length: 5 }, { rule: 'max', length: 5 }];

const DEFAULT_FAILURE = 'Something went wrong. Please try again.';

export function createRunner(options: RunnerOptions): Runner {
  const { transport } = options;
  const preview = options.preview ?? false;
  const listeners = new Set<(state: RunnerState) => void>();
  // Answers given on each visited page, so going back shows them again.
  const answersByPage = new Map<string, Answers>();
  // The pages seen, to find a ZIP answer for the trial-site search.
  const pagesSeen = new Map<string, RunnerPage>();
  const resume = preview ? null : (options.resume ?? null);
  let submissionId: string | null = null;
  let finishedPages = false;
  let resumeAbandoned = false;
  let lastAction: (() => Promise<void>) | null = null;
  // The submission and first entry being created behind the first page.
  let starting: Promise<void> | null = null;
  const hasContactSteps = () => !preview && !!transport.sites && !!transport.contactFields && !!transport.submitContact;

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
      if (error instanceof OutcomeReached) end(error.outcome, error.messages);
      else set({ phase: 'failed', message: options.failureMessage ?? DEFAULT_FAILURE });
    }
  };

  const show = (page: RunnerPage, history: History, progress: Progress) => {
    pagesSeen.set(page.identity, page);
    set({ phase: 'page', page, history, progress, answers: answersByPage.get(page.identity) ?? {}, errors: {} });
  };

  /** The last ZIP answered on a page still in the participant's path. */
  const zipAnswer = (): string => {
    let zip = '';
    for (const v of state.history) {
      const page = pagesSeen.get(v.page);
      for (const field of page?.fields ?? []) {
        const answer = answersByPage.get(v.page)?.[field.identity];
        if (field.type === 'zip' && typeof answer === 'string' && answer.trim() !== '') zip = answer.trim();
      }
    }
    return zip;
  };

  const findSites = async (zip: string) => {
    if (submissionId === null || !transport.sites) return;
    const result = await transport.sites(submissionId, zip);
    if (!result.ok) {
      set({ phase: 'zip', zip, errors: result.errors });
      return;
    }
    if (result.outcome !== 'qualified' || result.sites.length === 0) {
      end(result.outcome === 'qualified' ? 'noTrialSites' : result.outcome, result.messages ?? state.messages);
      return;
    }
    set({ phase: 'sites', zip, sites: result.sites, messages: result.messages ?? state.messages, errors: {} });
  };

  const finish = async () => {
    finishedPages = true;
    const qualification: Qualification =
      preview || submissionId === null ? { isQualified: true, outcome: 'qualified' } : await transport.qualification(submissionId);
    const outcome = qualification.outcome ?? (qualification.isQualified ? 'qualified' : 'notQualified');
    const messages = qualification.messages ?? {};
    set({ qualification, page: null, outcome, messages, progress: setProgress(state.progress, state.progress.max) });
    if (!qualification.isQualified || !hasContactSteps()) {
      end(outcome, messages);
      return;
    }
    const zip = zipAnswer();
    if (zip && !validateValue(zip, ZIP_RULES, state.language)) await findSites(zip);
    else set({ phase: 'zip', zip, errors: {} });
  };

  /** Shows the page the snapshot was on, with the answers the server holds for it. */
  const resumeRun = async (snapshot: RunnerSnapshot) => {
    transport.resume?.(snapshot.submissionId, snapshot.credentials);
    submissionId = snapshot.submissionId;
    const survey = await transport.loadSurvey(options.identity);
    set({ survey, language: snapshot.language });
    const progress = setProgress(startProgress(survey.containerCount), snapshot.progress);
    if (snapshot.finished) {
      set({ history: snapshot.history, progress });
      await finish();
      return;
    }
    const here = currentVisit(snapshot.history);
    if (!here) throw new Error('empty history');
    const [page, answers] = await Promise.all([
      transport.page(survey, here.page),
      here.entryId && transport.entryAnswers ? transport.entryAnswers(here.entryId) : Promise.resolve({} as Answers),
    ]);
    answersByPage.set(page.identity, answers);
    show(page, snapshot.history, progress);
  };

  const contactProblems = (): FieldErrors => {
    const problems: FieldErrors = {};
    for (const field of state.contactFields) {
      const problem = validateValue(normalizeContactValue(field, state.contact[field.name]), contactFieldRules(field), state.language);
      if (problem) problems[field.name] = problem;
    }
    return problems;
  };

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    start: () =>
      attempt('loading', async () => {
        if (resume && !resumeAbandoned && submissionId === null) {
          try {
            await resumeRun(resume);
            return;
          } catch (error) {
            if (error instanceof OutcomeReached || !options.abandonResume?.(error)) {
              submissionId = null;
              throw error;
            }
            resumeAbandoned = true;
            submissionId = null;
            answersByPage.clear();
          }
        }
        const survey = await transport.loadSurvey(options.identity);
        const language = options.chooseLanguage?.(survey) ?? state.language;
        set({ survey, language });
        // The first page shows at once; the submission and its entry are created while the
        // participant reads it (issue 8's round-trip budget). A Next before then waits for them.
        const first = await transport.firstPage(survey);
        show(first, visit([], { page: first.identity }), resetProgress(startProgress(survey.containerCount)));
        if (preview) return;
        starting = (async () => {
          if (submissionId === null) submissionId = (await transport.createSubmission(survey, language)).submissionId;
          const { entryId } = await transport.createEntry(submissionId, first);
          set({ history: visit([], { page: first.identity, entryId }) });
        })();
        try {
          await starting;
        } finally {
          starting = null;
        }
      }),

    answer(fieldIdentity, value) {
      if (state.phase !== 'page') return;
      const answers = { ...state.answers, [fieldIdentity]: value };
      if (state.page) answersByPage.set(state.page.identity, answers);
      const { [fieldIdentity]: _cleared, ...errors } = state.errors;
      set({ answers, errors });
    },

    async next() {
      if (starting) await starting.catch(() => undefined);
      const page = state.page;
      const survey = state.survey;
      const here = currentVisit(state.history);
      if (state.phase !== 'page' || !page || !survey || !here) return;
      const problems = checkAnswers(page.fields, state.answers, state.language);
      if (Object.keys(problems).length > 0) {
        set({ errors: problems });
        return;
      }
      const answers = state.answers;
      await attempt('saving', async () => {
        const result = preview || !here.entryId ? await transport.previewAnswers(page, answers) : await transport.saveAnswers(here.entryId, answers);
        if (!result.ok) {
          set({ phase: 'page', errors: result.errors });
          return;
        }
        const progress = stepUp(state.progress);
        // An option's survey transition: this survey ends here and the participant carries on in
        // the other one (the preview, which stores nothing, just shows where this one ends).
        if (result.nextOFormIdentity && !preview) {
          set({ progress, transition: result.nextOFormIdentity });
          end(null);
          return;
        }
        if (!result.nextContainerIdentity) {
          set({ progress });
          await finish();
          return;
        }
        const nextPage = await transport.page(survey, result.nextContainerIdentity);
        let entryId = result.nextContainerEntryId ?? undefined;
        if (!preview && !entryId && submissionId !== null) entryId = (await transport.createEntry(submissionId, nextPage)).entryId;
        show(nextPage, visit(state.history, { page: nextPage.identity, entryId }), progress);
      });
    },

    async back() {
      // The steps after the survey go back without a call; what was entered stays.
      const steps: Partial<Record<Phase, Phase>> = { consent: 'contact', contact: 'sites', sites: 'zip' };
      const previousStep = steps[state.phase];
      if (previousStep) {
        set({ phase: previousStep, errors: {} });
        return;
      }
      const survey = state.survey;
      if (state.phase !== 'page' || !survey) return;
      const { history, left } = popVisit(state.history);
      const previous = currentVisit(history);
      if (!left || !previous) return;
      await attempt('loading', async () => {
        // Leaving a page backwards abandons it: its answers go from the server (SPEC: going to an
        // earlier page discards what came after), though they stay on screen if it is seen again.
        if (!preview && submissionId !== null && left.entryId && !(await transport.sanitize(submissionId, [left.entryId]))) throw new Error('sanitization refused');
        show(await transport.page(survey, previous.page), history, stepDown(state.progress));
      });
    },

    async goTo(historyIndex) {
      const survey = state.survey;
      if (state.phase !== 'page' || !survey || historyIndex >= state.history.length - 1) return;
      const { history, discarded } = revisit(state.history, historyIndex);
      const target = currentVisit(history);
      if (!target || discarded.length === 0) return;
      await attempt('loading', async () => {
        const entryIds = discarded.map((v) => v.entryId).filter((id): id is string => !!id);
        if (!preview && submissionId !== null && entryIds.length > 0) {
          if (!(await transport.sanitize(submissionId, entryIds))) throw new Error('sanitization refused');
        }
        for (const v of discarded) answersByPage.delete(v.page);
        show(await transport.page(survey, target.page), history, setProgress(state.progress, historyIndex));
      });
    },

    async retry() {
      if (state.phase !== 'failed' || !lastAction) return;
      await attempt(state.survey ? 'saving' : 'loading', lastAction);
    },

    enterZip(zip) {
      if (state.phase !== 'zip') return;
      set({ zip, errors: {} });
    },

    async submitZip() {
      if (state.phase !== 'zip') return;
      const zip = state.zip.trim();
      const problem = validateValue(zip, ZIP_RULES, state.language);
      if (problem) {
        set({ errors: { zip: problem } });
        return;
      }
      await attempt('saving', () => findSites(zip));
    },

    async chooseSite(siteId) {
      if (state.phase !== 'sites' || !state.sites.some((s) => s.id === siteId)) return;
      set({ siteId });
      if (state.contactFields.length > 0 || submissionId === null || !transport.contactFields) {
        set({ phase: 'contact', errors: {} });
        return;
      }
      const id = submissionId;
      const read = transport.contactFields;
      await attempt('loading', async () => {
        const { fields, messages } = await read(id);
        const contact: Record<string, ContactValue> = {};
        // A ZIP contact field starts with the ZIP the sites were searched for.
        for (const f of fields) contact[f.name] = f.type === 'checkbox' ? false : f.type === 'zip' ? state.zip : '';
        set({ phase: fields.length > 0 ? 'contact' : 'consent', contactFields: fields, contact, errors: {}, messages: messages ?? state.messages });
      });
    },

    setContact(name, value) {
      if (state.phase !== 'contact') return;
      const { [name]: _cleared, ...errors } = state.errors;
      set({ contact: { ...state.contact, [name]: value }, errors });
    },

    submitContact() {
      if (state.phase !== 'contact') return;
      const problems = contactProblems();
      set(Object.keys(problems).length > 0 ? { errors: problems } : { phase: 'consent', errors: {} });
    },

    accept(accepted) {
      if (state.phase !== 'consent') return;
      set({ acceptTerms: accepted, errors: {} });
    },

    async submitConsent() {
      if (state.phase !== 'consent' || submissionId === null || !transport.submitContact || !state.siteId) return;
      if (!state.acceptTerms) {
        set({ errors: { acceptTerms: validateValue(false, ['acceptTerms'], state.language) ?? '' } });
        return;
      }
      const id = submissionId;
      const send = transport.submitContact;
      const contact = { engagementSiteLocationId: state.siteId, values: state.contact, acceptTerms: true };
      await attempt('saving', async () => {
        const result = await send(id, contact);
        if (result.ok) {
          end('completed', result.messages ?? {});
          return;
        }
        const onContact = Object.keys(result.errors).some((k) => k !== 'acceptTerms');
        set({ phase: onContact ? 'contact' : 'consent', errors: result.errors });
      });
    },

    snapshot() {
      const credentials = transport.credentials?.() ?? null;
      if (preview || submissionId === null || credentials === null || state.phase === 'finished') return null;
      return {
        identity: options.identity,
        submissionId,
        credentials,
        language: state.language,
        history: [...state.history],
        progress: state.progress.value,
        finished: finishedPages,
      };
    },
  };
}
