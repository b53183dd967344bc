/**
 * A route that answers its whole list at once: it declares the query every list takes
 * (WHOLE_LIST_QUERY, which its describe() checks before the handler runs) and answers every row
 * as the one page.
 */
import type { Context } from 'hono';
import type { Resource } from '@core/jsonapi';
import { sendList } from './serialize';

/** Every resource `read` gives, as one page of them all (a page holds one row at the least). */
export async function answerWholeList(c: Context, read: () => Promise<Resource[]>): Promise<Response> {
  const data = await read();
  return sendList(c, data, { total: data.length, page: 1, limit: Math.max(1, data.length) });
}
