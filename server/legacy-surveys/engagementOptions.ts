/**
 * An option's settings per engagement (SPEC section 7): whether choosing the option disqualifies
 * a participant of that engagement, and its weight. Each engagement has at most one setting for
 * an option, and only engagements the user may see, of the survey's sponsor, may have one. A
 * setting is read, listed and written through its option (see ./parts.ts), so settings of
 * deleted options or of surveys out of scope read as unknown.
 */
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { InferOutput } from 'valibot';
import {
  ENGAGEMENT_OPTION_DEFAULT_SORT,
  ENGAGEMENT_OPTION_SORTS,
  ENGAGEMENT_OPTION,
  ENGAGEMENT_OPTION_TYPE,
  type EngagementOption,
  type EngagementOptionInput,
  type EngagementOptionPatch,
  type EngagementOptionsReplace,
} from '@core/model/legacySurvey';
import type { AuthUser } from '../context';
import type { Db } from '../db/open';
import { rowWithId } from '../db/rows';
import { engagementOptions, engagements, surveyOptions, surveyPages, surveyQuestions } from '../db/schema';
import { engagementScope } from '../engagements';
import { Conflict, Invalid } from '../errors';
import { countOf, joinedPage } from '../http/list';
import { idParam } from '../http/params';
import type { ListQuery, ListSpec } from '../http/query';
import { rethrowConstraint } from '../http/sql';
import { ENGAGEMENT_OPTION_EXISTS, ENGAGEMENT_REPEATED, OPTION_ENGAGEMENT_INVALID } from './messages';
import { findOption, type OptionContext } from './parts';
import { touchSurvey } from './surveys';

const engagementOptionColumns = {
  id: engagementOptions.id,
  engagementId: engagementOptions.engagementId,
  engagementName: engagements.name,
  optionId: engagementOptions.optionId,
  isDisqualified: engagementOptions.isDisqualified,
  weight: engagementOptions.weight,
};
export type EngagementOptionRow = { id: number; engagementId: number; engagementName: string; optionId: number; isDisqualified: boolean; weight: number };

type EngagementOptionSort = (typeof ENGAGEMENT_OPTION_SORTS)[number];
const ENGAGEMENT_OPTION_FILTERS = { optionId: idParam('option'), engagementId: idParam('engagement') };

/** What a list of settings may be asked for: sorts, filters (an option, an engagement) and fields. */
export const engagementOptionListSpec: ListSpec<EngagementOptionSort, typeof ENGAGEMENT_OPTION_FILTERS> = {
  type: ENGAGEMENT_OPTION_TYPE,
  sorts: ENGAGEMENT_OPTION_SORTS,
  defaultSort: ENGAGEMENT_OPTION_DEFAULT_SORT,
  defaultLimit: 100,
  filters: ENGAGEMENT_OPTION_FILTERS,
  fields: ENGAGEMENT_OPTION.names,
};
const engagementOptionSorts = {
  engagementName: engagements.name,
  weight: engagementOptions.weight,
  isDisqualified: engagementOptions.isDisqualified,
};

export function toEngagementOption(row: EngagementOptionRow): EngagementOption {
  return {
    id: String(row.id),
    engagementId: String(row.engagementId),
    engagementName: row.engagementName,
    optionId: String(row.optionId),
    isDisqualified: row.isDisqualified,
    weight: row.weight,
  };
}

const selectEngagementOptions = (db: Db) =>
  db.select(engagementOptionColumns).from(engagementOptions).innerJoin(engagements, eq(engagements.id, engagementOptions.engagementId));

/** A setting the user may reach (its engagement and its option in scope), or undefined. */
export async function findEngagementOption(db: Db, id: number | null, user: AuthUser): Promise<EngagementOptionRow | undefined> {
  const row = await rowWithId(selectEngagementOptions(db), engagementOptions.id, id, engagementScope(user));
  return row && (await findOption(db, row.optionId, user)) ? (row as EngagementOptionRow) : undefined;
}

/** One page of the settings the user may see, of options still in a survey, narrowed to an option or an engagement. */
export async function listEngagementOptions(
  db: Db,
  user: AuthUser,
  q: ListQuery<EngagementOptionSort, typeof ENGAGEMENT_OPTION_FILTERS>,
): Promise<{ rows: EngagementOptionRow[]; total: number | null }> {
  const only = q.filters;
  const conditions: (SQL | undefined)[] = [
    engagementScope(user),
    // Only options still in a survey (not deleted along the way).
    sql`exists (select 1 from ${surveyOptions}
        join ${surveyQuestions} on ${surveyQuestions.id} = ${surveyOptions.questionId}
        join ${surveyPages} on ${surveyPages.id} = ${surveyQuestions.pageId}
        where ${surveyOptions.id} = ${engagementOptions.optionId} and not ${surveyOptions.deleted}
          and not ${surveyQuestions.deleted} and not ${surveyPages.isDeleted})`,
  ];
  if (only.optionId !== undefined) conditions.push(eq(engagementOptions.optionId, only.optionId));
  if (only.engagementId !== undefined) conditions.push(eq(engagementOptions.engagementId, only.engagementId));
  const where = and(...conditions);
  const counted = countOf(db, engagementOptions).innerJoin(engagements, eq(engagements.id, engagementOptions.engagementId)).$dynamic();
  const page = await joinedPage(selectEngagementOptions(db).$dynamic(), counted, q, { where, sorts: engagementOptionSorts, id: engagementOptions.id });
  return { rows: page.rows as EngagementOptionRow[], total: page.total };
}

