/**
 * A route's description, declared where the route is registered: `app.get(path, describe({…}),
 * handler)`. server/openapi/document.ts finds it in the app's route table and writes the OpenAPI
 * document from it, with the very valibot schemas and list specs the handler validates with.
 *
 * A declared body is also the one the handler reads: the middleware puts a reader of it on the
 * context, `c.var.body`, typed from the declared schema, and reads nothing itself. The handler
 * reads where it always did (after its own 401/403/404), so a bad body answers only then:
 * `const { attributes } = await c.var.body.read({ id })`. No route parses a body with a schema
 * of its own, so what the document says a route takes is what it accepts
 * (tests/server/openapi/describedBodies.test.ts). The declared query is likewise the one the
 * route takes: any other name is refused before the handler runs, and a staff route's values are
 * parsed here too, so its handler reads them typed from `c.var.query`
 * (tests/server/http/listParameters.test.ts).
 */
import type { Context, MiddlewareHandler } from 'hono';
import * as v from 'valibot';
import type { GenericSchema, InferOutput, SafeParseResult } from 'valibot';
import type { ResourceAnswer } from '@core/model/answers';
import {
  JSON_OR_PLAIN_TYPES,
  JSON_TYPES,
  parseAttributes,
  readAttributes,
  readJson,
  readResource,
  type ReadResource,
  type ResourceBodyReader,
} from '../http/body';

export type { ResourceBodyReader };
import type { ParamValues, QueryParams } from '../http/params';
import { parseQuery, readParameters, refuseUnknownQuery, type ListSpec, type ReadSpec } from '../http/query';

/**
 * Who may call a route: signed-in staff (bearer token), a participant (submission token), anyone,
 * or a record system (a Standard Webhooks signature under its secret; `recordSystemFhir` also
 * takes the secret as a bearer token).
 */
export type RouteAccess = 'staff' | 'participant' | 'public' | 'recordSystem' | 'recordSystemFhir' | 'smsProvider';

/** A JSON Schema (2020-12) written by hand, for answers that are not JSON:API. */
export type JsonSchema = Readonly<Record<string, unknown>>;

export type RouteBody =
  /** A JSON:API document with one resource of `type` (any, when null), its attributes checked by `attributes`. */
  | { readonly resource: string | null; readonly attributes?: GenericSchema }
  /**
   * A JSON:API document with one resource of `type` whose attributes are one of `oneOf`'s schemas,
   * the handler naming which from the address (a template of a mail or of a text).
   */
  | { readonly resource: string; readonly oneOf: Readonly<Record<string, GenericSchema>> }
  /** A plain JSON body checked by `schema`. */
  | { readonly json: GenericSchema }
  /** An HTML form's fields (application/x-www-form-urlencoded), as `schema` reads them. */
  | { readonly form: GenericSchema }
  /** A multipart/form-data upload with one file field. */
  | { readonly upload: string };

export type RouteAnswer =
  /** A JSON:API document whose primary data is one resource, as core describes its answer (its type and attributes). */
  | { readonly resource: ResourceAnswer; readonly status?: 200 | 201 | 202 }
  /** A JSON:API document whose primary data is a list of resources, as core describes them. */
  | { readonly list: ResourceAnswer }
  /** A JSON:API document checked as a whole by `document` (the participant contract's answers). */
  | { readonly document: GenericSchema; readonly status?: 200 | 201 | 202 }
  /** No content. */
  | { readonly empty: true }
  /** A file or page of this media type. */
  | { readonly media: string }
  /**
   * A redirect to another page (302 unless `status` says 303). A route the browser opens itself
   * refuses with an HTML page, not a JSON:API error: `pages` names each status it answers so, and
   * when; such a route answers no other refusal.
   */
  | { readonly redirect: true; readonly status?: 302 | 303; readonly pages?: Readonly<Record<string, string>> }
  /**
   * A plain JSON answer (not JSON:API) of this schema and media type (application/json unless
   * said); `refusals` are the statuses it answers in its own form instead of a JSON:API error.
   */
  | {
      readonly json: JsonSchema;
      readonly status?: 200 | 201;
      readonly description?: string;
      readonly mediaType?: string;
      readonly refusals?: { readonly schema: JsonSchema; readonly statuses: Readonly<Record<string, string>> };
    };

