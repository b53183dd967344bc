/**
 * The OpenAPI 3.1 document of the API, written from the app's own route table: each route's
 * `describe()` (server/openapi/describe.ts) gives its summary, access, query, body and answer,
 * and the bodies' schemas are the valibot schemas the handlers validate with, converted to JSON
 * Schema. A route registered without a description is listed in `undescribed`.
 */
import { toJsonSchema } from '@valibot/to-json-schema';
import type { GenericSchema } from 'valibot';
import { JSON_API_MEDIA_TYPE } from '@core/jsonapi';
import { SUBMISSION_TOKEN_HEADER } from '@core/participant/wire';
import { PAGE_SIZES } from '../http/query';
import { descriptionOf, type RouteAnswer, type RouteBody, type RouteDoc } from './describe';

type Json = Record<string, unknown>;

export interface RouteEntry {
  readonly method: string;
  readonly path: string;
  readonly handler: unknown;
}

export interface OpenApiBuild {
  readonly document: Json;
  /** `METHOD /path` of every route registered without a description. */
  readonly undescribed: string[];
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const jsonApi = (schema: Json) => ({ [JSON_API_MEDIA_TYPE]: { schema } });

/** A valibot schema as JSON Schema 2020-12 (the dialect of OpenAPI 3.1): as a client sends it, or as the server answers. */
export function jsonSchemaOf(schema: GenericSchema, mode: 'input' | 'output' = 'input'): Json {
  const { $schema: _dialect, ...rest } = toJsonSchema(schema, { target: 'draft-2020-12', typeMode: mode, errorMode: 'ignore' }) as Json;
  return rest;
}

const COMPONENT_SCHEMAS: Json = {
  Meta: { type: 'object', additionalProperties: true },
  Links: { type: 'object', additionalProperties: { oneOf: [{ type: 'string' }, { type: 'null' }, { type: 'object' }] } },
  ResourceIdentifier: {
    type: 'object',
    required: ['type', 'id'],
    properties: { type: { type: 'string' }, id: { type: 'string' }, meta: ref('Meta') },
  },
  Relationship: {
    type: 'object',
    properties: {
      data: { oneOf: [{ type: 'null' }, ref('ResourceIdentifier'), { type: 'array', items: ref('ResourceIdentifier') }] },
      links: ref('Links'),
      meta: ref('Meta'),
    },
  },
  Resource: {
    type: 'object',
    required: ['type', 'id'],
    description: "A JSON:API resource object. Attributes never use the member names 'type' or 'id'.",
    properties: {
      type: { type: 'string' },
      id: { type: 'string' },
      attributes: { type: 'object', not: { anyOf: [{ required: ['type'] }, { required: ['id'] }] } },
      relationships: { type: 'object', additionalProperties: ref('Relationship') },
      links: ref('Links'),
      meta: ref('Meta'),
    },
  },
  ResourceDocument: {
    type: 'object',
    required: ['data'],
    properties: {
      data: { oneOf: [ref('Resource'), { type: 'null' }] },
      included: { type: 'array', items: ref('Resource') },
      meta: ref('Meta'),
      links: ref('Links'),
    },
  },
  ListDocument: {
    type: 'object',
    required: ['data'],
    properties: {
      data: { type: 'array', items: ref('Resource') },
      included: { type: 'array', items: ref('Resource') },
      meta: {
        type: 'object',
        description: 'The page: how many match in all, which page this is and its size.',
        properties: { total: { type: 'integer' }, page: { type: 'integer' }, limit: { type: 'integer' } },
        additionalProperties: true,
      },
      links: ref('Links'),
    },
  },
  Error: {
    type: 'object',
    required: ['status', 'title'],
    properties: {
      status: { type: 'string', description: 'The HTTP status, as a string.' },
      title: { type: 'string' },
      code: { type: 'string', description: "An application code, e.g. 'missing_translations'." },
      detail: { type: 'string', description: 'What went wrong, in words for the user.' },
      source: {
        type: 'object',
        properties: {
          pointer: { type: 'string', description: "JSON Pointer to the member at fault, e.g. '/data/attributes/name'." },
          parameter: { type: 'string', description: 'The query parameter at fault.' },
        },
      },
      meta: ref('Meta'),
    },
  },
  ErrorDocument: {
    type: 'object',
    required: ['errors'],
    properties: { errors: { type: 'array', minItems: 1, items: ref('Error') } },
  },
};

const ERROR_ANSWERS: Record<string, string> = {
  '400': 'The request is malformed: a query parameter or the body is not understood.',
  '401': 'Not signed in, or the token has expired.',
  '403': 'Signed in, but this access level may not do this.',
  '404': "The resource is not here, or not within the caller's scope.",
  '409': 'The request conflicts with what is stored (a name in use, a frozen version).',
  '415': 'The body is not JSON (application/vnd.api+json or application/json).',
  '422': 'The body is understood but invalid; each error points at its attribute.',
  '429': 'Too many requests; try again later.',
};

const errorResponse = (description: string) => ({ description, content: jsonApi(ref('ErrorDocument')) });

function resourceSchema(type: string | null, attributes?: Json): Json {
  if (!type && !attributes) return ref('Resource');
  return {
    allOf: [
      ref('Resource'),
      { type: 'object', properties: { ...(type ? { type: { const: type } } : {}), ...(attributes ? { attributes } : {}) } },
    ],
  };
}

function requestBody(body: RouteBody): Json {
  if ('upload' in body) {
    return {
      required: true,
      content: {
        'multipart/form-data': {
          schema: { type: 'object', required: [body.upload], properties: { [body.upload]: { type: 'string', contentMediaType: 'application/octet-stream' } } },
        },
      },
    };
  }
  if ('json' in body) {
    const schema = jsonSchemaOf(body.json);
    return { required: true, content: { 'application/json': { schema }, ...jsonApi(schema) } };
  }
  const attributes = body.attributes ? jsonSchemaOf(body.attributes) : undefined;
  const data = {
    allOf: [
      { type: 'object', required: ['type'], properties: { type: body.resource ? { const: body.resource } : { type: 'string' }, id: { type: 'string' } } },
      ...(attributes ? [{ type: 'object', properties: { attributes } }] : []),
    ],
  };
  return { required: true, content: jsonApi({ type: 'object', required: ['data'], properties: { data } }) };
}

function successResponses(method: string, answer: RouteAnswer | undefined): Json {
  if (!answer) {
    if (method === 'DELETE') return { '204': { description: 'Done; nothing to answer.' } };
    return { [method === 'POST' ? '201' : '200']: { description: 'The resource.', content: jsonApi(ref('ResourceDocument')) } };
  }
  if ('empty' in answer) return { '204': { description: 'Done; nothing to answer.' } };
  if ('redirect' in answer) return { '302': { description: 'Sent on to another page.' } };
  if ('document' in answer) {
    return { [String(answer.status ?? 200)]: { description: 'The answer.', content: jsonApi(jsonSchemaOf(answer.document, 'output')) } };
  }
  if ('media' in answer) return { '200': { description: `The ${answer.media} file or page.`, content: { [answer.media]: {} } } };
  if ('list' in answer) {
    const schema = answer.list
      ? { allOf: [ref('ListDocument'), { type: 'object', properties: { data: { type: 'array', items: resourceSchema(answer.list) } } }] }
      : ref('ListDocument');
    return { '200': { description: 'A page of the list.', content: jsonApi(schema) } };
  }
  const schema = answer.resource
    ? { allOf: [ref('ResourceDocument'), { type: 'object', properties: { data: resourceSchema(answer.resource) } }] }
    : ref('ResourceDocument');
  return { [String(answer.status ?? 200)]: { description: 'The resource.', content: jsonApi(schema) } };
}

/** Hono's `/a/:id{[0-9]+}/:name?` as OpenAPI's `/a/{id}/{name}`, with its parameters. */
function openApiPath(path: string): { path: string; params: string[] } {
  const params: string[] = [];
  const converted = path.replace(/:(\w+)(\{[^}]*\})?\??/g, (_all, name: string) => {
    params.push(name);
    return `{${name}}`;
  });
  return { path: converted, params };
}

