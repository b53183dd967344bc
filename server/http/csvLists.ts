/**
 * Every list as CSV, served by the list route itself: a GET under /api whose `Accept` prefers
 * `text/csv` runs the route as usual (its scope, filters, sort and 400s apply unchanged, once),
 * and the route's list function (listAnswer.ts) is then read a thousand rows at a time, each
 * page continuing after the last row of the one before (by keyset, not offset: a write elsewhere
 * in the list meanwhile neither repeats nor skips a row), and streamed as CSV as the client
 * takes it: `id` first, then the attributes named by `fields` (the columns the screen shows) or
 * else all of the first page's, then the relationships its rows carry (`include`), by the
 * related records' names. A list whose whole is one JSON answer is written from that answer.
 * Cells are formula-escaped (csv.ts) and each export is an `export` event in the audit trail,
 * recorded when the file's last row is written.
 */
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { JSON_API_MEDIA_TYPE, type DataDocument, type Relationship, type Resource, type ResourceIdentifier } from '@core/jsonapi';
import { nowOf, type AppEnv, type Deps } from '../context';
import { csvRow } from './csv';
import { notAcceptable } from './errors';

const CSV_MEDIA_TYPE = 'text/csv';
/** The page size the whole list is read in (the largest the list routes take), unless Deps.csvReadPage says. */
export const CSV_READ_PAGE = 1000;

/** True when `accept` names text/csv and ranks no JSON type above it. */
function prefersCsv(accept: string | undefined): boolean {
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
  if (named !== null)
    return [
      ...new Set(
        named
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '' && s !== 'id'),
      ),
    ];
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

/** A file's columns: `id`, the attribute columns, then one per relationship the rows carry (the list's includes). */
interface CsvColumns {
  attributes: string[];
  relationships: string[];
}

function csvColumns(params: URLSearchParams, rows: readonly Resource[]): CsvColumns {
  const attributes = attributeColumns(params, rows);
  const relationships = [...new Set(rows.flatMap((row) => Object.keys(row.relationships ?? {})))].filter((name) => !attributes.includes(name));
  return { attributes, relationships };
}

const headerLine = (columns: CsvColumns) => `${csvRow(['id', ...columns.attributes, ...columns.relationships])}\r\n`;

/** The lines of `rows`, each ending in CRLF; relationships are named from `included`. */
function csvLines(columns: CsvColumns, rows: readonly Resource[], included: readonly Resource[]): string {
  const byKey = new Map(included.map((r) => [`${r.type}:${r.id}`, r]));
  let text = '';
  for (const row of rows) {
    text += `${csvRow([
      row.id,
      ...columns.attributes.map((name) => cellValue(row.attributes?.[name])),
      ...columns.relationships.map((name) => relatedValue(row.relationships?.[name]?.data, byKey)),
    ])}\r\n`;
  }
  return text;
}

/** A whole list as one CSV text. */
export function listCsv(params: URLSearchParams, rows: readonly Resource[], included: readonly Resource[] = []): string {
  const columns = csvColumns(params, rows);
  return headerLine(columns) + csvLines(columns, rows, included);
}

/** One page of a list as its list function reads it. */
interface CsvPage {
  data: Resource[];
  included?: Resource[];
}

/**
 * The CSV answer of a list read in pages of `readPage` rows: the header and `first` (read already,
 * so that its errors are the route's answer) at once, then page after page (`readNext`, each after
 * the one before) as the client takes them, until a page comes back short. The export is noted for the
 * audit trail with the rows written, known when the stream settles (audit/middleware.ts writes
 * the event before the body ends).
 */
export function streamListCsv(
  c: Context<AppEnv>,
  { at, readPage }: { at: Date; readPage: number },
  first: CsvPage,
  readNext: () => Promise<CsvPage>,
): Response {
  const url = new URL(c.req.url);
  const columns = csvColumns(url.searchParams, first.data);
  const encoder = new TextEncoder();
  let next: CsvPage | null = first;
  let rows = 0;
  let settle: (meta: Record<string, unknown>) => void = () => {};
  const settled = new Promise<Record<string, unknown>>((resolve) => (settle = resolve));
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(headerLine(columns)));
    },
    async pull(controller) {
      try {
        const page: CsvPage = next ?? (await readNext());
        next = null;
        controller.enqueue(encoder.encode(csvLines(columns, page.data, page.included ?? [])));
        rows += page.data.length;
        if (page.data.length < readPage) {
          settle({ rows, complete: true });
          controller.close();
        }
      } catch (error) {
        // A page that fails part-way leaves a cut file: it is recorded as such, and the body errs.
        settle({ rows, complete: false });
        controller.error(error);
      }
    },
    cancel() {
      settle({ rows, complete: false });
    },
  });
  noteExport(c, url, { format: 'csv' }, settled);
  return csvResponse(url, at, body);
}

/** The export event of `url`'s list: which list, the filters asked (paging aside), and `meta`. */
function noteExport(c: Context<AppEnv>, url: URL, meta: Record<string, unknown>, settled?: Promise<Record<string, unknown>>) {
  const query = Object.fromEntries([...url.searchParams].filter(([key]) => key !== 'page' && key !== 'limit'));
  c.set('audit', { entity: resourceOf(url), entityId: null, action: 'export', meta: { ...meta, query }, settled });
}

const resourceOf = (url: URL) => url.pathname.replace(/^\/api\//, '').replace(/\/+$/, '');

function csvResponse(url: URL, at: Date, body: BodyInit): Response {
  return new Response(body, {
    status: 200,
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      Vary: 'Accept',
      'Content-Disposition': `attachment; filename="${resourceOf(url).split('/').pop() ?? 'list'}-${at.toISOString().slice(0, 10)}.csv"`,
    },
  });
}

const isJsonApi = (res: Response) => (res.headers.get('content-type') ?? '').startsWith(JSON_API_MEDIA_TYPE);

/**
 * Asks the list routes for CSV (`c.var.listCsv`) when the client prefers it. A list read in
 * pages answers CSV itself (listAnswer.ts); a list whose whole is one JSON:API answer is
 * written from that answer here; a single record is not a list (406).
 */
export const csvLists = (deps: Pick<Deps, 'clock' | 'csvReadPage'>) =>
  createMiddleware<AppEnv>(async (c, next) => {
    if (c.req.method !== 'GET' || !prefersCsv(c.req.header('accept'))) return next();
    const at = nowOf(deps);
    c.set('listCsv', { at, readPage: deps.csvReadPage ?? CSV_READ_PAGE });
    await next();
    // Errors (a bad filter's 400, a 403) and answers that are not JSON:API (files, the CSV a
    // list streams) go out as the route made them.
    if (!c.res.ok || !isJsonApi(c.res)) return;
    const answer = (await c.res.clone().json()) as DataDocument;
    if (!Array.isArray(answer.data)) throw notAcceptable('CSV is available for lists; this is a single record. Ask for application/vnd.api+json.');
    const total = answer.meta?.total;
    if (typeof total === 'number' && answer.data.length < total) {
      throw new Error(`${c.req.path} answered a page of its list: a list read in pages answers through answerList (http/listAnswer.ts)`);
    }
    const url = new URL(c.req.url);
    noteExport(c, url, { format: 'csv', rows: answer.data.length });
    c.res = csvResponse(url, at, listCsv(url.searchParams, answer.data, answer.included ?? []));
  });
