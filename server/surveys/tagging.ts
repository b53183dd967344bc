/**
 * A question's category and tags, in both survey models: the ones a write names must exist
 * (else a 422 at the attribute), and the tags are replaced as a whole.
 */
import { eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../db/open';
import { rowExists } from '../db/rows';
import { oFormFieldTags, questionCategories, surveyQuestionTags, tags } from '../db/schema';
import { Invalid } from '../errors';
import { chooseFromList } from '@core/validation/chooseFromList';

export const UNKNOWN_CATEGORY = chooseFromList('a question category');
export const UNKNOWN_TAG = chooseFromList('a tag');

/** The category named at `pointer` (a JSON pointer into the body), when one is named, exists. */
export async function assertCategory(db: Db, id: number | null | undefined, pointer: string) {
  if (id === null || id === undefined) return;
  if (!(await rowExists(db, questionCategories.id, id))) throw new Invalid([{ pointer, detail: UNKNOWN_CATEGORY }]);
}

/** Every tag of `tagIds` exists; each one that does not is a 422 at its place in the list. */
export async function assertTags(db: Db, ids: number[] | undefined) {
  if (!ids?.length) return;
  const found = new Set((await db.select({ id: tags.id }).from(tags).where(inArray(tags.id, ids))).map((r) => r.id));
  const issues = ids.flatMap((id, i) => (found.has(id) ? [] : [{ pointer: `/data/attributes/tagIds/${i}`, detail: UNKNOWN_TAG }]));
  if (issues.length) throw new Invalid(issues);
}

/**
 * Replaces the tags of a versioned survey's question (`field`) or a legacy survey's question
 * (`question`) with `ids`; undefined leaves them as they are.
 */
export async function writeTags(tx: Tx, owner: { field: number } | { question: number }, ids: number[] | undefined) {
  if (ids === undefined) return;
  const unique = [...new Set(ids)];
  if ('field' in owner) {
    await tx.delete(oFormFieldTags).where(eq(oFormFieldTags.fieldId, owner.field));
    if (unique.length) await tx.insert(oFormFieldTags).values(unique.map((tagId) => ({ fieldId: owner.field, tagId })));
  } else {
    await tx.delete(surveyQuestionTags).where(eq(surveyQuestionTags.questionId, owner.question));
    if (unique.length) await tx.insert(surveyQuestionTags).values(unique.map((tagId) => ({ questionId: owner.question, tagId })));
  }
}
