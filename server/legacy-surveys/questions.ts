/**
 * A legacy page's questions: added last ('placeholder', titled 'Placeholder', when untyped;
 * SPEC section 4), edited with their tags and moved, deleted softly. A 'multiple' question
 * starts with 'None of the Above'. No write may leave a page that options jump to with only
 * date-of-birth questions (./transitions.ts).
 */
import { and, asc, eq, ne } from 'drizzle-orm';
import type { InferOutput } from 'valibot';
import type { QuestionInput, QuestionPatch } from '@core/model/legacySurvey';
import { DOB_PAGE_IS_TARGET, PLACEHOLDER_TITLE } from '@core/survey/authoring';
import type { Db, Tx } from '../db/open';
import { surveyQuestions } from '../db/schema';
import { Conflict, Invalid } from '../errors';
import { closeGaps, moveTo } from '../surveys';
import { writeTags } from '../surveys';
import { addNoneOfTheAboveIfEmpty } from './options';
import type { PageContext, QuestionContext } from './parts';
import { touchSurvey } from './surveys';
import { leavesDobOnlyTarget } from './transitions';
import { insertedRow } from '../db/rows';

const questionSiblings = (tx: Tx, pageId: number) =>
  tx
    .select({ id: surveyQuestions.id, displayOrder: surveyQuestions.displayOrder })
    .from(surveyQuestions)
    .where(and(eq(surveyQuestions.pageId, pageId), eq(surveyQuestions.deleted, false)))
    .orderBy(asc(surveyQuestions.displayOrder), asc(surveyQuestions.id));

/** The types of the page's other questions (not deleted), without the context's question. */
async function otherTypes(tx: Tx, context: QuestionContext): Promise<string[]> {
  const others = await tx
    .select({ type: surveyQuestions.questionType })
    .from(surveyQuestions)
    .where(and(eq(surveyQuestions.pageId, context.page.id), eq(surveyQuestions.deleted, false), ne(surveyQuestions.id, context.question.id)));
  return others.map((q) => q.type);
}

/**
 * A question added last to the context's page (its category, tags and translations checked by
 * the caller); its id.
 */
export async function createQuestion(db: Db, context: PageContext, attributes: InferOutput<typeof QuestionInput>): Promise<number> {
  const { tagIds, ...values } = attributes;
  const type = values.questionType ?? 'placeholder';
  return db.transaction(async (tx) => {
    await touchSurvey(tx, context.survey.id);
    const siblings = await questionSiblings(tx, context.page.id);
    const created = await insertedRow(
      tx
        .insert(surveyQuestions)
        .values({
          ...values,
          questionType: type,
          title: values.title ?? PLACEHOLDER_TITLE,
          translations: values.translations ?? {},
          displayOrder: siblings.length + 1,
        })
        .returning({ id: surveyQuestions.id }),
    );
    await closeGaps(tx, surveyQuestions, siblings);
    await writeTags(tx, { question: created.id }, tagIds);
    if (type === 'multiple') await addNoneOfTheAboveIfEmpty(tx, created.id);
    return created.id;
  });
}

/** Writes a question's changes (checked by the caller); a 422 at its type for a date of birth that would leave a jumped-to page only dates of birth. */
export async function updateQuestion(db: Db, context: QuestionContext, attributes: InferOutput<typeof QuestionPatch>) {
  const id = context.question.id;
  const { tagIds, displayOrder, ...values } = attributes;
  await db.transaction(async (tx) => {
    await touchSurvey(tx, context.survey.id);
    if (values.questionType === 'dob' && context.question.questionType !== 'dob') {
      if (await leavesDobOnlyTarget(tx, context, [...(await otherTypes(tx, context)), 'dob'])) {
        throw new Invalid([{ pointer: '/data/attributes/questionType', detail: DOB_PAGE_IS_TARGET }]);
      }
    }
    if (Object.keys(values).length) await tx.update(surveyQuestions).set(values).where(eq(surveyQuestions.id, id));
    await writeTags(tx, { question: id }, tagIds);
    if (displayOrder !== undefined) await moveTo(tx, surveyQuestions, await questionSiblings(tx, context.page.id), id, displayOrder);
    if (values.questionType === 'multiple') await addNoneOfTheAboveIfEmpty(tx, id);
  });
}

/** Deletes the question softly; a 409 when that would leave a jumped-to page only dates of birth. */
export async function deleteQuestion(db: Db, context: QuestionContext) {
  const id = context.question.id;
  await db.transaction(async (tx) => {
    await touchSurvey(tx, context.survey.id);
    if (await leavesDobOnlyTarget(tx, context, await otherTypes(tx, context))) throw new Conflict(DOB_PAGE_IS_TARGET);
    await tx.update(surveyQuestions).set({ deleted: true }).where(eq(surveyQuestions.id, id));
    await closeGaps(tx, surveyQuestions, await questionSiblings(tx, context.page.id));
  });
}