export interface RouteDoc {
  readonly summary: string;
  readonly description?: string;
  /** Default: staff. */
  readonly access?: RouteAccess;
  /** The list's query parameters: page, limit, sort, include, fields and its named filters. */
  readonly list?: ListSpec;
  /** A single resource's read: the related resources it may include and the fields it may answer. */
  readonly read?: ReadSpec;
  /**
   * Other query parameters, as typed parameters (server/http/params.ts): the record the handler
   * reads the query with (parseQuery, parseParams), so the schema stated is the parser's own.
   */
  readonly query?: QueryParams;
  readonly body?: RouteBody;
  /**
   * Default: no content for a DELETE; for any other method a JSON:API document of some resource,
   * which says nothing of it (tests/server/openapi/openapi.test.ts holds that no route is left so).
   */
  readonly answer?: RouteAnswer;
}

/** A declared resource body whose attributes are one of several (`{ resource: type, oneOf }`). */
export interface OneOfBodyReader<O extends Readonly<Record<string, GenericSchema>>> {
  /** The body's resource of the declared type, its attributes parsed with the `as` schema, as `read` of one schema does. */
  read<K extends keyof O & string>(as: K, expect?: { readonly id?: number }): Promise<ReadResource<InferOutput<O[K]>>>;
}

/** A declared body of attributes under `data`, of any type (`{ resource: null, attributes }`: the participant calls). */
export interface AttributesBodyReader<T> {
  /** The attributes, parsed with the declared schema (a 422 at each one otherwise). */
  read(): Promise<T>;
  /** The body as JSON, under the route's media types, for a check that must answer before the attributes are judged. */
  json(): Promise<unknown>;
  /** Attributes taken from `json()`, parsed with the declared schema. */
  parse(attributes: unknown): T;
}

/** A declared plain JSON body (`{ json: schema }`): parsed with the schema; the route answers a failure in its own form. */
export interface JsonBodyReader<S extends GenericSchema> {
  read(): Promise<SafeParseResult<S>>;
  /** A body the handler read itself (a signed callback keeps its raw bytes), parsed with the declared schema. */
  parse(value: unknown): SafeParseResult<S>;
}

/** A declared form (`{ form: schema }`): the handler reads the fields (a signature may need them raw); the declaration parses them. */
export interface FormBodyReader<S extends GenericSchema> {
  parse(fields: unknown): SafeParseResult<S>;
}

/** The reader a declared body gives its handler (none for an upload: it is read as a form). */
export type BodyReader<B> = B extends { readonly resource: null; readonly attributes: infer S extends GenericSchema }
  ? AttributesBodyReader<InferOutput<S>>
  : B extends { readonly resource: string; readonly attributes: infer S extends GenericSchema }
    ? ResourceBodyReader<InferOutput<S>>
    : B extends { readonly resource: string; readonly oneOf: infer O extends Readonly<Record<string, GenericSchema>> }
      ? OneOfBodyReader<O>
      : B extends { readonly resource: string }
        ? ResourceBodyReader<Record<string, unknown>>
        : B extends { readonly json: infer S extends GenericSchema }
          ? JsonBodyReader<S>
          : B extends { readonly form: infer S extends GenericSchema }
            ? FormBodyReader<S>
            : never;

/** The context variable a declared body gives: `c.var.body`, its reader. */
export type BodyEnv<B> = { Variables: { body: BodyReader<B> } };

/** The context variable a staff route's declared query gives: `c.var.query`, its values parsed. */
export type QueryEnv<Q> = { Variables: { query: ParamValues<Q> } };

/**
 * What a route's `describe()` adds to its handlers' context: `c.var.body`, when it declares a body
 * read as JSON; `c.var.query`, when a staff route declares its query. A handler written apart from
 * its route names it: `Context<AppEnv & DescribedEnv<typeof doc>>`.
 */
export type DescribedEnv<D> = (D extends { readonly body: infer B } ? ([BodyReader<B>] extends [never] ? object : BodyEnv<B>) : object) &
  (D extends { readonly query: infer Q extends QueryParams } ? (D extends { readonly access: Exclude<RouteAccess, 'staff'> } ? object : QueryEnv<Q>) : object);

const DOC = Symbol('route description');

type Described = MiddlewareHandler<{ Variables: { body: unknown; query: unknown } }> & { [DOC]?: RouteDoc };

const ANY_ATTRIBUTES = v.record(v.string(), v.unknown());

/**
 * The reader of `body` for one request. The participant contract's bodies (a participant call's,
 * and any of attributes of no fixed type: starting a run, a view, a page preview) may be JSON sent
 * as text/plain, what a browser sends cross-origin without a CORS preflight.
 */
