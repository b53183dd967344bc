import { and, eq, type AnyColumn, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import * as v from 'valibot';
import type { Conn } from './open';

/** Ids as a PostgreSQL array literal, for a statement parameter cast to int[]. */
export const intArray = (ids: readonly number[]) => `{${ids.map((id) => Math.trunc(id)).join(',')}}`;

/** Strings as a PostgreSQL array literal (each quoted, backslashes and quotes escaped), for a parameter cast to text[]. */
export const textArray = (values: readonly string[]) => `{${values.map((value) => `"${value.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;

/**
 * The rows of a raw `db.execute(sql…)`: node-postgres answers a QueryResult and PGlite a
 * Results object, both with `rows` (drizzle's query builders hide this; raw statements do not).
 */
export function rowsOf(result: unknown): Record<string, unknown>[] {
  const rows = typeof result === 'object' && result !== null && 'rows' in result ? result.rows : undefined;
  if (!Array.isArray(rows)) throw new Error('database answered no rows array');
  return rows as Record<string, unknown>[];
}

/**
 * A json column built in a query (json_agg, json_build_object), parsed with `schema`: drivers
 * hand it over parsed or as text depending on the column's type.
 */
export function parseJsonColumn<S extends v.GenericSchema>(schema: S, value: unknown): v.InferOutput<S> {
  return v.parse(schema, typeof value === 'string' ? JSON.parse(value) : value);
}

/**
 * The row of a built select whose `idColumn` is `id` and that `scope` lets through, or undefined:
 * also for a null id (a path's id that is no id), without a read.
 */
export async function rowWithId<R>(
  select: { where(where: SQL | undefined): PromiseLike<R[]> },
  idColumn: AnyColumn,
  id: number | null,
  scope?: SQL,
): Promise<R | undefined> {
  if (id === null) return undefined;
  const [row] = await select.where(and(eq(idColumn, id), scope));
  return row;
}

/** Whether the table of `idColumn` has a row with this id: the check that an attribute names a row. */
export async function rowExists(db: Conn, idColumn: PgColumn, id: number): Promise<boolean> {
  const [found] = await db.select({ id: idColumn }).from(idColumn.table).where(eq(idColumn, id));
  return found !== undefined;
}

/**
 * The row an `insert … returning` answers: an insert that answers none is a fault of the
 * database or driver, not a case for the caller.
 */
export async function insertedRow<R>(inserted: PromiseLike<R[]>): Promise<R> {
  const [row] = await inserted;
  if (!row) throw new Error('insert returned no row');
  return row;
}
