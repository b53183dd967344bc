/**
 * A route that answers its whole list at once: it declares the query every list takes
 * (WHOLE_LIST_QUERY, which its describe() checks before the handler runs) and answers every row
 * as the one page.
 */
import type { Context } from 'hono';
import type { Resource } from '@core/jsonapi';
import type { ResourceAnswer } from '@core/model/answers';
import type { QueryParams } from './params';
import { WHOLE_LIST_QUERY } from './query';
import { sendList } from './serialize';

/**
 * A whole list's read, as its describe() declares it: `answer`'s resources, and the query every
 * list takes beside the route's own parameters (the owner the list is of), stated once so no
 * whole list leaves it out.
 */
export function wholeListRead<A extends ResourceAnswer>(summary: string, answer: A): { summary: string; query: typeof WHOLE_LIST_QUERY; answer: { list: A } };
export function wholeListRead<A extends ResourceAnswer, Q extends QueryParams>(
  summary: string,
  answer: A,
  query: Q,
): { summary: string; query: typeof WHOLE_LIST_QUERY & Q; answer: { list: A } };
export function wholeListRead(summary: string, answer: ResourceAnswer, query: QueryParams = {}) {
  return { summary, query: { ...WHOLE_LIST_QUERY, ...query }, answer: { list: answer } };
}

/** Every resource of `data`, as one page of them all (a page holds one row at the least). */
export const sendWholeList = (c: Context, data: Resource[]): Response => sendList(c, data, { total: data.length, page: 1, limit: Math.max(1, data.length) });

/** Every resource `read` gives, as one page of them all. */
export async function answerWholeList(c: Context, read: () => Promise<Resource[]>): Promise<Response> {
  return sendWholeList(c, await read());
}
