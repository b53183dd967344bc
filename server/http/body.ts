/**
 * Reading request bodies: JSON only, one resource object under `data`, attributes validated
 * with the entity's schema from core/model. Every failure is a JSON:API error; nothing is
 * written before this returns.
 */
import type { Context } from 'hono';
import * as v from 'valibot';
import { toFieldIssues } from '@core/model/fields';
import type { Relationship } from '@core/jsonapi';
import { ApiProblem, badRequest, conflict, invalid, unsupportedMediaType } from './errors';

export const JSON_TYPES = /^application\/(vnd\.api\+)?json\b/i;
/** JSON, or JSON sent as text/plain: what a browser sends cross-origin without a CORS preflight (the participant routes). */
export const JSON_OR_PLAIN_TYPES = /^(application\/(vnd\.api\+)?json|text\/plain)\b/i;

export async function readJson(c: Context, accepted: RegExp = JSON_TYPES): Promise<unknown> {
  const type = c.req.header('content-type') ?? '';
  if (!accepted.test(type)) throw unsupportedMediaType();
  const text = await c.req.text();
  if (text.trim() === '') throw badRequest('The request body is empty.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    throw badRequest('The request body is not valid JSON.');
  }
  // PostgreSQL text cannot hold NUL characters: refuse them here rather than fail in a query.
  if (containsNul(parsed)) throw badRequest('The request body must not contain NUL characters (\\u0000).');
  return parsed;
}

function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => containsNul(v, depth + 1));
  return Object.entries(value as Record<string, unknown>).some(([k, v]) => k.includes('\0') || containsNul(v, depth + 1));
}

const Identifier = v.object({ type: v.string(), id: v.union([v.string(), v.pipe(v.number(), v.transform(String))]) });
const RelationshipSchema = v.object({ data: v.union([v.null(), Identifier, v.array(Identifier)]) });

const ResourceEnvelope = v.object({
  data: v.object({
    type: v.string(),
    id: v.optional(v.union([v.string(), v.number()])),
    attributes: v.optional(v.record(v.string(), v.unknown()), {}),
    relationships: v.optional(v.record(v.string(), RelationshipSchema), {}),
  }),
});

const ToManyIdentifiers = v.array(v.object({ type: v.string(), id: v.pipe(v.string(), v.regex(/^\d{1,9}$/)) }));

/**
 * The ids a to-many relationship's `data` names, each once and in order, when every identifier is
 * of `type`; null when `data` is anything else (the caller answers a 422 at the relationship).
 */
export function toManyIds(data: unknown, type: string): number[] | null {
  const parsed = v.safeParse(ToManyIdentifiers, data);
  if (!parsed.success || parsed.output.some((r) => r.type !== type)) return null;
  return [...new Set(parsed.output.map((r) => Number(r.id)))];
}

/** The parent a create's attributes name (`pointer`), else a 422 pointing at it with `detail`. */
export async function requireParent<T>(find: Promise<T | undefined>, pointer: string, detail: string): Promise<T> {
  const found = await find;
  if (!found) throw invalid([{ pointer: `/data/attributes/${pointer}`, detail }]);
  return found;
}

export interface ReadResource<T> {
  attributes: T;
  relationships: Record<string, Relationship>;
}

/** A declared JSON:API resource body (`{ resource: type, attributes }`), read by its handler. */
export interface ResourceBodyReader<T> {
  /**
   * The body's resource of the declared type, its attributes parsed with the declared schema
   * (415, 400, 422, 409 otherwise). On an update, `id` is the URL's: an id in the body must match.
   */
  read(expect?: { readonly id?: number }): Promise<ReadResource<T>>;
}

/**
 * The `data` of a create or update, its attributes parsed with `schema`. Route files do not call
 * it: they read the body their route's `describe()` declares (`c.var.body`, server/openapi/describe.ts).
 */
export async function readResource<S extends v.GenericSchema>(
  c: Context,
  schema: S,
  expect: { type: string; id?: number | undefined },
  accepted: RegExp = JSON_TYPES,
): Promise<ReadResource<v.InferOutput<S>>> {
  const body = await readJson(c, accepted);
  const envelope = v.safeParse(ResourceEnvelope, body);
  if (!envelope.success) {
    throw new ApiProblem(422, [
      {
        status: '422',
        title: 'Invalid Document',
        detail: 'The body must be a JSON:API document with a resource object under "data".',
        source: { pointer: '/data' },
      },
    ]);
  }
  const data = envelope.output.data;
  if (data.type !== expect.type) {
    throw conflict(`The resource type must be '${expect.type}'.`, '/data/type');
  }
  if (expect.id !== undefined && data.id !== undefined && String(data.id) !== String(expect.id)) {
    throw conflict('The id in the body does not match the id in the URL.', '/data/id');
  }
  const parsed = v.safeParse(schema, data.attributes);
  if (!parsed.success) throw invalid(toFieldIssues(parsed.issues, '/data/attributes'));
  return {
    attributes: parsed.output,
    relationships: data.relationships satisfies Record<string, Relationship>,
  };
}

/** `attributes` parsed with `schema`, else a 422 at each attribute. */
export function parseAttributes<S extends v.GenericSchema>(schema: S, attributes: unknown): v.InferOutput<S> {
  const parsed = v.safeParse(schema, attributes);
  if (!parsed.success) throw invalid(toFieldIssues(parsed.issues, '/data/attributes'));
  return parsed.output;
}

/** The attributes of `data`, of any resource type (participant bodies are small and named by the route). */
export async function readAttributes<S extends v.GenericSchema>(c: Context, schema: S, accepted: RegExp): Promise<v.InferOutput<S>> {
  const body = await readJson(c, accepted);
  const data = (body as { data?: unknown } | null)?.data;
  const attributes = data && typeof data === 'object' && !Array.isArray(data) ? (data as { attributes?: unknown }).attributes : undefined;
  if (!attributes || typeof attributes !== 'object' || Array.isArray(attributes)) {
    throw new ApiProblem(422, [
      {
        status: '422',
        title: 'Invalid Document',
        detail: 'The body must be a JSON:API document with attributes under "data".',
        source: { pointer: '/data/attributes' },
      },
    ]);
  }
  return parseAttributes(schema, attributes);
}
