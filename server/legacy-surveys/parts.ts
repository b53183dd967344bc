/**
 * A survey's parts (pages, questions, options) are reached through their survey: each is found
 * with the rows above it, and only when it is not deleted and its survey is in the user's scope
 * (another sponsor's part reads as unknown, as its survey does).
 */
import { eq } from 'drizzle-orm';
import type { AuthUser } from '../context';
import type { Conn } from '../db/open';
import { rowWithId } from '../db/rows';
import { NotFound } from '../errors';
import { surveyOptions, surveyPages, surveyQuestions } from '../db/schema';
import type { OptionRow, PageRow, QuestionRow } from './structure';
import { findSurvey, type SurveyRow } from './surveys';

export interface PageContext {
  page: PageRow;
  survey: SurveyRow;
}
export interface QuestionContext extends PageContext {
  question: QuestionRow;
}
export interface OptionContext extends QuestionContext {
  option: OptionRow;
}

export async function findPage(db: Conn, id: number | null, user: AuthUser): Promise<PageContext | undefined> {
  const page = await rowWithId(db.select().from(surveyPages), surveyPages.id, id, eq(surveyPages.isDeleted, false));
  const survey = page && (await findSurvey(db, page.surveyId, user));
  return page && survey ? { page, survey } : undefined;
}

export async function findQuestion(db: Conn, id: number | null, user: AuthUser): Promise<QuestionContext | undefined> {
  const question = await rowWithId(db.select().from(surveyQuestions), surveyQuestions.id, id, eq(surveyQuestions.deleted, false));
  const context = question && (await findPage(db, question.pageId, user));
  return question && context ? { ...context, question } : undefined;
}

export async function findOption(db: Conn, id: number | null, user: AuthUser): Promise<OptionContext | undefined> {
  const option = await rowWithId(db.select().from(surveyOptions), surveyOptions.id, id, eq(surveyOptions.deleted, false));
  const context = option && (await findQuestion(db, option.questionId, user));
  return option && context ? { ...context, option } : undefined;
}

/** What a find gave, or NotFound naming it: an unknown, deleted or out-of-scope part reads the same. */
export async function orNotFound<T>(finding: Promise<T | undefined>, what: string): Promise<T> {
  const found = await finding;
  if (found === undefined) throw new NotFound(what);
  return found;
}
