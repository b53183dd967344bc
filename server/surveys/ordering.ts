/**
 * Display orders among siblings (pages, child containers, questions, options) in both survey
 * models. The rules are core/survey/authoring.ts's (`reorder` moves one, `densify` closes gaps);
 * this writes what they compute, only where an order changed.
 */
import { eq } from 'drizzle-orm';
import { densify, reorder } from '@core/survey/authoring';
import type { Tx } from '../db/open';
import { oFormContainers, oFormFields, surveyOptions, surveyPages, surveyQuestions } from '../db/schema';

/** The tables whose rows are ordered among their siblings. */
export type OrderedTable = typeof oFormContainers | typeof oFormFields | typeof surveyPages | typeof surveyQuestions | typeof surveyOptions;
export interface Sibling {
  id: number;
  displayOrder: number;
}

/** Writes `after`'s orders where they differ from `before`'s. */
async function writeOrders(tx: Tx, table: OrderedTable, before: readonly Sibling[], after: readonly Sibling[]) {
  const old = new Map(before.map((r) => [r.id, r.displayOrder]));
  for (const row of after) {
    if (old.get(row.id) !== row.displayOrder) await tx.update(table).set({ displayOrder: row.displayOrder }).where(eq(table.id, row.id));
  }
}

/** Ties (equal orders) keep their id order: renumber by position first. */
const positional = <T extends Sibling>(rows: readonly T[]) => rows.map((r, i) => ({ ...r, displayOrder: i + 1 }));

/** Moves sibling `id` to position `to` (1-based) among `siblings` (in their current order). */
export async function moveTo(tx: Tx, table: OrderedTable, siblings: readonly Sibling[], id: number, to: number) {
  const ordered = positional(siblings);
  await writeOrders(
    tx,
    table,
    siblings,
    reorder(
      ordered,
      ordered.findIndex((r) => r.id === id),
      to - 1,
    ),
  );
}

/** Numbers `siblings` 1, 2, 3… in their current order (after an insert or a delete). */
export const closeGaps = (tx: Tx, table: OrderedTable, siblings: readonly Sibling[]) => writeOrders(tx, table, siblings, densify(positional(siblings)));
