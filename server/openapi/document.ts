/**
 * The OpenAPI 3.1 document of the API, written from the app's own route table: each route's
 * `describe()` (server/openapi/describe.ts) gives its summary, access, query, body and answer,
 * and the bodies' schemas are the valibot schemas the handlers validate with, converted to JSON
 * Schema. A route registered without a description is listed in `undescribed`.
 */
import { JSON_API_MEDIA_TYPE } from '@core/jsonapi';
import { SUBMISSION_TOKEN_HEADER } from '@core/participant/wire';
import { PAGE_SIZES, type ReadSpec } from '../http/query';
import type { ResourceAnswer } from '@core/model/answers';
import { jsonSchemaOf } from '../http/jsonSchema';
import { descriptionOf, type RouteAccess, type RouteAnswer, type RouteBody, type RouteDoc } from './describe';

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
      attributes: { type: 'object', propertyNames: { not: { enum: ['type', 'id'] } } },
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
  OperationOutcome: {
    type: 'object',
    description: 'A FHIR R4 OperationOutcome (application/fhir+json).',
    required: ['resourceType', 'issue'],
    properties: {
      resourceType: { const: 'OperationOutcome' },
      issue: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          required: ['severity', 'code'],
          properties: {
            severity: { enum: ['fatal', 'error', 'warning', 'information'] },
            code: { type: 'string', description: "FHIR's IssueType: security, conflict, invalid, informational…" },
            diagnostics: { type: 'string' },
            expression: { type: 'array', items: { type: 'string' } },
          },
        },
      },
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

/** The attribute schemas of the resources described from core, by component name. */
type AttributeComponents = Map<string, Json>;

const componentName = (answered: ResourceAnswer) =>
  `${(answered.shape ?? answered.type).replace(/(^|[-_])(\w)/g, (_all, _sep: string, c: string) => c.toUpperCase())}Attributes`;

/**
 * A resource as core describes its answer. Described attributes are all there in a write's
 * answer; a read may leave some out (`fields`), so there none is required.
 */
function resourceSchema(answered: ResourceAnswer, components: AttributeComponents, sparse: boolean): Json {
  const name = componentName(answered);
  // Closed: an attribute the server writes but core does not describe is an answer out of its schema.
  const full: Json = { ...jsonSchemaOf(answered.attributes, 'output'), additionalProperties: false };
  const own: Json = { type: { const: answered.type } };
  if (sparse) {
    const { required: _all, ...some } = full;
    return { allOf: [ref('Resource'), { type: 'object', properties: { ...own, attributes: some } }] };
  }
  const known = components.get(name);
  // One shape, one description: two routes describing it differently would lose one silently.
  if (known && JSON.stringify(known) !== JSON.stringify(full)) throw new Error(`The ${name} answer is described twice, differently.`);
  components.set(name, full);
  return { allOf: [ref('Resource'), { type: 'object', required: ['attributes'], properties: { ...own, attributes: ref(name) } }] };
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
  if ('form' in body) return { required: true, content: { 'application/x-www-form-urlencoded': { schema: jsonSchemaOf(body.form) } } };
  if ('json' in body) {
    const schema = jsonSchemaOf(body.json);
    return { required: true, content: { 'application/json': { schema }, ...jsonApi(schema) } };
  }
  const attributes =
    'oneOf' in body ? { oneOf: Object.values(body.oneOf).map((schema) => jsonSchemaOf(schema)) } : body.attributes ? jsonSchemaOf(body.attributes) : undefined;
  const data = {
    allOf: [
      { type: 'object', required: ['type'], properties: { type: body.resource ? { const: body.resource } : { type: 'string' }, id: { type: 'string' } } },
      ...(attributes ? [{ type: 'object', properties: { attributes } }] : []),
    ],
  };
  return { required: true, content: jsonApi({ type: 'object', required: ['data'], properties: { data } }) };
}

const CSV_ANSWER = {
  'text/csv': {
    schema: {
      type: 'string',
      description:
        'With Accept: text/csv, the whole list (every page) as CSV: id, then the attributes (or those `fields` names), then the included relationships by name.',
    },
  },
};

