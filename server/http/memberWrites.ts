/**
 * The handlers of the common writes of a member resource, each answering the member as its
 * member read shows it afterwards (memberRead.ts): a create under the parent its attributes name
 * (an unknown one is refused at that attribute, 422), and an update or a deletion of the row at
 * the path (404 naming the member when the user has none of that id; pathRow.ts). The route
 * declares the body (server/openapi/describe.ts); the handler reads it after its own 404.
 */
import type { Context } from 'hono';
import type { Resource } from '@core/jsonapi';
import type { AppEnv, AuthUser } from '../context';
import { requireParent, type ResourceBodyReader } from './body';
import { notFound } from './errors';
import { rowReader, type MemberQuery, type MemberReader } from './memberRead';
import { rowAtPath } from './pathRow';
import { sendResource } from './serialize';

/** A handler's context under a route that declares a JSON:API resource body with these attributes. */
type BodyContext<T> = Context<AppEnv & { Variables: { body: ResourceBodyReader<T> } }>;

/** A member as its writes find it (the row at the path, in the user's scope) and answer it. */
export interface WrittenMember<Found> {
  /** The member's name in a 404: 'page', 'survey message'. */
  readonly what: string;
  readonly find: (id: number, user: AuthUser) => Promise<Found | null | undefined>;
  /** The member as its read answers it (the reader of its GET, when it has one). */
  readonly read: MemberReader;
}

/** A member whose read is the row its find answers, as `resource` makes it. */
export const rowMember = <R>(
  what: string,
  find: (id: number, user: AuthUser) => Promise<R | undefined>,
  resource: (row: R, fields: Set<string> | null) => Resource,
): WrittenMember<R> => ({ what, find, read: rowReader(find, resource) });

/** The parent a create's attributes name by its id under `key`, and the refusal when the user has none. */
export interface NamedParent<K extends string, Parent> {
  readonly key: K;
  readonly find: (id: number, user: AuthUser) => Promise<Parent | undefined>;
  readonly unknown: string;
}

/** A write answers the member whole: nothing included, every attribute. */
const WHOLE: MemberQuery = { include: new Set(), fields: null };

async function sendMember(c: Context, member: WrittenMember<unknown>, id: number, user: AuthUser, status: 200 | 201) {
  const doc = await member.read(id, WHOLE, user);
  if (!doc) throw notFound(member.what);
  return sendResource(c, doc.data, status, doc.included);
}

/** A create under the parent the attributes name: `create` answers the new member's id; answered 201. */
export const createUnder =
  <K extends string, Input extends Record<K, number>, Parent>(
    member: WrittenMember<unknown>,
    parent: NamedParent<K, Parent>,
    create: (parent: Parent, attributes: Input, user: AuthUser) => Promise<number>,
  ) =>
  async (c: BodyContext<Input>) => {
    const user = c.get('user');
    const { attributes } = await c.var.body.read();
    const found = await requireParent(parent.find(attributes[parent.key], user), parent.key, parent.unknown);
    return sendMember(c, member, await create(found, attributes, user), user, 201);
  };

/** An update of the member at the path, its body's id checked against the path's. */
export const updateAtPath =
  <Found, Patch>(member: WrittenMember<Found>, update: (found: Found, attributes: Patch, user: AuthUser) => Promise<unknown>) =>
  async (c: BodyContext<Patch>) => {
    const user = c.get('user');
    const { id, row } = await rowAtPath(c, member.what, (id) => member.find(id, user));
    const { attributes } = await c.var.body.read({ id });
    await update(row, attributes, user);
    return sendMember(c, member, id, user, 200);
  };

/** A deletion of the member at the path: 204. */
export const deleteAtPath =
  <Found>(member: Pick<WrittenMember<Found>, 'what' | 'find'>, remove: (found: Found) => Promise<unknown>) =>
  async (c: Context<AppEnv>) => {
    const { row } = await rowAtPath(c, member.what, (id) => member.find(id, c.get('user')));
    await remove(row);
    return c.body(null, 204);
  };
