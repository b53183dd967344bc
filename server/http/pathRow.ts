/**
 * The row a route's path names by its id. An id that is not a positive integer names no row, so
 * it answers 404 like a missing (or out-of-scope) one, without a read.
 */
import type { Context } from 'hono';
import type { Resource } from '@core/jsonapi';
import { notFound } from './errors';
import { parseId, parseReadQuery, type ListSpec } from './query';
import { sendResource } from './serialize';

/** The path's id and the row `find` reads for it, or a 404 naming `what` when it finds none. */
export async function rowAtPath<R>(c: Context, what: string, find: (id: number) => Promise<R | null | undefined>): Promise<{ id: number; row: R }> {
  const id = parseId(c.req.param('id'));
  const row = id === null ? undefined : await find(id);
  if (!row || id === null) throw notFound(what);
  return { id, row };
}

/** The common read route: the query checked against `spec`, the row at the path (rowAtPath), sent as `resource` makes it with the fields asked for. */
export async function answerFound<R>(
  c: Context,
  spec: Pick<ListSpec, 'type' | 'includes' | 'fields'>,
  what: string,
  find: (id: number) => Promise<R | null | undefined>,
  resource: (row: R, fields: Set<string> | null) => Resource,
): Promise<Response> {
  const q = parseReadQuery(new URL(c.req.url).searchParams, spec);
  const { row } = await rowAtPath(c, what, find);
  return sendResource(c, resource(row, q.fields));
}
