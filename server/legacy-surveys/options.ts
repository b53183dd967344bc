/**
 * A legacy question's options: added after the others but in front of a 'None of the Above'
 * that is last (core/survey/authoring.ts `newOptionIndex`), 'Option N' with value N when unnamed;
 * edited, moved and given a transition (./transitions.ts); deleted softly. A 'multiple' question
 * left without options gets 'None of the Above' (SPEC section 4).
 */
import { and, asc, eq } from 'drizzle-orm';
import type { InferOutput } from 'valibot';
import type { OptionInput, OptionPatch, TransitionTo } from '@core/model/legacySurvey';
import { NONE_OF_THE_ABOVE, newOptionIndex, noneOfTheAbove } from '@core/survey/authoring';
import type { Db, Tx } from '../db/open';
import { surveyOptions } from '../db/schema';
import { closeGaps, moveTo } from '../surveys';
import type { OptionContext, QuestionContext } from './parts';
import { touchSurvey } from './surveys';
import { resolveTransition, type Transition } from './transitions';
import { insertedRow } from '../db/rows';

const optionSiblings = (tx: Tx, questionId: number) =>
  tx
    .select({ id: surveyOptions.id, displayOrder: surveyOptions.displayOrder, label: surveyOptions.label, value: surveyOptions.value })
    .from(surveyOptions)
    .where(and(eq(surveyOptions.questionId, questionId), eq(surveyOptions.deleted, false)))
    .orderBy(asc(surveyOptions.displayOrder), asc(surveyOptions.id));

/** Adds 'None of the Above' to a 'multiple' question that has no options (SPEC section 4). */
export async function addNoneOfTheAboveIfEmpty(tx: Tx, questionId: number) {
  const siblings = await optionSiblings(tx, questionId);
  if (siblings.length > 0) return;
  const none = noneOfTheAbove();
  await tx.insert(surveyOptions).values({ questionId, label: NONE_OF_THE_ABOVE, value: none.value, isDisqualified: false, displayOrder: 1 });
}

/** An option added to the context's question (a 422 for a transition it may not have); its id. */
export async function createOption(db: Db, context: QuestionContext, attributes: InferOutput<typeof OptionInput>): Promise<number> {
  const transition = await resolveTransition(db, context, attributes.transitionTo, attributes.transitionTarget);
  return db.transaction(async (tx) => {
    await touchSurvey(tx, context.survey.id);
    const siblings = await optionSiblings(tx, context.question.id);
    const n = siblings.length + 1;
    // Added after the others, then moved in front of a 'None of the Above' that is last.
    const position = newOptionIndex(siblings) + 1;
    const created = await insertedRow(
      tx
        .insert(surveyOptions)
        .values({
          ...attributes,
          ...transition,
          label: attributes.label ?? `Option ${n}`,
          value: attributes.value ?? String(n),
          displayOrder: n,
        })
        .returning({ id: surveyOptions.id }),
    );
    await closeGaps(tx, surveyOptions, siblings);
    if (position < n) await moveTo(tx, surveyOptions, await optionSiblings(tx, context.question.id), created.id, position);
    return created.id;
  });
}

export async function updateOption(db: Db, context: OptionContext, attributes: InferOutput<typeof OptionPatch>) {
  const id = context.option.id;
  const { displayOrder, transitionTo, transitionTarget, ...values } = attributes;
  let transition: Transition | undefined;
  if (transitionTo !== undefined || transitionTarget !== undefined) {
    // A target alone means a jump to that page; a new kind alone keeps the old target.
    const to = transitionTo !== undefined ? transitionTo : transitionTarget !== null ? 'page' : (context.option.transitionTo as TransitionTo | null);
    const target = transitionTarget !== undefined ? transitionTarget : context.option.transitionTarget;
    transition = await resolveTransition(db, context, to, target);
  }
  await db.transaction(async (tx) => {
    await touchSurvey(tx, context.survey.id);
    const set = { ...values, ...transition };
    if (Object.keys(set).length) await tx.update(surveyOptions).set(set).where(eq(surveyOptions.id, id));
    if (displayOrder !== undefined) await moveTo(tx, surveyOptions, await optionSiblings(tx, context.question.id), id, displayOrder);
  });
}

export async function deleteOption(db: Db, context: OptionContext) {
  const id = context.option.id;
  await db.transaction(async (tx) => {
    await touchSurvey(tx, context.survey.id);
    await tx.update(surveyOptions).set({ deleted: true }).where(eq(surveyOptions.id, id));
    await closeGaps(tx, surveyOptions, await optionSiblings(tx, context.question.id));
  });
}