function successResponses(method: string, answer: RouteAnswer | undefined, access: RouteAccess, components: AttributeComponents): Json {
  if (!answer) {
    if (method === 'DELETE') return { '204': { description: 'Done; nothing to answer.' } };
    return { [method === 'POST' ? '201' : '200']: { description: 'The resource.', content: jsonApi(ref('ResourceDocument')) } };
  }
  if ('empty' in answer) return { '204': { description: 'Done; nothing to answer.' } };
  if ('redirect' in answer) return { [String(answer.status ?? 302)]: { description: 'Sent on to another page.' } };
  if ('document' in answer) {
    return { [String(answer.status ?? 200)]: { description: 'The answer.', content: jsonApi(jsonSchemaOf(answer.document, 'output')) } };
  }
  if ('json' in answer) {
    return {
      [String(answer.status ?? 200)]: {
        description: answer.description ?? 'The answer.',
        content: { [answer.mediaType ?? 'application/json']: { schema: answer.json } },
      },
    };
  }
  if ('media' in answer) {
    return {
      '200': {
        description: `The ${answer.media} file or page.`,
        content: {
          [answer.media]: {
            schema: {
              type: 'string',
              ...(answer.media.startsWith('text/') || answer.media.endsWith('json') || answer.media.endsWith('javascript')
                ? {}
                : { contentMediaType: answer.media }),
            },
          },
        },
      },
    };
  }
  if ('list' in answer) {
    // A read may leave attributes out (`fields`); a write's list answers every one, as a write's resource does.
    const read = method === 'GET';
    const schema = {
      allOf: [ref('ListDocument'), { type: 'object', properties: { data: { type: 'array', items: resourceSchema(answer.list, components, read) } } }],
    };
    // Every staff list answers CSV too (server/http/csvLists.ts).
    const csv = read && access === 'staff' ? CSV_ANSWER : {};
    return { '200': { description: read ? 'A page of the list.' : 'The list, as written.', content: { ...jsonApi(schema), ...csv } } };
  }
  const schema = { allOf: [ref('ResourceDocument'), { type: 'object', properties: { data: resourceSchema(answer.resource, components, method === 'GET') } }] };
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

/** A list's or a single read's `include` and `fields[type]`, as its spec allows them. */
function inclusionParameters(spec: ReadSpec): Json[] {
  return [
    ...(spec.includes?.length
      ? [{ name: 'include', in: 'query', description: `Related resources to include: ${spec.includes.join(', ')}.`, schema: { type: 'string' } }]
      : []),
    ...(spec.fields?.length
      ? [
          {
            name: `fields[${spec.type}]`,
            in: 'query',
            description: `Attributes to answer, comma-separated: ${spec.fields.join(', ')}.`,
            schema: { type: 'string' },
          },
        ]
      : []),
  ];
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
      ...inclusionParameters(list),
    );
  }
  if (doc.read) out.push(...inclusionParameters(doc.read));
  // A list's filters and a route's own parameters alike: as their parsers state them.
  for (const [name, param] of Object.entries({ ...list?.filters, ...doc.query })) {
    out.push({ name, in: 'query', description: param.description, ...(param.required ? { required: true } : {}), schema: param.schema });
  }
  return out;
}

const SECURITY: Record<RouteAccess, Json[]> = {
  staff: [{ staffBearer: [] }],
  participant: [{ submissionToken: [] }],
  public: [],
  recordSystem: [{ standardWebhooks: [] }],
  recordSystemFhir: [{ recordSystemBearer: [] }, { standardWebhooks: [] }],
  smsProvider: [{ twilioSignature: [] }],
};

const ACCESS_TEXT: Record<RouteAccess, string> = {
  staff: 'Signed-in staff (bearer token); what each access level may do is decided on the server.',
  participant: "A participant: the submission's token in the Survey-Submission-Token header.",
  public: 'Public: no sign-in.',
  recordSystem: "A record system: signed the Standard Webhooks way with its provider's secret.",
  recordSystemFhir: "A record system: its provider's secret as a bearer token, or signed the Standard Webhooks way.",
  smsProvider: 'The SMS provider (Twilio): signed with X-Twilio-Signature under TWILIO_AUTH_TOKEN; anything else is refused with 403.',
};

