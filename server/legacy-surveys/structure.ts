/**
 * A legacy survey's structure as staff read it: its pages (not deleted) with their questions
 * and options (not deleted), each in display order, each question with its tags by name. Pages,
 * questions and options are deleted softly, so every read here leaves the deleted ones out.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { SurveyOption, SurveyPage, SurveyQuestion, TransitionTo } from '@core/model/legacySurvey';
import type { FieldType } from '@core/model/survey';
import type { Conn } from '../db/open';
import { surveyOptions, surveyPages, surveyQuestionTags, surveyQuestions, tags } from '../db/schema';

export type PageRow = typeof surveyPages.$inferSelect;
export type QuestionRow = typeof surveyQuestions.$inferSelect;
export type OptionRow = typeof surveyOptions.$inferSelect;

export const idOrNull = (n: number | null) => (n === null ? null : String(n));

export function toOption(row: OptionRow): SurveyOption {
  return {
    id: String(row.id),
    questionId: String(row.questionId),
    label: row.label,
    value: row.value,
    isDisqualified: row.isDisqualified,
    transitionTo: row.transitionTo as TransitionTo | null,
    transitionTarget: idOrNull(row.transitionTarget),
    translations: row.translations,
    displayOrder: row.displayOrder,
  };
}

function toQuestion(row: QuestionRow, tagList: { id: string; name: string }[], options: SurveyOption[]): SurveyQuestion {
  return {
    id: String(row.id),
    pageId: String(row.pageId),
    questionType: row.questionType as FieldType,
    title: row.title,
    helperText: row.helperText,
    questionCategoryId: idOrNull(row.questionCategoryId),
    tags: tagList,
    translations: row.translations,
    displayOrder: row.displayOrder,
    options,
  };
}

/** The questions of `pageIds` (not deleted) with their tags and options, in display order. */
export async function loadQuestions(db: Conn, pageIds: number[]): Promise<SurveyQuestion[]> {
  if (pageIds.length === 0) return [];
  const questions = await db
    .select()
    .from(surveyQuestions)
    .where(and(inArray(surveyQuestions.pageId, pageIds), eq(surveyQuestions.deleted, false)))
    .orderBy(asc(surveyQuestions.displayOrder), asc(surveyQuestions.id));
  const questionIds = questions.map((q) => q.id);
  const options = questionIds.length
    ? await db
        .select()
        .from(surveyOptions)
        .where(and(inArray(surveyOptions.questionId, questionIds), eq(surveyOptions.deleted, false)))
        .orderBy(asc(surveyOptions.displayOrder), asc(surveyOptions.id))
    : [];
  const tagRows = questionIds.length
    ? await db
        .select({ questionId: surveyQuestionTags.questionId, id: tags.id, name: tags.name })
        .from(surveyQuestionTags)
        .innerJoin(tags, eq(tags.id, surveyQuestionTags.tagId))
        .where(inArray(surveyQuestionTags.questionId, questionIds))
        .orderBy(asc(tags.name))
    : [];
  return questions.map((q) =>
    toQuestion(
      q,
      tagRows.filter((t) => t.questionId === q.id).map((t) => ({ id: String(t.id), name: t.name })),
      options.filter((o) => o.questionId === q.id).map(toOption),
    ),
  );
}

/** One question as written (a write's answer), read the way its page's questions are. */
export async function loadQuestion(db: Conn, id: number): Promise<SurveyQuestion | undefined> {
  const [row] = await db.select({ pageId: surveyQuestions.pageId }).from(surveyQuestions).where(eq(surveyQuestions.id, id));
  return row && (await loadQuestions(db, [row.pageId])).find((q) => q.id === String(id));
}

/** One option as written (a write's answer). */
export async function loadOption(db: Conn, id: number): Promise<SurveyOption | undefined> {
  const [row] = await db.select().from(surveyOptions).where(eq(surveyOptions.id, id));
  return row && toOption(row);
}

export function toPage(row: PageRow, questions: SurveyQuestion[]): SurveyPage {
  return {
    id: String(row.id),
    surveyId: String(row.surveyId),
    title: row.title,
    displayOrder: row.displayOrder,
    isActive: row.isActive,
    questions,
  };
}

/** A survey's pages (not deleted) with their questions and options, in display order. */
export async function loadPages(db: Conn, surveyId: number): Promise<SurveyPage[]> {
  const pages = await db
    .select()
    .from(surveyPages)
    .where(and(eq(surveyPages.surveyId, surveyId), eq(surveyPages.isDeleted, false)))
    .orderBy(asc(surveyPages.displayOrder), asc(surveyPages.id));
  const questions = await loadQuestions(
    db,
    pages.map((p) => p.id),
  );
  return pages.map((p) =>
    toPage(
      p,
      questions.filter((q) => q.pageId === String(p.id)),
    ),
  );
}
