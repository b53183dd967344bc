/**
 * A legacy survey's pages: added last under the survey's next page number ('New Page N' when
 * untitled, SPEC section 4), edited and moved, and deleted softly unless options jump to them.
 * The survey's page counter goes up with each page added and down with each one deleted.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { InferOutput } from 'valibot';
import type { PageInput, PagePatch } from '@core/model/legacySurvey';
import { newPageTitle, pageInUseMessage } from '@core/survey/authoring';
import type { Db, Tx } from '../db/open';
import { surveyPages, surveys } from '../db/schema';
import { Conflict } from '../errors';
import { closeGaps, moveTo } from '../surveys';
import type { PageContext } from './parts';
import { touchSurvey } from './surveys';
import { jumpsTo } from './transitions';
import { insertedRow } from '../db/rows';

const pageSiblings = (tx: Tx, surveyId: number) =>
  tx
    .select({ id: surveyPages.id, displayOrder: surveyPages.displayOrder })
    .from(surveyPages)
    .where(and(eq(surveyPages.surveyId, surveyId), eq(surveyPages.isDeleted, false)))
    .orderBy(asc(surveyPages.displayOrder), asc(surveyPages.id));

/** A page added last to a survey the caller found in the user's scope; its id. */
export async function createPage(db: Db, attributes: InferOutput<typeof PageInput>): Promise<number> {
  return db.transaction(async (tx) => {
    // Raising the counter locks the survey's row: concurrent adds get distinct numbers.
    const [raised] = await tx
      .update(surveys)
      .set({ pageCounter: sql`${surveys.pageCounter} + 1`, modified: sql`now()` })
      .where(eq(surveys.id, attributes.surveyId))
      .returning({ pageCounter: surveys.pageCounter });
    if (!raised) throw new Error('survey vanished');
    const siblings = await pageSiblings(tx, attributes.surveyId);
    const created = await insertedRow(
      tx
        .insert(surveyPages)
        .values({
          surveyId: attributes.surveyId,
          title: attributes.title ?? newPageTitle(raised.pageCounter - 1),
          isActive: attributes.isActive,
          displayOrder: siblings.length + 1,
        })
        .returning({ id: surveyPages.id }),
    );
    await closeGaps(tx, surveyPages, siblings);
    return created.id;
  });
}

export async function updatePage(db: Db, context: PageContext, attributes: InferOutput<typeof PagePatch>) {
  const id = context.page.id;
  const { displayOrder, ...rest } = attributes;
  await db.transaction(async (tx) => {
    await touchSurvey(tx, context.survey.id);
    if (Object.keys(rest).length) await tx.update(surveyPages).set(rest).where(eq(surveyPages.id, id));
    if (displayOrder !== undefined) await moveTo(tx, surveyPages, await pageSiblings(tx, context.survey.id), id, displayOrder);
  });
}

/** Deletes the page softly; a 409 naming the options that jump to it, if any do. */
export async function deletePage(db: Db, context: PageContext) {
  const id = context.page.id;
  await db.transaction(async (tx) => {
    await touchSurvey(tx, context.survey.id);
    const refs = await jumpsTo(tx, context.survey.id, id);
    if (refs.length) throw new Conflict(pageInUseMessage(refs));
    await tx.update(surveyPages).set({ isDeleted: true }).where(eq(surveyPages.id, id));
    await tx
      .update(surveys)
      .set({ pageCounter: sql`greatest(${surveys.pageCounter} - 1, 0)` })
      .where(eq(surveys.id, context.survey.id));
    await closeGaps(tx, surveyPages, await pageSiblings(tx, context.survey.id));
  });
}