function errorsFor(doc: RouteDoc, method: string, hasParams: boolean): Json {
  const pages = doc.answer && 'redirect' in doc.answer ? doc.answer.pages : undefined;
  if (pages) {
    return Object.fromEntries(
      Object.entries(pages).map(([code, text]) => [code, { description: text, content: { 'text/html': { schema: { type: 'string' } } } }]),
    );
  }
  const refusals = doc.answer && 'json' in doc.answer ? doc.answer.refusals : undefined;
  const media = doc.answer && 'json' in doc.answer ? (doc.answer.mediaType ?? 'application/json') : 'application/json';
  const own = Object.fromEntries(
    Object.entries(refusals?.statuses ?? {}).map(([code, text]) => [code, { description: text, content: { [media]: { schema: refusals!.schema } } }]),
  );
  return { ...jsonApiErrors(doc, method, hasParams), ...own };
}

function jsonApiErrors(doc: RouteDoc, method: string, hasParams: boolean): Json {
  const codes = ['400'];
  if (doc.access !== 'public') codes.push('401');
  if ((doc.access ?? 'staff') === 'staff') codes.push('403');
  // A provider's webhook: refused unsigned (403), absent without the provider (404), form-encoded only (415).
  if (doc.access === 'smsProvider') codes.push('403', '404', '415');
  if (hasParams || doc.access === 'participant') codes.push('404');
  // A form is read as its parameters: one it cannot read is a 400, as a query parameter is.
  if (doc.body) {
    if (!('form' in doc.body)) codes.push('409', '415', '422');
  } else if (method !== 'GET' && method !== 'DELETE') codes.push('422');
  codes.push('429');
  return Object.fromEntries(codes.map((code) => [code, { $ref: `#/components/responses/E${code}` }]));
}

