/**
 * Where an option jumps (SPEC section 4): to the end, to a page of the same survey that
 * core/survey/authoring.ts `transitionTargets` offers (not the option's own page, not a page of
 * only date-of-birth questions, which participants skip), or on to the next page. A page options
 * jump to may neither be deleted nor be left with only date-of-birth questions.
 */
import { and, eq, ne } from 'drizzle-orm';
import { TRANSITION_TARGET_INVALID, TRANSITION_TARGET_REQUIRED, pageSummaries, type TransitionTo } from '@core/model/legacySurvey';
import { isDobOnlyPage, optionsJumpingTo, transitionTargets, type OptionReference } from '@core/survey/authoring';
import type { Conn, Db } from '../db/open';
import { surveyOptions, surveyPages, surveyQuestions } from '../db/schema';
import { Invalid } from '../errors';
import type { PageContext } from './parts';
import { loadPages } from './structure';

export interface Transition {
  transitionTo: TransitionTo | null;
  transitionTarget: number | null;
}

/** An option's transition as it will be stored, else a 422 at the transition's target. */
export async function resolveTransition(db: Db, context: PageContext, to: TransitionTo | null, target: number | null): Promise<Transition> {
  if (to !== 'page') return { transitionTo: to, transitionTarget: null };
  if (target === null) throw new Invalid([{ pointer: '/data/attributes/transitionTarget', detail: TRANSITION_TARGET_REQUIRED }]);
  const offered = transitionTargets(pageSummaries(await loadPages(db, context.survey.id)), String(context.page.id));
  if (!offered.some((p) => p.identity === String(target))) {
    throw new Invalid([{ pointer: '/data/attributes/transitionTarget', detail: TRANSITION_TARGET_INVALID }]);
  }
  return { transitionTo: 'page', transitionTarget: target };
}

/** Options (not deleted, on the survey's other live pages) that jump to `pageId`, shaped for optionsJumpingTo. */
export async function jumpsTo(db: Conn, surveyId: number, pageId: number): Promise<OptionReference[]> {
  const rows = await db
    .select({ title: surveyQuestions.title, label: surveyOptions.label, value: surveyOptions.value, target: surveyOptions.transitionTarget })
    .from(surveyOptions)
    .innerJoin(surveyQuestions, eq(surveyQuestions.id, surveyOptions.questionId))
    .innerJoin(surveyPages, eq(surveyPages.id, surveyQuestions.pageId))
    .where(
      and(
        eq(surveyPages.surveyId, surveyId),
        eq(surveyPages.isDeleted, false),
        ne(surveyPages.id, pageId),
        eq(surveyQuestions.deleted, false),
        eq(surveyOptions.deleted, false),
        eq(surveyOptions.transitionTo, 'page'),
        eq(surveyOptions.transitionTarget, pageId),
      ),
    );
  return optionsJumpingTo(
    rows.map((r) => ({
      title: r.title,
      configuration: {
        options: [{ label: r.label, value: r.value, translations: {}, isDisqualified: false, transition: { to: 'page' as const, identity: String(r.target) } }],
      },
    })),
    String(pageId),
  );
}

/**
 * Whether the context's page, holding questions of `typesAfter` once a write is done, would be
 * only date-of-birth questions while options jump to it.
 */
export async function leavesDobOnlyTarget(db: Conn, context: PageContext, typesAfter: readonly string[]): Promise<boolean> {
  return isDobOnlyPage(typesAfter) && (await jumpsTo(db, context.survey.id, context.page.id)).length > 0;
}
