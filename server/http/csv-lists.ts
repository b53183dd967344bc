/**
 * Every list as CSV, served by the list route itself: a GET under /api whose `Accept` prefers
 * `text/csv` runs the route as usual (its scope, filters, sort and 400s apply unchanged), and
 * when the answer is a JSON:API list, the whole list — every page, read from the same route a
 * thousand rows at a time — is answered as CSV instead: `id` first, then the attributes named
 * by `fields` (the columns the screen shows) or else all of them, then the relationships the
 * rows carry (`include`), by the related records' names. Cells are formula-escaped
 * (csv.ts) and each export is an `export` event in the audit trail.
 */
import type { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import {
  JSON_API_MEDIA_TYPE,
  isErrorDocument,
  type DataDocument,
  type Relationship,
  type Resource,
  type ResourceIdentifier,
} from '@core/jsonapi';
import { nowOf, type AppEnv, type Deps } from '../context';
import { csvRow } from './csv';
import { notAcceptable } from './errors';

export const CSV_MEDIA_TYPE = 'text/csv';
/** The page size the whole list is read in (the largest the list routes take). */
export const CSV_READ_PAGE = 1000;

/** True when `accept` names text/csv and ranks no JSON type above it. */
export function prefersCsv(accept: string | undefined): boolean {
  if (!accept) return false;
  let csv = 0;
  let json = 0;
  for (const part of accept.split(',')) {
    const [type = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q)) continue;
    if (type === CSV_MEDIA_TYPE) csv = Math.max(csv, q);
    else if (type === JSON_API_MEDIA_TYPE || type === 'application/json') json = Math.max(json, q);
  }
  return csv > 0 && csv >= json;
}

/** How a value reads in a cell: lists joined (names of named records), maps as `key: value` pairs, nested objects as JSON. */
function cellValue(value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value)
      .map(([key, item]) => `${key}: ${item !== null && typeof item === 'object' ? JSON.stringify(item) : String(item ?? '')}`)
      .join('; ');
  }
  if (!Array.isArray(value)) return value;
  return value
    .map((item: unknown) => {
      if (item && typeof item === 'object') {
        const named = item as { name?: unknown; title?: unknown };
        if (typeof named.name === 'string') return named.name;
        if (typeof named.title === 'string') return named.title;
        return JSON.stringify(item);
      }
      return String(item);
    })
    .join('; ');
}

/** The attribute columns: those `fields` names, in its order, else every attribute the rows have. */
function attributeColumns(params: URLSearchParams, rows: readonly Resource[]): string[] {
  const type = rows[0]?.type;
  const named = params.get('fields') ?? (type ? params.get(`fields[${type}]`) : null);
  if (named !== null) return [...new Set(named.split(',').map((s) => s.trim()).filter((s) => s !== '' && s !== 'id'))];
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row.attributes ?? {})) seen.add(key);
  return [...seen];
}

/** A relationship's cell: the related records' names where they were included, else their ids. */
function relatedValue(data: Relationship['data'] | undefined, included: ReadonlyMap<string, Resource>): string {
  const name = (ref: ResourceIdentifier) => {
    const attributes = included.get(`${ref.type}:${ref.id}`)?.attributes;
    const label = attributes?.name ?? attributes?.title;
    return typeof label === 'string' ? label : ref.id;
  };
  if (!data) return '';
  return Array.isArray(data) ? data.map(name).join('; ') : name(data);
}

/** `id`, the attribute columns, then one column per relationship the rows carry (the list's includes). */
export function listCsv(params: URLSearchParams, rows: readonly Resource[], included: readonly Resource[] = []): string {
  const columns = attributeColumns(params, rows);
  const relationships = [...new Set(rows.flatMap((row) => Object.keys(row.relationships ?? {})))].filter((name) => !columns.includes(name));
  const byKey = new Map(included.map((r) => [`${r.type}:${r.id}`, r]));
  const lines = [csvRow(['id', ...columns, ...relationships])];
  for (const row of rows) {
    lines.push(
      csvRow([
        row.id,
        ...columns.map((name) => cellValue(row.attributes?.[name])),
        ...relationships.map((name) => relatedValue(row.relationships?.[name]?.data, byKey)),
      ]),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

const isJsonApi = (res: Response) => (res.headers.get('content-type') ?? '').startsWith(JSON_API_MEDIA_TYPE);

export const csvLists = (deps: Pick<Deps, 'clock'>, app: () => Hono<AppEnv>) =>
  createMiddleware<AppEnv>(async (c, next) => {
    if (c.req.method !== 'GET' || !prefersCsv(c.req.header('accept'))) return next();
    await next();
    // Errors (a bad filter's 400, a 403) and answers that are not JSON:API (files, CSV a route
    // makes itself) go out as the route made them.
    if (!c.res.ok || !isJsonApi(c.res)) return;
    const answer = (await c.res.clone().json()) as DataDocument;
    if (!Array.isArray(answer.data)) throw notAcceptable('CSV is available for lists; this is a single record. Ask for application/vnd.api+json.');

    const url = new URL(c.req.url);
    const params = new URL(c.req.url).searchParams;
    const total = typeof answer.meta?.total === 'number' ? answer.meta.total : undefined;
    let rows: Resource[] = answer.data;
    let included: Resource[] = answer.included ?? [];
    const whole = total === undefined || (!params.has('page') && answer.data.length >= total);
    if (!whole) {
      rows = [];
      included = [];
      const headers: Record<string, string> = { Accept: JSON_API_MEDIA_TYPE, 'X-Request-Id': c.var.requestId };
      for (const name of ['authorization', 'accept-language']) {
        const value = c.req.header(name);
        if (value) headers[name] = value;
      }
      const pages = Math.ceil(total / CSV_READ_PAGE) + 1;
      for (let page = 1; page <= pages; page++) {
        const query = new URLSearchParams(params);
        query.set('page', String(page));
        query.set('limit', String(CSV_READ_PAGE));
        const res = await app().request(`${url.pathname}?${query}`, { headers });
        const doc = (await res.json()) as unknown;
        if (!res.ok || isErrorDocument(doc)) {
          c.res = new Response(JSON.stringify(doc), { status: res.status, headers: { 'Content-Type': JSON_API_MEDIA_TYPE } });
          return;
        }
        const { data, included: more = [] } = doc as DataDocument<Resource[]>;
        rows.push(...data);
        included.push(...more);
        if (data.length < CSV_READ_PAGE) break;
      }
    }

    const resource = url.pathname.replace(/^\/api\//, '').replace(/\/+$/, '');
    const query = Object.fromEntries([...params].filter(([key]) => key !== 'page' && key !== 'limit'));
    c.set('audit', { entity: resource, entityId: null, action: 'export', meta: { format: 'csv', rows: rows.length, query } });
    const day = nowOf(deps).toISOString().slice(0, 10);
    c.res = new Response(listCsv(params, rows, included), {
      status: 200,
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        Vary: 'Accept',
        'Content-Disposition': `attachment; filename="${resource.split('/').pop() ?? 'list'}-${day}.csv"`,
      },
    });
  });