function operationId(method: string, path: string): string {
  const words = path
    .replace(/^\/api\//, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

const tagOf = (path: string) => /^\/api\/([^/{]+)/.exec(path)?.[1] ?? (path.startsWith('/jwt/') ? 'sso' : 'pages');

function describeOperation(method: string, doc: RouteDoc): string {
  const access = doc.access ?? 'staff';
  const parts = [doc.description ?? `${doc.summary}.`, ACCESS_TEXT[access]];
  if (doc.list) {
    parts.push(
      `A page of the list (meta.total counts them all), sorted by ${doc.list.defaultSort} unless sort says otherwise; an unknown sort, include, field or filter is a 400.`,
    );
    if (method === 'GET' && access === 'staff') parts.push('With Accept: text/csv, the whole list as CSV.');
  }
  return parts.join(' ');
}

function operation(method: string, path: string, params: string[], doc: RouteDoc, components: AttributeComponents): Json {
  const access = doc.access ?? 'staff';
  return {
    operationId: operationId(method, path),
    summary: doc.summary,
    description: describeOperation(method, doc),
    tags: [tagOf(path)],
    security: SECURITY[access],
    parameters: [...params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })), ...queryParameters(doc)],
    ...(doc.body ? { requestBody: requestBody(doc.body) } : {}),
    responses: { ...successResponses(method, doc.answer, access, components), ...errorsFor(doc, method, params.length > 0) },
  };
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** Every route of `routes` (an app's `routes`) that answers a method, as `METHOD path`, with its description. */
export function describedRoutes(routes: readonly RouteEntry[]): { route: string; method: string; path: string; doc: RouteDoc | undefined }[] {
  const found = new Map<string, { route: string; method: string; path: string; doc: RouteDoc | undefined }>();
  const registered = new Set(routes.map((r) => `${r.method} ${r.path}`));
  for (const r of routes) {
    if (!METHODS.has(r.method) || r.path.includes('*')) continue;
    // `/demo/` beside `/demo`: the same page, described once (OpenAPI paths have no trailing slash).
    if (r.path.length > 1 && r.path.endsWith('/') && registered.has(`${r.method} ${r.path.slice(0, -1)}`)) continue;
    const route = `${r.method} ${r.path}`;
    const entry = found.get(route) ?? { route, method: r.method, path: r.path, doc: undefined };
    entry.doc ??= descriptionOf(r.handler);
    found.set(route, entry);
  }
  return [...found.values()];
}

const TAG_TEXT: Record<string, string> = {
  jwt: 'Signing in: tokens, two-factor, single sign-on.',
  sso: 'Single sign-on (SAML) pages.',
  pages: 'Pages and files served beside the API: the widget, the demo page, a channel page.',
  'rms-callback': 'Record systems report where a referral stands.',
  'o-forms': 'Surveys (versioned): versions, pages, questions, submissions, and the participant contract.',
};

export function buildOpenApi(routes: readonly RouteEntry[], info: { version: string; serverUrl?: string | null }): OpenApiBuild {
  const paths: Record<string, Json> = {};
  const undescribed: string[] = [];
  const usedIds = new Set<string>();
  const components: AttributeComponents = new Map();
  for (const { route, method, path, doc } of describedRoutes(routes)) {
    if (!doc) {
      undescribed.push(route);
      continue;
    }
    const { path: openPath, params } = openApiPath(path);
    const op = operation(method, openPath, params, doc, components);
    let id = op.operationId as string;
    for (let n = 2; usedIds.has(id); n++) id = `${op.operationId as string}${n}`;
    usedIds.add(id);
    (paths[openPath] ??= {})[method.toLowerCase()] = { ...op, operationId: id };
  }
  const tags = [...new Set(Object.keys(paths).map(tagOf))].sort();
  const document: Json = {
    openapi: '3.1.0',
    info: {
      title: 'Trial Recruit API',
      version: info.version,
      description:
        'Clinical-trial recruitment. Answers under /api are JSON:API 1.0 documents (media type application/vnd.api+json), errors ' +
        'included, except those described otherwise: sign-in (/api/jwt/*) and /api/health answer plain application/json, the FHIR ' +
        'callback answers application/fhir+json, files and exports their own media types, and every staff list answers text/csv ' +
        'when asked (Accept: text/csv). Ids are strings. Staff sign in at POST /api/jwt/login and send the access token as a bearer ' +
        `token; participants send the token their submission was created with in the ${SUBMISSION_TOKEN_HEADER} header.`,
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: info.serverUrl ?? '/', description: info.serverUrl ? 'This server' : 'This server (the origin this document was read from)' }],
    tags: tags.map((name) => ({ name, description: TAG_TEXT[name] ?? `/api/${name}` })),
    paths,
    components: {
      schemas: { ...COMPONENT_SCHEMAS, ...Object.fromEntries([...components].sort(([a], [b]) => a.localeCompare(b))) },
      responses: Object.fromEntries(Object.entries(ERROR_ANSWERS).map(([code, text]) => [`E${code}`, errorResponse(text)])),
      securitySchemes: {
        staffBearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The access token of POST /api/jwt/login.' },
        submissionToken: {
          type: 'apiKey',
          in: 'header',
          name: SUBMISSION_TOKEN_HEADER,
          description: "A participant's submission token, answered in this header when the submission is created.",
        },
        twilioSignature: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Twilio-Signature',
          description:
            "Base64 of HMAC-SHA1, keyed with TWILIO_AUTH_TOKEN, of the full URL called followed by every form parameter name and value, sorted by name (Twilio's request validation).",
        },
        standardWebhooks: {
          type: 'apiKey',
          in: 'header',
          name: 'webhook-signature',
          description:
            "Standard Webhooks (standardwebhooks.com) under the record-system provider's secret: webhook-id, webhook-timestamp (within 5 minutes) " +
            'and webhook-signature `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`; each webhook-id is applied once.',
        },
        recordSystemBearer: {
          type: 'http',
          scheme: 'bearer',
          description: "The record-system provider's secret, as a FHIR Subscription's header can send it.",
        },
      },
    },
  };
  return { document, undescribed };
}