function bodyReader(body: RouteBody, access: RouteAccess | undefined): ((c: Context) => unknown) | null {
  if ('upload' in body) return null;
  if ('form' in body) {
    const schema = body.form;
    return () => ({ parse: (fields) => v.safeParse(schema, fields) }) satisfies FormBodyReader<GenericSchema>;
  }
  const participantContract = access === 'participant' || ('resource' in body && body.resource === null);
  const accepted = participantContract ? JSON_OR_PLAIN_TYPES : JSON_TYPES;
  if ('json' in body) {
    const schema = body.json;
    return (c) =>
      ({
        read: async () => v.safeParse(schema, await readJson(c, accepted)),
        parse: (value) => v.safeParse(schema, value),
      }) satisfies JsonBodyReader<GenericSchema>;
  }
  if ('oneOf' in body) {
    const { resource: type, oneOf } = body;
    return (c) =>
      ({
        read: (as, expect) => {
          const schema = oneOf[as];
          if (!schema) throw new Error(`The body declares no attributes named ${as}.`);
          return readResource(c, schema, { type, id: expect?.id }, accepted);
        },
      }) satisfies OneOfBodyReader<Readonly<Record<string, GenericSchema>>>;
  }
  const schema = body.attributes ?? ANY_ATTRIBUTES;
  const type = body.resource;
  if (type === null) {
    return (c) =>
      ({
        read: () => readAttributes(c, schema, accepted),
        json: () => readJson(c, accepted),
        parse: (attributes) => parseAttributes(schema, attributes),
      }) satisfies AttributesBodyReader<unknown>;
  }
  return (c) => ({ read: (expect) => readResource(c, schema, { type, id: expect?.id }, accepted) }) satisfies ResourceBodyReader<unknown>;
}

/**
 * The query names a route takes, when the declaration says them all: its own parameters and a
 * single read's include and fields. A list's query is judged by its parser. A page or a file
 * (the widget's script, a download) is checked only when it declares a query: a page answers
 * its own refusals (as pages), and a partner's page may ask for the script with a cache-busting
 * parameter of its own.
 */
function queryNamesOf(doc: RouteDoc): string[] | null {
  const answer = doc.answer;
  if (doc.list) return null;
  if (answer && ('redirect' in answer || 'media' in answer) && !doc.query) return null;
  return [...Object.keys(doc.query ?? {}), ...(doc.read ? readParameters(doc.read) : [])];
}

/**
 * The query a staff route declares, parsed here whole (names, repeats and values: a 400 naming
 * the first wrong one) so its handler only reads `c.var.query`. The participant contract's calls
 * and the public pages read their own: a participant's call may carry the same values in its
 * body, and a page answers its refusals as pages.
 */
function declaredQueryOf(doc: RouteDoc): QueryParams | null {
  if (doc.access !== undefined && doc.access !== 'staff') return null;
  return doc.query && !doc.read && !doc.list ? doc.query : null;
}

/**
 * Declares a route's description. A query name the declaration does not state is refused here
 * (a 400 naming it; queryNamesOf says for which routes), and a staff route's declared query is
 * parsed here (`c.var.query`). A declared body's reader is put on the context (`c.var.body`) for the handler
 * to read when it is ready; the body is not read here. (The reader set is the one
 * DescribedEnv<D> names, built from the same declaration: the overload says so, as TypeScript
 * cannot follow a conditional type through the runtime branch.)
 */
export function describe<const D extends RouteDoc>(doc: D): MiddlewareHandler<DescribedEnv<D>>;
export function describe(doc: RouteDoc): MiddlewareHandler {
  const reader = doc.body ? bodyReader(doc.body, doc.access) : null;
  const queryNames = queryNamesOf(doc);
  const declaredQuery = declaredQueryOf(doc);
  const handler: Described = async (c, next) => {
    const params = new URL(c.req.url).searchParams;
    if (declaredQuery) c.set('query', parseQuery(params, declaredQuery));
    else if (queryNames) refuseUnknownQuery(params, queryNames);
    if (reader) c.set('body', reader(c));
    await next();
  };
  handler[DOC] = doc;
  return handler;
}

/**
 * The description a route-table handler carries, if it is one: found by the handler's own
 * identity, as the app's public `routes` lists it. Areas' sub-apps keep no error handler of their
 * own (errors are answered once, by the app), so mounting leaves their handlers as registered; a
 * handler wrapped some other way would show as undescribed, and tests/server/openapi/openapi.test.ts fails.
 */
export function descriptionOf(handler: unknown): RouteDoc | undefined {
  return typeof handler === 'function' ? (handler as Described)[DOC] : undefined;
}
