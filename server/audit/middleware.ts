/**
 * Records every successful write by signed-in staff under /api, in one place for every route:
 * for an update or a deletion it first reads the resource as the API shows it, so the event
 * carries the changed fields with their old and new values. Sign-ins are recorded by the auth
 * routes themselves. A route that sets `c.set('audit', note)` is recorded as that note instead:
 * exports (GET reads, recorded only this way) and actions whose answer must not be copied.
 */
import type { Context, Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { nowOf, type AppEnv, type Deps } from '../context';
import { clientAddress } from '../http/client-address';
import { changedFields, credentialChanges, recordAudit } from './trail';

const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
// A collection and a member, one or more path segments deep: /api/sponsors/7, /api/o-forms/o-forms/7.
const RESOURCE = /^\/api\/((?:[\w-]+\/)*[\w-]+)\/?$/;
const MEMBER = /^\/api\/((?:[\w-]+\/)*[\w-]+)\/(\d+)\/?$/;

/**
 * The member paths the API can read (its `GET …/:id` routes), as patterns. Old values are read
 * only through these: a write to anything else (a link, an action) would otherwise cost a read
 * that is bound to fail, and show up in the request log as a 404 nobody asked for.
 */
function memberReaders(app: Hono<AppEnv>): RegExp[] {
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return app.routes
    .filter((r) => r.method === 'GET' && /\/:\w+(?:\{[^}]*\})?$/.test(r.path))
    .map((r) => new RegExp(`^${r.path.split(/:\w+(?:\{[^}]*\})?/).map(literal).join('[^/]+')}$`));
}

type Attributes = Record<string, unknown>;

function attributesOf(doc: unknown): { id: string | null; attributes: Attributes | null } {
  const data = (doc as { data?: { id?: unknown; attributes?: unknown } } | null)?.data;
  if (!data || typeof data !== 'object' || Array.isArray(data)) return { id: null, attributes: null };
  const attributes = data.attributes && typeof data.attributes === 'object' ? (data.attributes as Attributes) : null;
  return { id: typeof data.id === 'string' ? data.id : null, attributes };
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
async function recordNote(deps: Deps, c: Context<AppEnv>, path: string): Promise<void> {
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
      meta: { ...note.meta, status: c.res.status, requestId: c.var.requestId },
    });
  } catch (error) {
    deps.log.error('audit event not recorded', { requestId: c.var.requestId, path, error: String(error) });
  }
}

export const auditWrites = (deps: Deps, app: () => Hono<AppEnv>) => {
  // Built on the first write, when every route is registered.
  let readers: RegExp[] | undefined;
  const readable = (path: string) => (readers ??= memberReaders(app())).some((r) => r.test(path));
  return createMiddleware<AppEnv>(async (c, next) => {
    const path = new URL(c.req.url).pathname;
    // Staff are known by their Authorization header alone (auth/guards.ts): without one there is
    // nobody to record, and participants' calls skip the request copy this would make.
    const authorization = c.req.header('authorization');
    if (path.startsWith('/api/jwt/') || !authorization) return next();
    if (!WRITES.has(c.req.method)) {
      // Reads are recorded only when the route asks to (exports).
      await next();
      await recordNote(deps, c, path);
      return;
    }

    const member = MEMBER.exec(path);
    let before: Attributes | null = null;
    const memberPath = member ? `/api/${member[1]}/${member[2]}` : null;
    if (memberPath && (c.req.method === 'PATCH' || c.req.method === 'PUT' || c.req.method === 'DELETE') && readable(memberPath)) {
      const read = await app().request(memberPath, { headers: { Authorization: authorization } });
      if (read.ok) before = attributesOf(await read.json()).attributes;
    }
    const requestDoc = await readJson(c.req.raw);

    await next();

    const user = c.var.user;
    if (!user || c.res.status < 200 || c.res.status >= 300) return;
    if (c.var.audit) return recordNote(deps, c, path);
    const answer = attributesOf(await readJson(c.res));
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
  });
};
