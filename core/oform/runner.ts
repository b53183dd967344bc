/**
 * A participant's run through a survey (SPEC section 4, "Survey run" and "Progress bar"), as a
 * framework-free state machine over an injected transport: the widget, the admin preview and the
 * tests drive the same one. Events: start, answer, next, back, goTo (an earlier page), retry.
 * Every failure becomes a `failed` state with a message; `retry` repeats what failed.
 */
import type { FieldConfiguration, FieldType } from '../model/oform';
import { checkAnswers, type Answers } from './answers';
import { back as popVisit, currentVisit, revisit, visit, type History } from './history';
import type { Answer } from './navigation';
import { resetProgress, setProgress, startProgress, stepDown, stepUp, type Progress } from './progress';

export interface RunnerField {
  id: string;
  identity: string;
  type: FieldType;
  title: string;
  displayOrder: number;
  configuration: FieldConfiguration;
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
}

export interface Qualification {
  isQualified: boolean;
  [detail: string]: unknown;
}

/** The server's answer to a page's answers: where to go next, or each field's problem. */
export type SaveResult =
  | { ok: true; nextContainerIdentity: string | null; nextContainerEntryId: string | null }
  | { ok: false; errors: Record<string, string> };

/** What the runner needs from the server; the participant API (or a fake in tests) provides it. */
export interface RunnerTransport {
  loadSurvey(identity: string): Promise<RunnerSurvey>;
  createSubmission(survey: RunnerSurvey): Promise<{ submissionId: string }>;
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

export type Phase = 'idle' | 'loading' | 'page' | 'saving' | 'finished' | 'failed';

export interface RunnerState {
  phase: Phase;
  survey: RunnerSurvey | null;
  page: RunnerPage | null;
  answers: Answers;
  /** Problems by field identity, from the check before sending or from the server. */
  errors: Record<string, string>;
  /** Set in the `failed` phase: what went wrong, for the participant. */
  message: string | null;
  history: History;
  progress: Progress;
  qualification: Qualification | null;
  preview: boolean;
}

export interface RunnerOptions {
  transport: RunnerTransport;
  identity: string;
  preview?: boolean;
  language?: string;
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
}

const DEFAULT_FAILURE = 'Something went wrong. Please try again.';

export function createRunner(options: RunnerOptions): Runner {
  const { transport } = options;
  const preview = options.preview ?? false;
  const lang = options.language ?? 'en';
  const listeners = new Set<(state: RunnerState) => void>();
  // Answers given on each visited page, so going back shows them again.
  const answersByPage = new Map<string, Answers>();
  let submissionId: string | null = null;
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
  };

  const set = (patch: Partial<RunnerState>) => {
    state = { ...state, ...patch };
    for (const listener of listeners) listener(state);
  };

  /** Runs a step; a failure becomes the `failed` phase, and `retry` runs the step again. */
  const attempt = async (busy: Phase, step: () => Promise<void>) => {
    lastAction = step;
    set({ phase: busy, message: null });
    try {
      await step();
      lastAction = null;
    } catch {
      set({ phase: 'failed', message: options.failureMessage ?? DEFAULT_FAILURE });
    }
  };

  const show = (page: RunnerPage, history: History, progress: Progress) =>
    set({ phase: 'page', page, history, progress, answers: answersByPage.get(page.identity) ?? {}, errors: {} });

  const finish = async () => {
    const qualification = preview || submissionId === null ? { isQualified: true } : await transport.qualification(submissionId);
    set({ phase: 'finished', qualification, page: null, progress: setProgress(state.progress, state.progress.max) });
  };

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    start: () =>
      attempt('loading', async () => {
        const survey = await transport.loadSurvey(options.identity);
        if (!preview && submissionId === null) submissionId = (await transport.createSubmission(survey)).submissionId;
        const first = await transport.firstPage(survey);
        const entryId = preview || submissionId === null ? undefined : (await transport.createEntry(submissionId, first)).entryId;
        set({ survey });
        show(first, visit([], { page: first.identity, entryId }), resetProgress(startProgress(survey.containerCount)));
      }),

    answer(fieldIdentity, value) {
      if (state.phase !== 'page') return;
      const answers = { ...state.answers, [fieldIdentity]: value };
      if (state.page) answersByPage.set(state.page.identity, answers);
      const { [fieldIdentity]: _cleared, ...errors } = state.errors;
      set({ answers, errors });
    },

    async next() {
      const page = state.page;
      const survey = state.survey;
      const here = currentVisit(state.history);
      if (state.phase !== 'page' || !page || !survey || !here) return;
      const problems = checkAnswers(page.fields, state.answers, lang);
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
      const survey = state.survey;
      if (state.phase !== 'page' || !survey) return;
      const { history, left } = popVisit(state.history);
      const previous = currentVisit(history);
      if (!left || !previous) return;
      await attempt('loading', async () => {
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
  };
}
