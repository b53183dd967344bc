import * as v from 'valibot';

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