/**
 * The engagements an option may have settings for: those the user may see and, when the
 * survey belongs to an engagement, of that engagement's sponsor. Each bad one is a 422.
 */
async function assertOptionEngagements(db: Db, context: OptionContext, user: AuthUser, ids: { id: number; pointer: string }[]) {
  const issues: { pointer: string; detail: string }[] = [];
  const seen = new Set<number>();
  for (const { id, pointer } of ids) {
    if (seen.has(id)) issues.push({ pointer, detail: ENGAGEMENT_REPEATED });
    seen.add(id);
  }
  const wanted = [...seen];
  const found = wanted.length
    ? await db
        .select({ id: engagements.id, sponsorId: engagements.sponsorId })
        .from(engagements)
        .where(and(inArray(engagements.id, wanted), engagementScope(user)))
    : [];
  const ok = new Set(found.filter((e) => context.survey.sponsorId === null || e.sponsorId === context.survey.sponsorId).map((e) => e.id));
  for (const { id, pointer } of ids) if (!ok.has(id)) issues.push({ pointer, detail: OPTION_ENGAGEMENT_INVALID });
  if (issues.length) throw new Invalid(issues);
}

const pairTaken = () => new Conflict(ENGAGEMENT_OPTION_EXISTS, '/data/attributes/engagementId');

/** A setting for the context's option and one engagement (a 422 for an engagement it may not have, a 409 for a second one); the new row. */
export async function createEngagementOption(
  db: Db,
  context: OptionContext,
  user: AuthUser,
  attributes: InferOutput<typeof EngagementOptionInput>,
): Promise<EngagementOptionRow> {
  await assertOptionEngagements(db, context, user, [{ id: attributes.engagementId, pointer: '/data/attributes/engagementId' }]);
  const [taken] = await db
    .select({ id: engagementOptions.id })
    .from(engagementOptions)
    .where(and(eq(engagementOptions.optionId, attributes.optionId), eq(engagementOptions.engagementId, attributes.engagementId)));
  if (taken) throw pairTaken();
  const [created] = await db
    .insert(engagementOptions)
    .values(attributes)
    .returning({ id: engagementOptions.id })
    .catch((error: unknown) => rethrowConstraint(error, { unique: pairTaken }));
  const row = created && (await findEngagementOption(db, created.id, user));
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function updateEngagementOption(db: Db, id: number, attributes: InferOutput<typeof EngagementOptionPatch>) {
  if (Object.keys(attributes).length) await db.update(engagementOptions).set(attributes).where(eq(engagementOptions.id, id));
}

/**
 * Replaces the context's option's settings with `settings`, in one transaction (a 422 for each
 * engagement it may not have); its settings the user may see afterwards, by engagement name.
 */
export async function replaceEngagementOptions(
  db: Db,
  context: OptionContext,
  user: AuthUser,
  settings: InferOutput<typeof EngagementOptionsReplace>['engagementOptions'],
): Promise<EngagementOptionRow[]> {
  const optionId = context.option.id;
  await assertOptionEngagements(
    db,
    context,
    user,
    settings.map((s, i) => ({ id: s.engagementId, pointer: `/data/attributes/engagementOptions/${i}/engagementId` })),
  );
  await db.transaction(async (tx) => {
    await touchSurvey(tx, context.survey.id);
    const scope = engagementScope(user);
    // Settings for engagements the user cannot see are not theirs to remove.
    await tx
      .delete(engagementOptions)
      .where(
        and(
          eq(engagementOptions.optionId, optionId),
          scope ? inArray(engagementOptions.engagementId, tx.select({ id: engagements.id }).from(engagements).where(scope)) : undefined,
        ),
      );
    if (settings.length) await tx.insert(engagementOptions).values(settings.map((s) => ({ ...s, optionId })));
  });
  return (await selectEngagementOptions(db)
    .where(and(eq(engagementOptions.optionId, optionId), engagementScope(user)))
    .orderBy(asc(engagements.name), asc(engagementOptions.id))) as EngagementOptionRow[];
}
