/**
 * List query parameters (page, limit, sort, include, fields and named filters), parsed against
 * each resource's whitelist. Anything not on the list is a 400, so no client text reaches SQL
 * as an identifier.
 */
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context';
import { badRequest } from './errors';
import { parseParams, type ParamValues, type QueryParam, type QueryParams } from './params';

export const PAGE_SIZES = [10, 20, 50, 100, 1000] as const;

/**
 * A list's query: its sorts, includes, sparse fields and named filters. `F` is the filters: a
 * record of typed parameters (server/http/params.ts: parsed here, typed in `ListQuery.filters`,
 * stated in the OpenAPI document from the same values), or, for a list not yet converted, the
 * names of filters its route reads as text.
 */
export interface ListSpec<S extends string = string, F extends string | QueryParams = string> {
  /** The JSON:API type, for `fields[type]=`. */
  type: string;
  sorts: readonly S[];
  defaultSort: string;
  defaultLimit?: number;
  includes?: readonly string[];
  filters?: [F] extends [string] ? readonly F[] : F;
  /** Attribute names that `fields` may select. */
  fields?: readonly string[];
}

/** Any list's description, as the OpenAPI document reads it. */
export type AnyListSpec = ListSpec<string, string> | ListSpec<string, QueryParams>;

/** A list's filters, by name: the parameter each is read with, if typed. */
export function listFilters(spec: Pick<AnyListSpec, 'filters'>): [string, QueryParam<unknown> | undefined][] {
  const filters = spec.filters;
  if (!filters) return [];
  if (isNameList(filters)) return filters.map((name) => [name, undefined]);
  return Object.entries(filters);
}

const isNameList = (filters: readonly string[] | QueryParams): filters is readonly string[] => Array.isArray(filters);

/** The values a list's filters read: typed, or text for a list whose filters are only names. */
export type FilterValues<F extends string | QueryParams> = [F] extends [string] ? Partial<Record<F, string>> : ParamValues<F>;

export interface SortTerm<S extends string> {
  field: S;
  desc: boolean;
}

export interface ListQuery<S extends string = string, F extends string | QueryParams = string> {
  page: number;
  limit: number;
  offset: number;
  sort: SortTerm<S>[];
  include: Set<string>;
  /** Selected attributes, or null for all. */
  fields: Set<string> | null;
  filters: FilterValues<F>;
}

const RESERVED = new Set(['page', 'limit', 'sort', 'include', 'fields']);

function positiveInt(value: string, name: string): number {
  if (!/^\d{1,9}$/.test(value) || Number(value) < 1) throw badRequest(`'${name}' must be a whole number of 1 or more.`, name);
  return Number(value);
}

function commaList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export function parseSort<S extends string>(raw: string, allowed: readonly S[]): SortTerm<S>[] {
  const terms = commaList(raw).map((term) => {
    const desc = term.startsWith('-');
    const field = desc ? term.slice(1) : term;
    if (!(allowed as readonly string[]).includes(field)) {
      throw badRequest(`Cannot sort by '${field}'. Sort by one of: ${allowed.join(', ')}.`, 'sort');
    }
    return { field: field as S, desc };
  });
  if (terms.length === 0) throw badRequest('sort must name at least one field.', 'sort');
  return terms;
}

export function parseListQuery<S extends string, F extends string | QueryParams>(params: URLSearchParams, spec: ListSpec<S, F>): ListQuery<S, F> {
  const text: Record<string, string> = {};
  let fields: Set<string> | null = null;
  const allowedFields = spec.fields ?? [];
  const filterNames = new Set(listFilters(spec as Pick<AnyListSpec, 'filters'>).map(([name]) => name));

  for (const key of new Set(params.keys())) {
    if (params.getAll(key).length > 1) throw badRequest(`'${key}' may be given only once.`, key);
    const value = params.get(key) ?? '';
    if (RESERVED.has(key)) continue;
    const fieldsMatch = /^fields\[([\w-]+)\]$/.exec(key);
    if (fieldsMatch) {
      if (fieldsMatch[1] !== spec.type) throw badRequest(`'${key}' names a type this list does not return.`, key);
      fields = parseFields(value, allowedFields, key);
      continue;
    }
    if (filterNames.has(key)) {
      text[key] = value;
      continue;
    }
    throw badRequest(`Unknown query parameter '${key}'.`, key);
  }
  const declared = spec.filters as readonly string[] | QueryParams | undefined;
  const filters = (declared && !isNameList(declared) ? parseParams(declared, (name) => text[name]) : text) as FilterValues<F>;

  const page = params.has('page') ? positiveInt(params.get('page') ?? '', 'page') : 1;
  let limit = spec.defaultLimit ?? 20;
  if (params.has('limit')) {
    limit = positiveInt(params.get('limit') ?? '', 'limit');
    if (!(PAGE_SIZES as readonly number[]).includes(limit)) {
      throw badRequest(`'limit' must be one of ${PAGE_SIZES.join(', ')}.`, 'limit');
    }
  }
  const sort = parseSort(params.get('sort') || spec.defaultSort, spec.sorts);
  const include = new Set(commaList(params.get('include') ?? ''));
  for (const name of include) {
    if (!(spec.includes ?? []).includes(name)) {
      const allowed = spec.includes?.length ? ` Include one of: ${spec.includes.join(', ')}.` : ' This resource has no includes.';
      throw badRequest(`Cannot include '${name}'.${allowed}`, 'include');
    }
  }
  if (params.has('fields')) fields = parseFields(params.get('fields') ?? '', allowedFields, 'fields');

  return { page, limit, offset: (page - 1) * limit, sort, include, fields, filters };
}

