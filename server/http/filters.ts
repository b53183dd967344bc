/**
 * Named list filters, declared once per list: each query parameter maps to a condition, and a
 * value the filter cannot read is a 400 naming the parameter (never passed to SQL). An empty
 * value is no filter, as the admin leaves a cleared filter out.
 *
 *   const FILTERS = { isActive: booleanFilter(sponsors.isActive), sponsorId: idFilter(engagements.sponsorId, 'sponsor') };
 *   conditions.push(...filterConditions(q.filters, FILTERS));
 */
import { eq, gte, lte, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { isIsoDate } from '@core/validation/isoDate';
import { badRequest } from './errors';
import { parseId } from './query';
import { parseBooleanFilter } from './sql';

/** A filter: the condition a non-empty value selects, or a thrown 400; `schema` says what it reads, for the API's description. */
export type ListFilter = ((value: string, name: string) => SQL | undefined) & { schema?: FilterSchema };

/** What a filter reads, as JSON Schema with a description (the OpenAPI document's parameter). */
export interface FilterSchema {
  readonly description: string;
  readonly schema: Readonly<Record<string, unknown>>;
}

const described = (filter: (value: string, name: string) => SQL | undefined, schema: FilterSchema): ListFilter => Object.assign(filter, { schema });
const ID_SCHEMA = { type: 'string', pattern: '^[1-9][0-9]*$' };

export type ListFilters<F extends string = string> = Readonly<Record<F, ListFilter>>;

/** `true` or `false` (also 1 and 0). */
export const booleanFilter = (column: AnyColumn): ListFilter =>
  described(
    (value, name) => {
      const flag = parseBooleanFilter(value, name);
      return flag === undefined ? undefined : eq(column, flag);
    },
    { description: 'true or false (also 1 or 0).', schema: { type: 'string', enum: ['true', 'false', '1', '0'] } },
  );

/** The id of a related record, e.g. `sponsorId`; `what` names it in the message. */
export const idFilter = (column: AnyColumn, what: string): ListFilter =>
  described(
    (value, name) => {
      const id = parseId(value);
      if (id === null) throw badRequest(`'${name}' must be a ${what} id.`, name);
      return eq(column, id);
    },
    { description: `Only rows of this ${what} (its id).`, schema: ID_SCHEMA },
  );

/** One of a fixed list of values, e.g. an engagement's phase. */
export const choiceFilter = (column: AnyColumn, choices: readonly string[]): ListFilter =>
  described(
    (value, name) => {
      if (!choices.includes(value)) throw badRequest(`'${name}' must be one of: ${choices.join(', ')}.`, name);
      return eq(column, value);
    },
    { description: 'One of the listed values.', schema: { type: 'string', enum: [...choices] } },
  );

/** A text value matched whole, ignoring case and surrounding spaces (a state, a city). */
export const exactTextFilter = (column: AnyColumn, maxLength = 255): ListFilter =>
  described(
    (value, name) => {
      const text = value.trim();
      if (text.length > maxLength) throw badRequest(`'${name}' must be at most ${maxLength} characters.`, name);
      return text === '' ? undefined : sql`lower(${column}) = lower(${text})`;
    },
    { description: 'Matched whole, ignoring case.', schema: { type: 'string', maxLength } },
  );

/** A calendar day (YYYY-MM-DD) the column must be on or after (`from`) or on or before (`to`). */
export const dateFilter = (column: AnyColumn, bound: 'from' | 'to'): ListFilter =>
  described(
    (value, name) => {
      if (!isIsoDate(value)) throw badRequest(`'${name}' must be a date such as 2026-11-22.`, name);
      return bound === 'from' ? gte(column, value) : lte(column, value);
    },
    { description: `A day (YYYY-MM-DD), ${bound === 'from' ? 'on or after' : 'on or before'}.`, schema: { type: 'string', format: 'date' } },
  );

/**
 * Rows linked to a record through a link table, e.g. engagements of a therapeutic area:
 * `exists (select 1 from link where link.owner = row.id and link.target = value)`.
 */
export const linkedFilter = (link: { table: PgTable; owner: AnyColumn; target: AnyColumn }, rowId: AnyColumn, what: string): ListFilter =>
  described(
    (value, name) => {
      const id = parseId(value);
      if (id === null) throw badRequest(`'${name}' must be a ${what} id.`, name);
      return sql`exists (select 1 from ${link.table} where ${link.owner} = ${rowId} and ${link.target} = ${id})`;
    },
    { description: `Only rows linked to this ${what} (its id).`, schema: ID_SCHEMA },
  );

/** The conditions of the filters given a value; parameters this list does not filter by are left to the caller. */
export function filterConditions<F extends string>(values: Partial<Record<string, string>>, filters: ListFilters<F>): SQL[] {
  const out: SQL[] = [];
  for (const [name, filter] of Object.entries(filters) as [F, ListFilter][]) {
    const value = values[name];
    if (value === undefined || value === '') continue;
    const condition = filter(value, name);
    if (condition) out.push(condition);
  }
  return out;
}

/** The parameter names of `filters`, for a ListSpec's `filters`. */
export const filterNames = <F extends string>(filters: ListFilters<F>) => Object.keys(filters) as F[];

/** What each of `filters` reads, for a ListSpec's `filterSchemas` (the OpenAPI document's parameters). */
export const filterSchemas = <F extends string>(filters: ListFilters<F>): Partial<Record<F, FilterSchema>> =>
  Object.fromEntries(Object.entries(filters as Record<string, ListFilter>).flatMap(([name, filter]) => (filter.schema ? [[name, filter.schema]] : []))) as Partial<Record<F, FilterSchema>>;
