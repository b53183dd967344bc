/**
 * A member read (`GET …/:id`) as one function, the reader, and the route handler built from it.
 * The handler answers what the reader returns; the audit trail (audit/middleware.ts) calls the
 * same reader for the old values of an update or a deletion, in the write's own transaction,
 * so what the GET answers and what the trail calls the resource before it changed are one read.
 * The reader is found from the app's route table, by the handler it built, under the route's
 * full path: nothing needs registering apart from the route.
 */
import type { Context } from 'hono';
import type { Resource } from '@core/jsonapi';
import type { AppEnv, AuthUser } from '../context';
import { parseReadQuery, type ReadSpec } from './query';
import { rowAtPath } from './pathRow';
import { sendResource } from './serialize';

/** What a member read is asked for: the related resources to include, the attributes to answer (null: all). */
export interface MemberQuery {
  readonly include: Set<string>;
  readonly fields: Set<string> | null;
}

/** The document a member read answers: the resource and the related ones it includes. */
export interface MemberDocument {
  readonly data: Resource;
  readonly included?: Resource[];
}

/**
 * The resource `id` as the API shows it to `user` (their scope: a sponsor they are assigned, a
 * referral at their sites), or null when there is none for them. Guards of role stay on the
 * route; a reader answers for anyone who reached it.
 */
export type MemberReader = (id: number, query: MemberQuery, user: AuthUser) => Promise<MemberDocument | null>;

/** A reader as the route table holds it: what it may include, and the read. */
export interface MemberRead {
  readonly includes: readonly string[];
  readonly read: MemberReader;
}

const NOTHING_ASKED: MemberQuery = { include: new Set(), fields: null };

const READS = new WeakMap<object, MemberRead>();

/**
 * The handler of a member read: the query checked against `spec` (a route without one takes no
 * query: describe() refuses any), the path's id, the reader's document, or a 404 naming `what`.
 */
export function memberRead(spec: ReadSpec | null, what: string, read: MemberReader) {
  const handler = async (c: Context<AppEnv>): Promise<Response> => {
    const query = spec ? parseReadQuery(new URL(c.req.url).searchParams, spec) : NOTHING_ASKED;
    const { row: doc } = await rowAtPath(c, what, (id) => read(id, query, c.get('user')));
    return sendResource(c, doc.data, 200, doc.included);
  };
  READS.set(handler, { includes: spec?.includes ?? [], read });
  return handler;
}

/** The member read a route-table handler is, if it is one (see memberRead). */
export const memberReadOf = (handler: unknown): MemberRead | undefined => (typeof handler === 'function' ? READS.get(handler) : undefined);

/** The common reader: the row `find` finds for the user, as `resource` makes it with the fields asked for. */
export const rowReader =
  <R>(find: (id: number, user: AuthUser) => Promise<R | null | undefined>, resource: (row: R, fields: Set<string> | null) => Resource): MemberReader =>
  async (id, q, user) => {
    const row = await find(id, user);
    return row ? { data: resource(row, q.fields) } : null;
  };

/**
 * A reader whose document takes more than the row (related rows, figures, what is included): the
 * row `find` finds in `db` for the user, made a document by `document` with the query asked.
 */
export const rowDocument =
  <D, R>(
    db: D,
    find: (db: D, id: number, user: AuthUser) => Promise<R | null | undefined>,
    document: (row: R, query: MemberQuery) => Promise<MemberDocument>,
  ): MemberReader =>
  async (id, q, user) => {
    const row = await find(db, id, user);
    return row ? document(row, q) : null;
  };
