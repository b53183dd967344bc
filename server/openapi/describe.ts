/**
 * A route's description, declared where the route is registered: `app.get(path, describe({…}),
 * handler)`. The middleware does nothing at run time; server/openapi/document.ts finds it in the
 * app's route table and writes the OpenAPI document from it, with the very valibot schemas and
 * list specs the handler validates with.
 */
import type { MiddlewareHandler } from 'hono';
import type { GenericSchema } from 'valibot';
import type { ResourceAnswer } from '@core/model/answers';
import type { QueryParams } from '../http/params';
import type { ListSpec } from '../http/query';

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

const DOC = Symbol('route description');

type Described = MiddlewareHandler & { [DOC]?: RouteDoc };

/** Declares a route's description; passes every request straight on. */
export function describe(doc: RouteDoc): MiddlewareHandler {
  const handler: Described = async (_c, next) => {
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
