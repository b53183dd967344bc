/**
 * Named list filters that are conditions, declared once per list: each query parameter is read
 * into the condition it selects (a value the filter cannot read is a 400 naming the parameter,
 * never passed to SQL). An empty value is no filter, as the admin leaves a cleared filter out.
 *
 *   const FILTERS = { isActive: booleanFilter(sponsors.isActive), sponsorId: idFilter(engagements.sponsorId, 'sponsor') };
 *   const list: ListSpec<Sort, typeof FILTERS & { searchQuery: … }> = { …, filters: { ...FILTERS, searchQuery: searchParam } };
 *   conditions.push(...filterConditions(q.filters, FILTERS));
 */
import { eq, gte, lte, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { booleanParam, choiceParam, dayParam, idParam, mapParam, textParam, type QueryParam } from './params';

/** A filter: a typed parameter (server/http/params.ts) whose value is the condition it selects. */
export type ListFilter = QueryParam<SQL | undefined>;

export type ListFilters<F extends string = string> = Readonly<Record<F, ListFilter>>;

/** `true` or `false` (also 1 and 0). */
export const booleanFilter = (column: AnyColumn): ListFilter => mapParam(booleanParam, (flag) => eq(column, flag));

/** The id of a related record, e.g. `sponsorId`; `what` names it in the message. */
export const idFilter = (column: AnyColumn, what: string): ListFilter => mapParam(idParam(what), (id) => eq(column, id));

/** One of a fixed list of values, e.g. an engagement's phase. */
export const choiceFilter = (column: AnyColumn, choices: readonly string[]): ListFilter => mapParam(choiceParam(choices), (value) => eq(column, value));

/** A text value matched whole, ignoring case and surrounding spaces (a state, a city). */
export const exactTextFilter = (column: AnyColumn, maxLength = 255): ListFilter =>
  mapParam(textParam('Matched whole, ignoring case.', maxLength), (value) => {
    const text = value.trim();
    return text === '' ? undefined : sql`lower(${column}) = lower(${text})`;
  });

/** A calendar day (YYYY-MM-DD) the column must be on or after (`from`) or on or before (`to`). */
export const dateFilter = (column: AnyColumn, bound: 'from' | 'to'): ListFilter =>
  mapParam(dayParam(bound), (day) => (bound === 'from' ? gte(column, day) : lte(column, day)));

/**
 * Rows linked to a record through a link table, e.g. engagements of a therapeutic area:
 * `exists (select 1 from link where link.owner = row.id and link.target = value)`.
 */
export const linkedFilter = (link: { table: PgTable; owner: AnyColumn; target: AnyColumn }, rowId: AnyColumn, what: string): ListFilter =>
  mapParam(
    idParam(what),
    (id) => sql`exists (select 1 from ${link.table} where ${link.owner} = ${rowId} and ${link.target} = ${id})`,
    `Only rows linked to this ${what} (its id).`,
  );

/** The conditions the parsed values of `filters` select (a list's other filters are the caller's). */
export function filterConditions<F extends string>(values: { readonly [name: string]: unknown }, filters: ListFilters<F>): SQL[] {
  const out: SQL[] = [];
  for (const name of Object.keys(filters) as F[]) {
    const condition = values[name] as SQL | undefined;
    if (condition) out.push(condition);
  }
  return out;
}
