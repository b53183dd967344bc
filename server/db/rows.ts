/**
 * The rows of a raw `db.execute(sql…)`: node-postgres answers a QueryResult and PGlite a
 * Results object, both with `rows` (drizzle's query builders hide this; raw statements do not).
 */
export function rowsOf(result: unknown): Record<string, unknown>[] {
  const rows = typeof result === 'object' && result !== null && 'rows' in result ? result.rows : undefined;
  if (!Array.isArray(rows)) throw new Error('database answered no rows array');
  return rows as Record<string, unknown>[];
}
