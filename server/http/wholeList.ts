/**
 * A route that answers its whole list at once: it takes the query every list takes
 * (WHOLE_LIST_QUERY), checked before anything is read, and answers every row as the one page.
 */
import type { Context } from 'hono';
import type { Resource } from '@core/jsonapi';
import { parseQuery, WHOLE_LIST_QUERY } from './query';
import { sendList } from './serialize';

/** The query checked, then every resource `read` gives, as one page of them all (a page holds one row at the least). */
export async function answerWholeList(c: Context, read: () => Promise<Resource[]>): Promise<Response> {
  parseQuery(new URL(c.req.url).searchParams, WHOLE_LIST_QUERY);
  const data = await read();
  return sendList(c, data, { total: data.length, page: 1, limit: Math.max(1, data.length) });
}
