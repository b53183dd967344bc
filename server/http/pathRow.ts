/**
 * The row a route's path names by its id. An id that is not a positive integer names no row, so
 * it answers 404 like a missing (or out-of-scope) one, without a read.
 */
import type { Context } from 'hono';
import { notFound } from './errors';
import { parseId } from './query';

/** The path's id and the row `find` reads for it, or a 404 naming `what` when it finds none. */
export async function rowAtPath<R>(c: Context, what: string, find: (id: number) => Promise<R | null | undefined>): Promise<{ id: number; row: R }> {
  const id = parseId(c.req.param('id'));
  const row = id === null ? undefined : await find(id);
  if (!row || id === null) throw notFound(what);
  return { id, row };
}
