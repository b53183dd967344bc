/**
 * A list route's answer from its list function: the route parses, scopes and authorizes once,
 * then hands `answerList` a function that reads one window of the list as resources. A JSON:API
 * client gets the page it asked for by offset, with the total; a client that prefers CSV gets
 * every page, read through the same function a thousand rows at a time (Deps.csvReadPage) without counting,
 * streamed as it takes them (csvLists.ts). Those pages are read by keyset: each continues after
 * the previous page's last row in the list's own order (http/list.ts Keyset, http/sql.ts
 * seekAfter), so a row inserted or deleted elsewhere in the order while the file is written
 * neither repeats a row nor skips one, and no page skips the rows before it. Every list read
 * through tablePage or joinedPage seeks; the three that page themselves leave no place to seek
 * from and are read by offset: referral reasons (a short lookup list), site performance (sorted
 * by figures it aggregates per site) and question types (a fixed list in memory).
 */
import type { Context } from 'hono';
import type { Resource } from '@core/jsonapi';
import type { AppEnv } from '../context';
import { streamListCsv } from './csvLists';
import type { Keyset } from './list';
import { parseListQuery, type ListQuery, type ListSpec } from './query';
import type { QueryParams } from './params';
import { sendList } from './serialize';

/** Which rows to read: `limit` from `offset`, and whether to count every row the list matches. */
export interface ListWindow {
  limit: number;
  offset: number;
  /** False for the pages of a CSV, which carry no total. */
  count: boolean;
  /** For the pages of a CSV: where the page starts, and where the next one will (http/list.ts). */
  keyset?: Keyset;
}

export interface ListPage {
  data: Resource[];
  included?: Resource[];
  /** Every row the list matches; null when the window did not ask for the count. */
  total: number | null;
}

/** A list route's list function: one window of the list, under the filters, sort and scope its route parsed. */
export type ListFunction = (window: ListWindow) => Promise<ListPage>;

export async function answerList(c: Context<AppEnv>, q: Pick<ListQuery, 'page' | 'limit' | 'offset'>, list: ListFunction): Promise<Response> {
  const csv = c.var.listCsv;
  if (csv) {
    const keyset: Keyset = {};
    let offset = 0;
    const read = async () => {
      const page = await list({ limit: csv.readPage, offset, count: false, keyset });
      // After a list that sought, from its last row; after one that did not, by offset.
      keyset.after = keyset.next;
      keyset.next = undefined;
      offset += csv.readPage;
      return page;
    };
    return streamListCsv(c, csv, await read(), read);
  }
  const { data, included, total } = await list({ limit: q.limit, offset: q.offset, count: true });
  if (total === null) throw new Error(`${c.req.path}: a counted page came back without its total`);
  return sendList(c, data, { total, page: q.page, limit: q.limit }, included);
}

/** One window of a list's rows under its query, and every row the list matches (null uncounted). */
export type RowPage<S extends string, F extends QueryParams, R> = (q: ListQuery<S, F> & ListWindow) => Promise<{ rows: readonly R[]; total: number | null }>;

/**
 * The common list route: the query parsed against `spec`, each window read by `page` under it,
 * and each row the resource `resource` makes of it with the sparse fields the query asked for.
 */
export async function answerRows<S extends string, F extends QueryParams, R>(
  c: Context<AppEnv>,
  spec: ListSpec<S, F>,
  page: RowPage<S, F, R>,
  resource: (row: R, fields: Set<string> | null) => Resource,
): Promise<Response> {
  const q = parseListQuery(new URL(c.req.url).searchParams, spec);
  return answerList(c, q, async (window) => {
    const { rows, total } = await page({ ...q, ...window });
    return { data: rows.map((row) => resource(row, q.fields)), total };
  });
}
