/**
 * What the database holds, cheaply enough to take around every request of a property test: one
 * SQL statement answers, per table, its row count and an md5 of its rows' text, so an insert, a
 * deletion and an update of any column all show — not just a changed count.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../server/db/open';

export type DbState = Record<string, string>;

/** Tables that legitimately change on any request: sign-in bookkeeping, the audit trail, rate-limit counters, SSO state. */
export const BOOKKEEPING = new Set([
  'login_attempts',
  'audit_events',
  'rate_limits',
  'sso_requests',
  'sso_assertions',
  'sso_handoffs',
  'refresh_tokens',
  '__drizzle_migrations',
]);

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

export async function userTables(db: Db, exclude: ReadonlySet<string> = BOOKKEEPING): Promise<string[]> {
  const rows = rowsOf<{ tablename: string }>(await db.execute(sql`select tablename from pg_tables where schemaname = 'public' order by tablename`));
  return rows.map((r) => r.tablename).filter((t) => !exclude.has(t));
}

/** The statement for `tables`, built once: a union of one aggregate per table. */
export function stateQuery(tables: readonly string[]) {
  if (tables.length === 0) throw new Error('no tables');
  const parts = tables.map(
    (t) =>
      `select '${t.replace(/'/g, "''")}' as t, count(*)::text || ':' || md5(coalesce(string_agg(x::text, E'\\n' order by x::text), '')) as s from "${t.replace(/"/g, '""')}" x`,
  );
  return sql.raw(parts.join(' union all '));
}

export async function dbState(db: Db, query: ReturnType<typeof stateQuery>): Promise<DbState> {
  const rows = rowsOf<{ t: string; s: string }>(await db.execute(query));
  return Object.fromEntries(rows.map((r) => [r.t, r.s]));
}

/** The tables whose content differs between two states. */
export const changedTables = (before: DbState, after: DbState) =>
  [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((t) => before[t] !== after[t]);
