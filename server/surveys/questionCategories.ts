/** The question categories lookup (seeded by migration), a page at a time for the editor's picker. */
import type { Db } from '../db/open';
import { questionCategories } from '../db/schema';
import { tablePage } from '../http/list';
import type { ListQuery } from '../http/query';

export function questionCategoryPage(db: Db, q: ListQuery<'name' | 'id'>) {
  const sorts = { name: questionCategories.name, id: questionCategories.id };
  return tablePage(db, questionCategories, q, { sorts, id: questionCategories.id });
}
