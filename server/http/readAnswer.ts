/**
 * A read route's answer: the one resource at the path's id, with the sparse fields its query
 * asked for. An id that is not a positive integer names no row, so it answers 404 like a
 * missing one, without a read.
 */
import type { Context } from 'hono';
import type { Resource } from '@core/jsonapi';
import { notFound } from './errors';
import { parseId, parseReadQuery, type ListSpec } from './query';
import { sendResource } from './serialize';

/** The common read route: the query checked against `spec`, the row `find` reads (404 naming `what` when none), sent as `resource` makes it. */
export async function answerFound<R>(
  c: Context,
  spec: Pick<ListSpec, 'type' | 'includes' | 'fields'>,
  what: string,
  find: (id: number) => Promise<R | undefined>,
  resource: (row: R, fields: Set<string> | null) => Resource,
): Promise<Response> {
  const q = parseReadQuery(new URL(c.req.url).searchParams, spec);
  const id = parseId(c.req.param('id'));
  const row = id === null ? undefined : await find(id);
  if (!row) throw notFound(what);
  return sendResource(c, resource(row, q.fields));
}
