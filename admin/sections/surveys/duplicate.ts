/** What a copy of a question or page is made of: the same texts, options and rules, under a new id. */
import type { FieldValues } from '@core/api/surveys';
import type { Question } from '@core/model/surveyDoc';

/** A question's values as the API takes them (its place on the page aside): what the editor saves and a copy repeats. */
export const fieldValuesOf = (field: Question): Omit<FieldValues, 'displayOrder'> => ({
  oFormFieldTypeId: field.oFormFieldTypeId,
  title: field.title,
  categoryId: field.oFormFieldCategoryId === null ? null : Number(field.oFormFieldCategoryId),
  isActive: field.isActive,
  configuration: field.configuration,
  tagIds: field.tags.map((t) => Number(t.id)),
});

/** A question's values for its copy, placed at `displayOrder` (1-based). */
export function duplicateValues(field: Question, displayOrder?: number): Partial<FieldValues> {
  return { ...fieldValuesOf(field), ...(displayOrder === undefined ? {} : { displayOrder }) };
}