function queryParameters(doc: RouteDoc): Json[] {
  const out: Json[] = [];
  const list = doc.list;
  if (list) {
    out.push(
      { name: 'page', in: 'query', description: 'The page, from 1.', schema: { type: 'integer', minimum: 1 } },
      { name: 'limit', in: 'query', description: 'Rows a page.', schema: { type: 'integer', enum: [...PAGE_SIZES] } },
      {
        name: 'sort',
        in: 'query',
        description: `Comma-separated fields, '-' before a field for descending; default '${list.defaultSort}'. Fields: ${list.sorts.join(', ')}.`,
        schema: { type: 'string' },
      },
    );
    if (list.includes?.length) {
      out.push({ name: 'include', in: 'query', description: `Related resources to include: ${list.includes.join(', ')}.`, schema: { type: 'string' } });
    }
    if (list.fields?.length) {
      out.push({
        name: `fields[${list.type}]`,
        in: 'query',
        description: `Attributes to answer, comma-separated: ${list.fields.join(', ')}.`,
        schema: { type: 'string' },
      });
    }
    for (const filter of list.filters ?? []) out.push({ name: filter, in: 'query', description: 'Filter.', schema: { type: 'string' } });
  }
  for (const [name, description] of Object.entries(doc.query ?? {})) out.push({ name, in: 'query', description, schema: { type: 'string' } });
  return out;
}

