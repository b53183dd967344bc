/**
 * The rest of a run once its first page is on screen (./runner.ts loads this module while the
 * participant reads that page): the answer checks before a page is sent, the submission (created
 * with the first answered page, so "started" means started: SPEC's order of calls is kept,
 * submission, page entry, answers), moving forward and back between pages with sanitization,
 * the qualification, the steps after it (./contactSteps.ts), and resuming a snapshot at any of
 * those places.
 */
import { checkAnswers, type Answers } from './answers';
import { createContactSteps, type StartedSteps } from './contactSteps';
import { back as popVisit, currentVisit, revisit, visit, type History, type Visit } from './history';
import { setProgress, startProgress, stepDown, stepUp, type Progress } from './progress';
import type { ContactTransport, Qualification, RunContext, RunMoves, RunnerPage, RunnerSnapshot, RunnerSurvey, SaveResult } from './runner';
import { OutcomeReached } from './runner';

export function createRunMoves(context: RunContext): RunMoves {
  const { transport, preview, options, set, attempt, end } = context;
  const state = context.state;
  let steps: StartedSteps | null = null;
  let resumeAbandoned = false;

  /** The last ZIP answered on a page still in the participant's path. */
  const zipAnswer = (): string => {
    let zip = '';
    for (const v of state().history) {
      for (const field of context.pagesSeen.get(v.page)?.fields ?? []) {
        const answer = context.answersByPage.get(v.page)?.[field.identity];
        if (field.type === 'zip' && typeof answer === 'string' && answer.trim() !== '') zip = answer.trim();
      }
    }
    return zip;
  };

  /**
   * The survey's pages are done (or none runs: `id`, the submission the server made for the
   * outcome's lead form): the qualification, then (when qualified) the steps after it from `place`.
   */
  // The preview has no submission: its transport answers the outcome staff chose to see.
  const finish = async (id = context.submissionId ?? '', place?: RunnerSnapshot) => {
    context.finishedPages = true;
    const qualification: Qualification = await transport.qualification(id);
    const outcome = qualification.outcome ?? (qualification.isQualified ? 'qualified' : 'notQualified');
    const messages = qualification.messages ?? {};
    set({ qualification, page: null, outcome, messages, progress: setProgress(state().progress, state().progress.max) });
    const contact = transport as Partial<ContactTransport>;
    // A preview stops at qualified: the site search and a referral's contact belong to a stored run.
    if ((preview && qualification.isQualified) || !contact.sites || !contact.contactFields || !contact.submitContact) {
      end(outcome, messages);
      return;
    }
    context.steps = steps = createContactSteps(context, id, contact as ContactTransport);
    // Not qualified (or the survey no longer runs): the outcome's lead form, where there is one.
    await (qualification.isQualified ? steps.begin(zipAnswer(), place) : steps.offer(outcome, messages));
  };

  /** A visited page and its answers: those in memory, else those the server holds for its entry (after a reload). */
  const revisitPage = (survey: RunnerSurvey, { page, entryId }: Visit): Promise<[RunnerPage, Answers | undefined]> =>
    Promise.all([
      transport.page(survey, page),
      context.answersByPage.get(page) ?? (entryId && transport.entryAnswers ? transport.entryAnswers(entryId) : undefined),
    ]);

  /**
   * Back to the last page of `history`, leaving the pages of `left`: leaving a page backwards
   * abandons it, its answers go from the server first (SPEC: going to an earlier page discards
   * what came after); `forget` drops them from memory too, else they show if it is seen again.
   */
  const returnTo = (survey: RunnerSurvey, history: History, to: Visit, left: readonly Visit[], progress: (p: Progress) => Progress, forget?: boolean) =>
    attempt('loading', async () => {
      const entryIds = left.flatMap((v) => (v.entryId ? [v.entryId] : []));
      const id = context.submissionId;
      if (!preview && id !== null && entryIds.length > 0 && !(await transport.sanitize(id, entryIds))) throw new Error('sanitization refused');
      if (forget) for (const v of left) context.answersByPage.delete(v.page);
      const [page, answers] = await revisitPage(survey, to);
      context.show(page, history, progress(state().progress), answers);
    });

  /** Where the server's answer to the page on screen leads: its problems, the next page, another survey or the qualification. */
  const advance = async (survey: RunnerSurvey, result: SaveResult) => {
    if (!result.ok) {
      set({ phase: 'page', errors: result.errors });
      return;
    }
    const progress = stepUp(state().progress);
    // An option's survey transition: this survey ends here and the participant carries on in
    // the other one (the preview, which stores nothing, just shows where this one ends).
    if (result.nextOFormIdentity && !preview) {
      set({ progress, transition: result.nextOFormIdentity });
      end(null);
      return;
    }
    if (!result.nextContainerIdentity) {
      set({ progress });
      // Its own attempt: a retry after a failure from here on reads the qualification again
      // rather than sending answers the server may already have made final.
      await attempt('saving', () => finish());
      return;
    }
    const nextPage = result.nextPage?.identity === result.nextContainerIdentity ? result.nextPage : await transport.page(survey, result.nextContainerIdentity);
    let nextEntry = result.nextContainerEntryId ?? undefined;
    if (!preview && !nextEntry && context.submissionId !== null) nextEntry = (await transport.createEntry(context.submissionId, nextPage)).entryId;
    context.show(nextPage, visit(state().history, { page: nextPage.identity, entryId: nextEntry }), progress);
  };

  const resume = async (snapshot: RunnerSnapshot) => {
    // start() resumes only a snapshot of a submission.
    transport.resume?.(snapshot.submissionId, snapshot.credentials);
    context.submissionId = snapshot.submissionId;
    if (snapshot.step === 'finished') {
      // The server says whether the channel's retake window still holds, even within the tab
      // (a testing channel's window of 0 means a fresh survey on every reload).
      const shown = await transport.outcome!(snapshot.submissionId);
      end(shown.outcome, shown.messages);
      return;
    }
    const survey = await transport.loadSurvey(snapshot.identity);
    const progress = setProgress(startProgress(survey.containerCount), snapshot.progress);
    set({ survey, language: snapshot.language, history: snapshot.history, progress });
    if (snapshot.step !== 'page') {
      // The ZIP the steps after the survey start from is the survey's, as the server holds it.
      await Promise.all(
        snapshot.history.map(async (v) => {
          const [page, stored] = await revisitPage(survey, v);
          context.pagesSeen.set(v.page, page);
          if (stored) context.answersByPage.set(v.page, stored);
        }),
      );
      await finish(undefined, snapshot);
      return;
    }
    const here = currentVisit(snapshot.history);
    if (!here) throw new Error('empty history');
    const [page, stored] = await revisitPage(survey, here);
    context.show(page, snapshot.history, progress, stored);
  };

  return {
    finish,

    async next() {
      // The checks run on what is on screen now; a second Next while one is running does nothing.
      const s = state();
      const page = s.page;
      const survey = s.survey;
      const here = currentVisit(s.history);
      if (s.phase !== 'page' || !page || !survey || !here) return;
      const problems = checkAnswers(page.fields, s.answers, s.language, survey.region);
      if (Object.keys(problems).length > 0) {
        set({ errors: problems });
        return;
      }
      const answers = s.answers;
      const step = async () => {
        // Read again on a retry: the entry may have been made before the failure.
        let entryId = currentVisit(state().history)?.entryId;
        let saved: SaveResult | undefined;
        if (!preview && !entryId) {
          // The first answered page: the submission, this page's entry and its answers (made and
          // saved with it when the server can: the first Next in one request).
          if (context.submissionId === null)
            ({ submissionId: context.submissionId, entryId, saved } = await transport.createSubmission(survey, state().language, page, answers));
          entryId ??= (await transport.createEntry(context.submissionId, page)).entryId;
          set({ history: [...state().history.slice(0, -1), { page: page.identity, entryId }] });
        }
        await advance(survey, saved ?? (preview || !entryId ? await transport.previewAnswers(page, answers) : await transport.saveAnswers(entryId, answers)));
      };
      const ahead = page.next;
      const entryId = here.entryId;
      // Not the first page, whose save waits for the submission (a page's timing goes with its
      // save, sent before the next page shows: widget/controller.ts), nor in preview (no entries).
      if (!ahead || preview || !entryId) return attempt('saving', step);
      // Nothing answered here can end the run (the server says so, server/participant/cannotEnd.ts):
      // the page after it shows now and the save is confirmed behind it. A refused save comes
      // back here with its problems, both pages' answers kept; a reload meanwhile resumes here.
      // The place (history, progress) until the save is confirmed: the state's now.
      context.confirming = {
        ...s,
        done: transport
          .saveAnswers(entryId, answers)
          .catch(() => undefined)
          .then((result) => {
            context.confirming = null;
            if (result?.ok && result.nextContainerIdentity === ahead.identity) {
              // Confirmed: the page shown ahead gets its entry, and from the server's document of
              // it whether the page after it may show at once too.
              ahead.next = result.nextPage?.next;
              set({ history: visit(s.history, { page: ahead.identity, entryId: result.nextContainerEntryId ?? undefined }) });
              return;
            }
            // Refused, not answered, or not where the page said its answers lead: from this page
            // again, as if it had waited (not answered: sent again, waiting this time).
            context.show(page, s.history, s.progress);
            return attempt('saving', result ? () => advance(survey, result) : step);
          }),
      };
      context.show(ahead, visit(s.history, { page: ahead.identity }), stepUp(s.progress));
    },

    async back() {
      if (steps?.back()) return true;
      const s = state();
      const survey = s.survey;
      if (s.phase !== 'page' || !survey) return false;
      const { history, left } = popVisit(s.history);
      const previous = currentVisit(history);
      if (!left || !previous) return false;
      await returnTo(survey, history, previous, [left], stepDown);
      return true;
    },

    async goTo(historyIndex) {
      const s = state();
      const survey = s.survey;
      if (s.phase !== 'page' || !survey || historyIndex >= s.history.length - 1) return;
      const { history, discarded } = revisit(s.history, historyIndex);
      const target = currentVisit(history);
      if (!target || discarded.length === 0) return;
      await returnTo(survey, history, target, discarded, (p) => setProgress(p, historyIndex), true);
    },

    async resume(snapshot) {
      if (resumeAbandoned) return false;
      try {
        await resume(snapshot);
        return true;
      } catch (error) {
        // A submission the server no longer opens for this token: start afresh rather than loop.
        if (error instanceof OutcomeReached || !options.abandonResume?.(error)) {
          context.submissionId = null;
          throw error;
        }
        resumeAbandoned = true;
        context.submissionId = null;
        context.answersByPage.clear();
        set({ history: [], errors: {} });
        return false;
      }
    },
  };
}
