/**
 * A survey version's own writes: made with its first page and its languages, changed (its
 * title, languages and isActive; an approved version only its isActive, which is not content),
 * deleted while not approved.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type * as v from 'valibot';
import type { NewSurveyInput, SurveyVersionPatch } from '@core/model/surveyDoc';
import { newPageTitle } from '@core/survey/authoring';
import type { Db } from '../db/open';
import { oFormContainers, oForms } from '../db/schema';
import { writeFormLanguages } from './translations';
import { lockEditable } from './versions';
import { insertedRow } from '../db/rows';

/** Version 1 of a new survey identity, in the engagement's sponsor, with one page. Answers its id. */
export async function createSurvey(
  db: Db,
  attributes: v.InferOutput<typeof NewSurveyInput>,
  engagement: { sponsorId: number },
  languageIds: number[] | undefined,
): Promise<number> {
  return db.transaction(async (tx) => {
    const created = await insertedRow(
      tx
        .insert(oForms)
        .values({ ...attributes, identity: randomUUID(), version: 1, sponsorId: engagement.sponsorId, containerCount: 1 })
        .returning({ id: oForms.id }),
    );
    await tx.insert(oFormContainers).values({ oFormId: created.id, identity: randomUUID(), title: newPageTitle(0), displayOrder: 1 });
    await writeFormLanguages(tx, created.id, languageIds ?? []);
    return created.id;
  });
}

export async function updateSurvey(db: Db, id: number, attributes: v.InferOutput<typeof SurveyVersionPatch>, languageIds: number[] | undefined): Promise<void> {
  await db.transaction(async (tx) => {
    // isActive alone (toggle_active) is not content: an approved version may still be switched.
    const onlyActive = Object.keys(attributes).every((k) => k === 'isActive') && languageIds === undefined;
    if (!onlyActive) await lockEditable(tx, id);
    if (Object.keys(attributes).length)
      await tx
        .update(oForms)
        .set({ ...attributes, modified: sql`now()` })
        .where(eq(oForms.id, id));
    if (languageIds !== undefined) await writeFormLanguages(tx, id, languageIds);
  });
}

export async function deleteSurvey(db: Db, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    await lockEditable(tx, id);
    await tx.delete(oForms).where(eq(oForms.id, id));
  });
}
