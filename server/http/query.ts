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
 * A list's query: its sorts, includes, sparse fields and named filters. `F` is the filters, a
 * record of typed parameters (server/http/params.ts): parsed here, typed in `ListQuery.filters`,
 * stated in the OpenAPI document from the same values.
 */
export interface ListSpec<S extends string = string, F extends QueryParams = QueryParams> {
  /** The JSON:API type, for `fields[type]=`. */
  type: string;
  sorts: readonly S[];
  defaultSort: string;
  defaultLimit?: number;
  includes?: readonly string[];
  filters?: F;
  /** Attribute names that `fields` may select. */
  fields?: readonly string[];
}

export interface SortTerm<S extends string> {
  field: S;
  desc: boolean;
}

export interface ListQuery<S extends string = string, F extends QueryParams = QueryParams> {
  page: number;
  limit: number;
  offset: number;
  sort: SortTerm<S>[];
  include: Set<string>;
  /** Selected attributes, or null for all. */
  fields: Set<string> | null;
  filters: ParamValues<F>;
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

export function parseListQuery<S extends string, F extends QueryParams>(params: URLSearchParams, spec: ListSpec<S, F>): ListQuery<S, F> {
  const given: Record<string, string> = {};
  let fields: Set<string> | null = null;
  const allowedFields = spec.fields ?? [];
  const declared = (spec.filters ?? {}) as F;

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
    if (Object.hasOwn(declared, key)) {
      given[key] = value;
      continue;
    }
    throw badRequest(`Unknown query parameter '${key}'.`, key);
  }
  const filters = parseParams(declared, (name) => given[name]);

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
 * A query of names the route takes (`known`): any other is a 400 naming it, so a misspelt
 * parameter is never silently ignored.
 */
export function refuseUnknownQuery(params: URLSearchParams, known: readonly string[]): void {
  for (const key of new Set(params.keys())) {
    if (!known.includes(key)) {
      throw badRequest(`Unknown query parameter '${key}'.${known.length ? ` Use one of: ${known.join(', ')}.` : ' This route takes none.'}`, key);
    }
  }
}

/** A page or a page size: a whole number of 1 or more. */
const positiveIntParam = (description: string): QueryParam<number> => ({
  description,
  schema: { type: 'string', pattern: '^[1-9][0-9]{0,8}$' },
  parse: positiveInt,
});

/**
 * What a route answering its whole list at once takes as every list does, so a client that pages
 * any list can page this one: checked, and the whole list is one page whatever they say (a client
 * paging through it stops at the first short page).
 */
export const WHOLE_LIST_QUERY = {
  page: positiveIntParam('The page, from 1. The whole list is one page, whatever this says.'),
  limit: positiveIntParam('Rows a page. The whole list is one page, whatever this says.'),
} satisfies QueryParams;

/** The order of a list's rows, for a route that answers them whole (an export): as a list's `sort`. */
export const sortParam = <S extends string>(sorts: readonly S[], defaultSort: string): QueryParam<SortTerm<S>[]> => ({
  description: `Comma-separated fields, '-' before a field for descending; default '${defaultSort}'. Fields: ${sorts.join(', ')}.`,
  schema: { type: 'string' },
  parse: (value) => parseSort(value, sorts),
});

/**
 * A route's own query parameters (a list's are its ListSpec's): each declared one read once and
 * parsed, anything else a 400 naming it. The route's `describe({ query })` states the same record
 * in the OpenAPI document, so what is parsed and what is described cannot part.
 */
export function parseQuery<P extends QueryParams>(params: URLSearchParams, declared: P): ParamValues<P> {
  refuseUnknownQuery(params, Object.keys(declared));
  for (const key of new Set(params.keys())) {
    if (params.getAll(key).length > 1) throw badRequest(`'${key}' may be given only once.`, key);
  }
  return parseParams(declared, (name) => params.get(name) ?? undefined);
}

/** What a single resource's read takes: the related resources to include and the fields to answer. */
export type ReadSpec = Pick<ListSpec, 'type' | 'includes' | 'fields'>;

/** The query names a single resource's read takes. */
export const readParameters = (spec: ReadSpec): string[] => ['include', 'fields', `fields[${spec.type}]`];

/** Parameters of a single-resource read (include and fields only). */
export function parseReadQuery(params: URLSearchParams, spec: ReadSpec) {
  refuseUnknownQuery(params, readParameters(spec));
  const q = parseListQuery(params, { type: spec.type, includes: spec.includes, fields: spec.fields, sorts: ['id'], defaultSort: 'id' });
  return { include: q.include, fields: q.fields };
}

/** A path id: a positive integer, else the resource does not exist. */
export function parseId(raw: string | undefined): number | null {
  if (!raw || !/^\d{1,9}$/.test(raw)) return null;
  const id = Number(raw);
  return id >= 1 && id <= 2_147_483_647 ? id : null;
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
