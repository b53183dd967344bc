/** The table that links two rows, as every many-to-many link in the schema is kept. */
import { index, pgTable, primaryKey, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { belongsTo } from './columns';

/** One side of a link: the property, its column, and the row it names. */
type LinkSide<K extends string, N extends string> = readonly [key: K, column: N, owner: () => AnyPgColumn];

type LinkColumns<KA extends string, NA extends string, KB extends string, NB extends string> = Record<KA, ReturnType<typeof belongsTo<NA>>> &
  Record<KB, ReturnType<typeof belongsTo<NB>>>;

/**
 * A link table: one row per pair, keyed by both sides in that order, deleted with either row.
 * The key serves the reads from the first side; `secondIndex` names the index that serves the
 * reads from the second, where there are any.
 */
export function linkTable<T extends string, KA extends string, NA extends string, KB extends string, NB extends string>(
  name: T,
  [firstKey, firstColumn, firstOwner]: LinkSide<KA, NA>,
  [secondKey, secondColumn, secondOwner]: LinkSide<KB, NB>,
  secondIndex?: string,
) {
  // Keys computed from the sides widen to string; the record type restores them.
  const columns = { [firstKey]: belongsTo(firstColumn, firstOwner), [secondKey]: belongsTo(secondColumn, secondOwner) } as LinkColumns<KA, NA, KB, NB>;
  return pgTable(name, columns, (t) => {
    const first: AnyPgColumn = t[firstKey];
    const second: AnyPgColumn = t[secondKey];
    return [primaryKey({ columns: [first, second] }), ...(secondIndex === undefined ? [] : [index(secondIndex).on(second)])];
  });
}
