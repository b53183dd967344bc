/**
 * Records every successful write by signed-in staff under /api, in one place for every route:
 * for an update or a deletion it first reads the resource as the API shows it, in the write's own
 * transaction, so the event carries the changed fields with their old and new values. It reads
 * with the reader of the resource's `GET …/:id` route (http/memberRead.ts), found in the route
 * table by the member's path and called directly as the writer once authentication knows them
 * (`authenticated` on the context): no request goes through the app again, and what the GET
 * answers and what the trail calls old are one read. Sign-ins are recorded by the auth
 * routes themselves. A route that sets `c.set('audit', note)` is recorded as that note instead:
 * exports (GET reads, recorded only this way) and actions whose answer must not be copied.
 */
import type { Context, Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { nowOf, type AppEnv, type AuthUser, type Deps } from '../context';
import { sql } from 'drizzle-orm';
import { clientAddress } from '../http/clientAddress';
import { ApiProblem } from '../http/errors';
import { memberReadOf, type MemberDocument, type MemberRead } from '../http/memberRead';
import { parseId } from '../http/query';
import type { TransactionScope } from '../db/transactionScope';
import { changedFields, credentialChanges, recordAudit } from './trail';

const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
// A collection and a member, one or more path segments deep: /api/sponsors/7, /api/o-forms/o-forms/7.
const RESOURCE = /^\/api\/((?:[\w-]+\/)*[\w-]+)\/?$/;
const MEMBER = /^\/api\/((?:[\w-]+\/)*[\w-]+)\/(\d+)\/?$/;

/** A member read of the API (`GET …/:id`, http/memberRead.ts) and the paths it answers. */
interface Readable {
  readonly path: RegExp;
  readonly read: MemberRead;
}

/**
 * The member reads in the app's route table. Old values are read only through these: a write to
 * anything else (a link, an action) has no resource the API shows to compare with.
 */
function memberReads(app: Hono<AppEnv>): Readable[] {
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return app.routes.flatMap((r) => {
    const read = r.method === 'GET' ? memberReadOf(r.handler) : undefined;
    if (!read) return [];
    const path = new RegExp(
      `^${r.path
        .split(/:\w+(?:\{[^}]*\})?/)
        .map(literal)
        .join('[^/]+')}$`,
    );
    return [{ path, read }];
  });
}

type Attributes = Record<string, unknown>;

function attributesOf(doc: unknown): { id: string | null; attributes: Attributes | null } {
  const data = (doc as { data?: { id?: unknown; attributes?: unknown } } | null)?.data;
  if (!data || typeof data !== 'object' || Array.isArray(data)) return { id: null, attributes: null };
  const attributes = data.attributes && typeof data.attributes === 'object' ? (data.attributes as Attributes) : null;
  return { id: typeof data.id === 'string' ? data.id : null, attributes };
}

/** The relationship names a request document sets (`data.relationships`'s keys). */
function relationshipsSent(doc: unknown): string[] {
  const relationships = (doc as { data?: { relationships?: unknown } } | null)?.data?.relationships;
  return relationships && typeof relationships === 'object' && !Array.isArray(relationships) ? Object.keys(relationships).filter((k) => /^\w+$/.test(k)) : [];
}

type Ref = { type?: unknown; id?: unknown };
type Included = { type?: unknown; id?: unknown; attributes?: Record<string, unknown> };

/**
 * What each of `names` points at, as staff read it: the name (or title) of the included resource,
 * else its id; sorted, so that order alone is not a change.
 */
function relatedNames(doc: unknown, names: readonly string[]): Attributes {
  const data = (doc as { data?: { relationships?: Record<string, { data?: Ref | Ref[] | null }> } } | null)?.data;
  const included = ((doc as { included?: unknown } | null)?.included ?? []) as Included[];
  const nameOf = (ref: Ref) => {
    const found = Array.isArray(included) ? included.find((r) => r.type === ref.type && r.id === ref.id) : undefined;
    const label = found?.attributes?.name ?? found?.attributes?.title;
    return typeof label === 'string' ? label : String(ref.id);
  };
  const out: Attributes = {};
  for (const name of names) {
    const linkage = data?.relationships?.[name]?.data;
    if (linkage === undefined) continue;
    out[name] = linkage === null ? [] : (Array.isArray(linkage) ? linkage : [linkage]).map(nameOf).sort();
  }
  return out;
}

const readJson = async (r: Request | Response): Promise<unknown> => {
  if (!(r.headers.get('content-type') ?? '').includes('json')) return null;
  try {
    return (await r.clone().json()) as unknown;
  } catch {
    return null;
  }
};

/** The event a route described itself (c.set('audit', …)): ids and status only, never the answer. */
async function recordNote(deps: Deps, c: Context<AppEnv>, path: string, settled: Record<string, unknown> = {}): Promise<void> {
  const note = c.var.audit;
  const user = c.var.user;
  if (!note || !user || c.res.status < 200 || c.res.status >= 300) return;
  try {
    await recordAudit(deps.db, {
      occurredAt: nowOf(deps),
      actor: { id: user.id, username: user.username },
      clientAddress: clientAddress(c),
      entity: note.entity,
      entityId: note.entityId,
      action: note.action,
      changes: {},
      meta: { ...note.meta, ...settled, status: c.res.status, requestId: c.var.requestId },
    });
  } catch (error) {
    deps.log.error('audit event not recorded', { requestId: c.var.requestId, path, error: String(error) });
  }
}

/** Thrown to roll back the transaction of a write the route refused. */
const REFUSED = Symbol('refused');

export const auditWrites = (deps: Deps, app: () => Hono<AppEnv>, scope: TransactionScope) => {
  // Found on the first write, when every route is registered.
  let readables: Readable[] | undefined;
  const readableAt = (path: string) => (readables ??= memberReads(app())).find((r) => r.path.test(path))?.read;
  return createMiddleware<AppEnv>(async (c, next) => {
    const path = new URL(c.req.url).pathname;
    // Staff are known by their Authorization header alone (auth/guards.ts): without one there is
    // nobody to record, and participants' calls skip the request copy this would make.
    const authorization = c.req.header('authorization');
    if (path.startsWith('/api/jwt/') || !authorization) return next();
    if (!WRITES.has(c.req.method)) {
      // Reads are recorded only when the route asks to (exports).
      await next();
      const settled = c.var.audit?.settled;
      if (settled && c.res.body) {
        // A streamed export is recorded once it settles, and its body ends only after that.
        const recorded = settled.then((more) => recordNote(deps, c, path, more));
        c.res = new Response(c.res.body.pipeThrough(new TransformStream({ flush: () => recorded })), c.res);
        return;
      }
      await recordNote(deps, c, path);
      return;
    }

    const member = MEMBER.exec(path);
    const memberPath = member ? `/api/${member[1]}/${member[2]}` : null;
    const requestDoc = await readJson(c.req.raw);
    // Lists set through relationships (an engagement's lookup lists) are read with their names, before and after.
    const related = c.req.method === 'PATCH' || c.req.method === 'PUT' ? relationshipsSent(requestDoc) : [];
    const memberRead = memberPath && (c.req.method === 'PATCH' || c.req.method === 'PUT' || c.req.method === 'DELETE') ? readableAt(memberPath) : undefined;
    const id = parseId(member?.[2]);
    // The resource as the member read answers `user` (the writer), with the related names it may include.
    const read = async (user: AuthUser): Promise<MemberDocument | null> => {
      if (!memberRead || id === null) return null;
      const include = new Set(related.filter((name) => memberRead.includes.includes(name)));
      try {
        return await memberRead.read(id, { include, fields: null }, user);
      } catch (error) {
        // What the read refuses (a resource out of the writer's scope) has no old values to show.
        if (error instanceof ApiProblem) return null;
        throw error;
      }
    };

    const record = async (before: Attributes | null, relatedBefore: Attributes) => {
      const user = c.var.user;
      if (!user || c.res.status < 200 || c.res.status >= 300) return;
      if (c.var.audit) return recordNote(deps, c, path);
      const answerDoc = await readJson(c.res);
      const answer = attributesOf(answerDoc);
      const collection = RESOURCE.exec(path);
      let action: string;
      let changes: Record<string, { old: unknown; new: unknown }>;
      const sent = attributesOf(requestDoc).attributes;
      if (collection && c.req.method === 'POST') {
        action = 'create';
        changes = { ...changedFields(null, answer.attributes), ...credentialChanges(sent, answer.attributes, true) };
      } else if (member && c.req.method === 'DELETE') {
        action = 'delete';
        changes = changedFields(before, null);
      } else if (member && (c.req.method === 'PATCH' || c.req.method === 'PUT')) {
        action = 'update';
        // A rotated secret or token changes nothing the API answers: named from the request.
        changes = { ...changedFields(before, answer.attributes), ...credentialChanges(sent, answer.attributes, false) };
        if (related.length > 0 && Object.keys(relatedBefore).length > 0) {
          // The answer names them when it includes them; else they are read as they are now.
          const includes = Array.isArray((answerDoc as { included?: unknown } | null)?.included);
          const afterDoc = includes ? answerDoc : await read(user);
          if (afterDoc) Object.assign(changes, changedFields(relatedBefore, relatedNames(afterDoc, related)));
        }
      } else {
        // Actions that are not plain resource writes (link sets, uploads, two-factor steps).
        action = `${c.req.method} ${path.replace(/\/\d+(?=\/|$)/g, '/:id')}`;
        // What was asked and what came of it; secrets are masked by changedFields.
        changes = changedFields(null, { ...(answer.attributes ?? {}), ...(sent ?? {}) });
      }
      try {
        await recordAudit(deps.db, {
          occurredAt: nowOf(deps),
          actor: { id: user.id, username: user.username },
          clientAddress: clientAddress(c),
          entity: (member ?? collection)?.[1] ?? path.split('/')[2] ?? 'api',
          entityId: member?.[2] ?? answer.id,
          action,
          changes,
          meta: { status: c.res.status, requestId: c.var.requestId },
        });
      } catch (error) {
        deps.log.error('audit event not recorded', { requestId: c.var.requestId, path, error: String(error) });
      }
    };

    if (!memberRead) {
      await next();
      return record(null, {});
    }
    // An update or a deletion of a resource the API reads: its old values are read, it is written
    // and recorded in one transaction, under a lock of that resource that every audited write
    // to it takes, so the old values are exactly what this write replaced. They are read by the
    // member read's own reader, called as the writer once authentication knows them and before
    // the route's guards and handler run: the request is not sent through the app again. A
    // refused write (any answer but 2xx) leaves nothing behind, not even what it wrote before refusing.
    try {
      await scope.run(async () => {
        await deps.db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`audit:${memberPath}`}, 0))`);
        const old: { before: Attributes | null; related: Attributes; read: boolean } = { before: null, related: {}, read: false };
        c.set('authenticated', async (user) => {
          // Once, whatever else authenticates on the way to the route.
          if (old.read) return;
          old.read = true;
          const doc = await read(user);
          if (!doc) return;
          old.before = attributesOf(doc).attributes;
          old.related = relatedNames(doc, related);
        });
        await next();
        if (c.res.status < 200 || c.res.status >= 300) throw REFUSED;
        await record(old.before, old.related);
      });
    } catch (error) {
      if (error !== REFUSED) throw error;
    }
  });
};
