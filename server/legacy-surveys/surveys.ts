/**
 * Legacy surveys themselves (SPEC sections 3, 4, 7): the row staff read (with its engagement and
 * sponsor), found and listed in the user's scope, created with its first page, updated, deleted,
 * and marked modified by every write to one of its parts.
 *
 * Scope: all surveys for Admin and Super User, else those of engagements of their sponsors (with
 * the engagements left-joined, a survey without one is out of scope); another sponsor's survey
 * reads as unknown.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { InferOutput } from 'valibot';
import {
  SURVEY_DEFAULT_SORT,
  SURVEY_SORTS,
  SURVEY,
  SURVEY_TYPE,
  type Survey,
  type SurveyInput,
  type SurveyPage,
  type SurveyPatch,
} from '@core/model/legacySurvey';
import { newPageTitle } from '@core/survey/authoring';
import type { AuthUser } from '../context';
import type { Conn, Db, Tx } from '../db/open';
import { rowWithId, insertedRow } from '../db/rows';
import { engagements, sponsors, surveyPages, surveys } from '../db/schema';
import { engagementScope } from '../engagements';
import { booleanFilter, filterConditions, idFilter } from '../http/filters';
import { searchParam } from '../http/params';
import { countOf, joinedPage } from '../http/list';
import type { ListQuery, ListSpec } from '../http/query';
import { ilikeAny } from '../http/sql';
import { idOrNull } from './structure';

const surveyColumns = {
  id: surveys.id,
  title: surveys.title,
  globalId: surveys.globalId,
  isActive: surveys.isActive,
  engagementId: surveys.engagementId,
  engagementName: engagements.name,
  sponsorId: engagements.sponsorId,
  sponsorName: sponsors.name,
  screenerId: surveys.screenerId,
  pageCounter: surveys.pageCounter,
  created: surveys.created,
  modified: surveys.modified,
};
export type SurveyRow = {
  id: number;
  title: string;
  globalId: string;
  isActive: boolean;
  engagementId: number | null;
  engagementName: string | null;
  sponsorId: number | null;
  sponsorName: string | null;
  screenerId: number | null;
  pageCounter: number;
  created: Date;
  modified: Date;
};

const SURVEY_INCLUDES = ['pages', 'pages.questions', 'pages.questions.options'] as const;

const SURVEY_FILTERS = {
  engagementId: idFilter(surveys.engagementId, 'engagement'),
  sponsorId: idFilter(engagements.sponsorId, 'sponsor'),
  isActive: booleanFilter(surveys.isActive),
};
const SURVEY_LIST_FILTERS = { ...SURVEY_FILTERS, searchQuery: searchParam };

type SurveySort = (typeof SURVEY_SORTS)[number];
type SurveyFilter = typeof SURVEY_LIST_FILTERS;

/** What a list of surveys may be asked for: sorts, filters, fields and the pages included. */
export const surveyListSpec: ListSpec<SurveySort, SurveyFilter> = {
  type: SURVEY_TYPE,
  sorts: SURVEY_SORTS,
  defaultSort: SURVEY_DEFAULT_SORT,
  filters: SURVEY_LIST_FILTERS,
  fields: SURVEY.names,
  includes: SURVEY_INCLUDES,
};

const surveySortColumns = {
  title: surveys.title,
  isActive: surveys.isActive,
  engagementName: engagements.name,
  sponsorName: sponsors.name,
  created: surveys.created,
  modified: surveys.modified,
};

export function toSurvey(row: SurveyRow, pages?: SurveyPage[]): Survey {
  return {
    id: String(row.id),
    title: row.title,
    globalId: row.globalId,
    isActive: row.isActive,
    engagementId: idOrNull(row.engagementId),
    engagementName: row.engagementName,
    sponsorId: idOrNull(row.sponsorId),
    sponsorName: row.sponsorName,
    screenerId: idOrNull(row.screenerId),
    pageCounter: row.pageCounter,
    created: row.created.toISOString(),
    modified: row.modified.toISOString(),
    ...(pages ? { pages } : {}),
  };
}

const selectSurveys = (db: Conn) =>
  db
    .select(surveyColumns)
    .from(surveys)
    .leftJoin(engagements, eq(engagements.id, surveys.engagementId))
    .leftJoin(sponsors, eq(sponsors.id, engagements.sponsorId));

/** Which surveys a user may reach (see the scope above). */
const surveyScope = (user: AuthUser) => engagementScope(user);

/** A survey the user may reach, or undefined. */
export async function findSurvey(db: Conn, id: number | null, user: AuthUser): Promise<SurveyRow | undefined> {
  return (await rowWithId(selectSurveys(db), surveys.id, id, surveyScope(user))) as SurveyRow | undefined;
}

/** One page of the surveys the user may reach, in the query's filters and sort, with their number. */
export async function listSurveys(db: Db, user: AuthUser, q: ListQuery<SurveySort, SurveyFilter>): Promise<{ rows: SurveyRow[]; total: number | null }> {
  const search = ilikeAny([surveys.title, surveys.globalId, engagements.name, sponsors.name], q.filters.searchQuery);
  const where = and(surveyScope(user), ...filterConditions(q.filters, SURVEY_FILTERS), search);
  const counted = countOf(db, surveys)
    .leftJoin(engagements, eq(engagements.id, surveys.engagementId))
    .leftJoin(sponsors, eq(sponsors.id, engagements.sponsorId))
    .$dynamic();
  const page = await joinedPage(selectSurveys(db).$dynamic(), counted, q, { where, sorts: surveySortColumns, id: surveys.id });
  return { rows: page.rows as SurveyRow[], total: page.total };
}

/** A new survey (of an engagement the caller checked the user may reach) with its first page, 'New Page 1'. */
export async function createSurvey(db: Db, attributes: InferOutput<typeof SurveyInput>): Promise<number> {
  return db.transaction(async (tx) => {
    const created = await insertedRow(
      tx
        .insert(surveys)
        .values({ ...attributes, globalId: randomUUID(), pageCounter: 1 })
        .returning({ id: surveys.id }),
    );
    await tx.insert(surveyPages).values({ surveyId: created.id, title: newPageTitle(0), displayOrder: 1 });
    return created.id;
  });
}

export async function updateSurvey(db: Db, id: number, attributes: InferOutput<typeof SurveyPatch>) {
  await db
    .update(surveys)
    .set({ ...attributes, modified: sql`now()` })
    .where(eq(surveys.id, id));
}

/** Deletes the survey; its pages, questions and options go with it (the foreign keys cascade). */
export async function deleteSurvey(db: Db, id: number) {
  await db.delete(surveys).where(eq(surveys.id, id));
}

/** Serialises writes to one survey (page counter, display orders) and marks it modified. */
export async function touchSurvey(tx: Tx, surveyId: number) {
  await tx.update(surveys).set({ modified: sql`now()` }).where(eq(surveys.id, surveyId));
}