function parseFields(value: string, allowed: readonly string[], parameter: string): Set<string> {
  const names = commaList(value).filter((n) => n !== 'id');
  for (const name of names) {
    if (!allowed.includes(name)) throw badRequest(`Unknown field '${name}'. Choose from: ${allowed.join(', ')}.`, parameter);
  }
  return new Set(names);
}

/**
 * For routes whose whole list is one answer: only `allowed` parameters (a misspelt filter is a 400,
 * not ignored). `page` and `limit` are taken, as every list takes them, and checked; the answer is
 * the whole list whatever they say (a client paging through it stops at the first short page).
 */
export function assertQueryNames(params: URLSearchParams, allowed: readonly string[] = []): void {
  for (const [key, value] of params) {
    if (key === 'page' || key === 'limit') positiveInt(value, key);
    else if (!allowed.includes(key)) throw badRequest(`Unknown query parameter '${key}'.`, key);
  }
}

/** Parameters of a single-resource read (include and fields only). */
export function parseReadQuery(params: URLSearchParams, spec: Pick<AnyListSpec, 'type' | 'includes' | 'fields'>) {
  for (const key of params.keys()) {
    if (key !== 'include' && key !== 'fields' && key !== `fields[${spec.type}]`) {
      throw badRequest(`Unknown query parameter '${key}'.`, key);
    }
  }
  const q = parseListQuery(params, { type: spec.type, includes: spec.includes, fields: spec.fields, sorts: ['id'], defaultSort: 'id' });
  return { include: q.include, fields: q.fields };
}

/** A path id: a positive integer, else the resource does not exist. */
export function parseId(raw: string | undefined): number | null {
  if (!raw || !/^\d{1,9}$/.test(raw)) return null;
  const id = Number(raw);
  return id >= 1 && id <= 2_147_483_647 ? id : null;
}

/** An id a list filter names (`?screenerId=`): undefined when absent, else a 400 naming the parameter unless it is an id. */
export function idFilterValue(raw: string | undefined, name: string, what: string): number | undefined {
  if (raw === undefined) return undefined;
  const id = parseId(raw);
  if (id === null) throw badRequest(`'${name}' must be ${what}.`, name);
  return id;
}

const DAY_MS = 24 * 3600 * 1000;

/** A `from`/`to` filter: a date (a `to` date includes its whole day) or an ISO date-time; else a 400 naming it. */
export function instantFilterValue(value: string | undefined, name: 'from' | 'to'): Date | undefined {
  if (value === undefined || value === '') return undefined;
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const at = dateOnly ? Date.parse(`${value}T00:00:00Z`) : /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(at)) throw badRequest(`'${name}' must be a date (2026-01-31) or an ISO date-time.`, name);
  return new Date(dateOnly && name === 'to' ? at + DAY_MS : at);
}

/**
 * PostgreSQL text cannot hold NUL characters; one in a query string would fail deep in a
 * query. Refused here, for every /api route, with the parameter named.
 */
export const rejectNulInQuery = createMiddleware<AppEnv>(async (c, next) => {
  for (const [key, value] of new URL(c.req.url).searchParams) {
    if (key.includes('\0') || value.includes('\0')) throw badRequest(`'${key.replace(/\0/g, '')}' must not contain NUL characters.`, key.replace(/\0/g, ''));
  }
  await next();
});