const SECURITY: Record<NonNullable<RouteDoc['access']>, Json[]> = {
  staff: [{ staffBearer: [] }],
  participant: [{ submissionToken: [] }],
  public: [],
};

function errorsFor(doc: RouteDoc, method: string, hasParams: boolean): Json {
  const codes = ['400'];
  if (doc.access !== 'public') codes.push('401');
  if ((doc.access ?? 'staff') === 'staff') codes.push('403');
  if (hasParams || doc.access === 'participant') codes.push('404');
  if (doc.body) codes.push('409', '415', '422');
  else if (method !== 'GET' && method !== 'DELETE') codes.push('422');
  codes.push('429');
  return Object.fromEntries(codes.map((code) => [code, { $ref: `#/components/responses/E${code}` }]));
}

function operationId(method: string, path: string): string {
  const words = path.replace(/^\/api\//, '').split(/[^A-Za-z0-9]+/).filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

function operation(method: string, path: string, params: string[], doc: RouteDoc): Json {
  const tag = /^\/api\/([^/{]+)/.exec(path)?.[1] ?? (path.startsWith('/jwt/') ? 'sso' : 'pages');
  return {
    operationId: operationId(method, path),
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    tags: [tag],
    security: SECURITY[doc.access ?? 'staff'],
    parameters: [
      ...params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
      ...queryParameters(doc),
    ],
    ...(doc.body ? { requestBody: requestBody(doc.body) } : {}),
    responses: { ...successResponses(method, doc.answer), ...errorsFor(doc, method, params.length > 0) },
  };
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** Every route of `routes` (an app's `routes`) that answers a method, as `METHOD path`, with its description. */
export function describedRoutes(routes: readonly RouteEntry[]): { route: string; method: string; path: string; doc: RouteDoc | undefined }[] {
  const found = new Map<string, { route: string; method: string; path: string; doc: RouteDoc | undefined }>();
  for (const r of routes) {
    if (!METHODS.has(r.method) || r.path.includes('*')) continue;
    const route = `${r.method} ${r.path}`;
    const entry = found.get(route) ?? { route, method: r.method, path: r.path, doc: undefined };
    entry.doc ??= descriptionOf(r.handler);
    found.set(route, entry);
  }
  return [...found.values()];
}

export function buildOpenApi(routes: readonly RouteEntry[], info: { version: string }): OpenApiBuild {
  const paths: Record<string, Json> = {};
  const undescribed: string[] = [];
  const usedIds = new Set<string>();
  for (const { route, method, path, doc } of describedRoutes(routes)) {
    if (!doc) {
      undescribed.push(route);
      continue;
    }
    const { path: openPath, params } = openApiPath(path);
    const op = operation(method, openPath, params, doc);
    let id = op.operationId as string;
    for (let n = 2; usedIds.has(id); n++) id = `${op.operationId as string}${n}`;
    usedIds.add(id);
    (paths[openPath] ??= {})[method.toLowerCase()] = { ...op, operationId: id };
  }
  const document: Json = {
    openapi: '3.1.0',
    info: {
      title: 'Trial Recruit API',
      version: info.version,
      description:
        'Clinical-trial recruitment. Every answer under /api is a JSON:API 1.1 document (media type application/vnd.api+json), ' +
        'errors included. Staff sign in at POST /api/jwt/login and send the access token as a bearer token; participants send ' +
        `the token their submission was created with in the ${SUBMISSION_TOKEN_HEADER} header.`,
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    paths,
    components: {
      schemas: COMPONENT_SCHEMAS,
      responses: Object.fromEntries(Object.entries(ERROR_ANSWERS).map(([code, text]) => [`E${code}`, errorResponse(text)])),
      securitySchemes: {
        staffBearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The access token of POST /api/jwt/login.' },
        submissionToken: {
          type: 'apiKey',
          in: 'header',
          name: SUBMISSION_TOKEN_HEADER,
          description: "A participant's submission token, answered in this header when the submission is created.",
        },
      },
    },
  };
  return { document, undescribed };
}
