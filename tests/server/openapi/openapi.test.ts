/**
 * The API's OpenAPI document: valid OpenAPI 3.1, written from the route table so that every
 * route the server registers is described, with the schemas its handlers validate with.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { Hono } from 'hono';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ISO_CODE } from '@core/i18n';
import { FUNNEL_GROUPINGS } from '@core/model/funnel';
import { SURVEY_IDENTITY } from '@core/model/screenerSurvey';
import { HIDDEN_FIELD_NAME } from '@core/model/mediaChannel';
import { SponsorInput } from '@core/model/sponsor';
import { NCT_ID_AS_TYPED } from '../../../server/clinicaltrials-gov/study';
import { FUNNEL_QUERY } from '../../../server/funnel/routes';
import { buildOpenApi, describedRoutes } from '../../../server/openapi/document';
import { jsonSchemaOf } from '../../../server/http/jsonSchema';
import { describe as describeRoute } from '../../../server/openapi/describe';
import { createHarness, type Harness } from '../harness';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let h: Harness;
let doc: Json;

beforeAll(async () => {
  h = await createHarness();
  const res = await h.app.request('/api/openapi.json');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  doc = (await res.json()) as Json;
});
afterAll(async () => {
  await h.close();
});

describe('GET /api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes every route the server registers, and nothing else', () => {
    const routes = describedRoutes(h.app.routes);
    expect(routes.length).toBeGreaterThan(150);
    expect(
      routes.filter((r) => !r.doc).map((r) => r.route),
      'routes without describe()',
    ).toEqual([]);
    const operations = Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const expected = routes.map((r) => `${r.method} ${r.path.replace(/:(\w+)(\{[^}]*\})?\??/g, '{$1}')}`);
    // `/demo/` is described once, as `/demo`.
    expect(routes.map((r) => r.route)).not.toContain('GET /demo/');
    expect(operations.sort()).toEqual([...new Set(expected)].sort());
  });

  it('names a route registered without a description', () => {
    const handler = () => new Response('');
    const built = buildOpenApi(
      [
        { method: 'GET', path: '/api/described', handler: describeRoute({ summary: 'Described' }) },
        { method: 'GET', path: '/api/described', handler },
        { method: 'GET', path: '/api/bare', handler },
        { method: 'ALL', path: '/api/*', handler },
      ],
      { version: '0' },
    );
    expect(built.undescribed).toEqual(['GET /api/bare']);
    expect(Object.keys(built.document.paths as Json)).toEqual(['/api/described']);
  });

  it('finds descriptions through the public route table: a mounted sub-app keeps them, one wrapping its handlers shows as undescribed', () => {
    const plain = new Hono().get('/', describeRoute({ summary: 'Plain' }), (c) => c.text(''));
    const wrapping = new Hono().get('/', describeRoute({ summary: 'Wrapped' }), (c) => c.text(''));
    // A sub-app's own error handler makes Hono wrap its handlers when mounted.
    wrapping.onError((_e, c) => c.text('', 500));
    const app = new Hono().route('/api/plain', plain).route('/api/wrapped', wrapping);
    const found = Object.fromEntries(describedRoutes(app.routes).map((r) => [r.route, r.doc?.summary]));
    expect(found).toEqual({ 'GET /api/plain': 'Plain', 'GET /api/wrapped': undefined });
  });

  it('takes request bodies from the schemas the handlers validate with', () => {
    const body = doc.paths['/api/sponsors'].post.requestBody.content['application/vnd.api+json'].schema;
    const [identifier, withAttributes] = body.properties.data.allOf;
    expect(identifier.properties.type).toEqual({ const: 'sponsors' });
    expect(withAttributes.properties.attributes).toEqual(jsonSchemaOf(SponsorInput));
    expect(withAttributes.properties.attributes.properties.name).toMatchObject({ type: 'string', minLength: 1 });
    // What the schema refuses, the server refuses (the same object validates both).
    expect(v.safeParse(SponsorInput, { identification: 'x' }).success).toBe(false);
  });

  it('describes lists with their paging, sorting, filters and sparse fields', () => {
    const names = (doc.paths['/api/sponsors'].get.parameters as Json[]).map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['page', 'limit', 'sort', 'include', 'fields[sponsors]', 'searchQuery', 'isActive']));
    expect(doc.paths['/api/sponsors/{id}'].get.parameters).toContainEqual({ name: 'id', in: 'path', required: true, schema: { type: 'string' } });
  });

  it('uses the JSON:API media type, error documents and the two security schemes', () => {
    const list = doc.paths['/api/sponsors'].get;
    expect(Object.keys(list.responses['200'].content)).toEqual(['application/vnd.api+json', 'text/csv']);
    expect(list.responses['401']).toEqual({ $ref: '#/components/responses/E401' });
    expect(doc.components.responses.E422.content['application/vnd.api+json'].schema).toEqual({ $ref: '#/components/schemas/ErrorDocument' });
    expect(doc.components.securitySchemes).toMatchObject({
      staffBearer: { type: 'http', scheme: 'bearer' },
      submissionToken: { type: 'apiKey', in: 'header', name: 'Survey-Submission-Token' },
    });
    expect(list.security).toEqual([{ staffBearer: [] }]);
    expect(doc.paths['/api/o-forms/o-form-submission-page/{id}'].patch.security).toEqual([{ submissionToken: [] }]);
    expect(doc.paths['/api/jwt/login'].post.security).toEqual([]);
    expect(doc.paths['/api/rms-callback'].post.security).toEqual([{ standardWebhooks: [] }]);
    expect(doc.paths['/api/rms-callback/fhir/{providerId}'].post.security).toEqual([{ recordSystemBearer: [] }, { standardWebhooks: [] }]);
  });

  it('describes the answers that are not JSON:API as they are', async () => {
    const login = doc.paths['/api/jwt/login'].post.responses;
    expect(Object.keys(login['200'].content)).toEqual(['application/json']);
    expect(login['201']).toBeUndefined();
    expect(Object.keys(login['401'].content)).toEqual(['application/json']);
    expect(Object.keys(doc.paths['/api/jwt/refresh'].post.responses['200'].content)).toEqual(['application/json']);
    expect(Object.keys(doc.paths['/api/health'].get.responses)).toEqual(expect.arrayContaining(['200', '503']));
    expect(doc.paths['/api/users/validate-email'].post.responses['200']).toBeDefined();
    expect(doc.paths['/api/users/validate-email'].post.responses['201']).toBeUndefined();
    const fhir = doc.paths['/api/rms-callback/fhir/{providerId}'].post.responses;
    expect(fhir['401'].content['application/fhir+json'].schema).toEqual({ $ref: '#/components/schemas/OperationOutcome' });
    expect(doc.paths['/api/survey-page-metrics/{id}'].get.responses['200'].content['application/vnd.api+json'].schema.allOf[0]).toEqual({
      $ref: '#/components/schemas/ListDocument',
    });
    expect(Object.keys(doc.paths['/api/engagements-o-files/{id}/download'].get.responses['200'].content)).toEqual(['application/octet-stream']);
    expect(Object.keys(doc.paths['/jwt/saml/metadata/{service}'].get.responses['200'].content)).toEqual(['application/samlmetadata+xml']);
    // The real answers: a wrong password is a plain JSON 401.
    const refused = await h.request('POST', '/api/jwt/login', { body: { data: { username: 'nobody', password: 'wrong-password-1' } } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('describes the sign-on pages a browser opens as they answer: redirects, HTML refusals, form bodies', async () => {
    const acs = doc.paths['/jwt/saml/acs/{service}'].post;
    expect(Object.keys(acs.requestBody.content)).toEqual(['application/x-www-form-urlencoded']);
    expect(acs.requestBody.content['application/x-www-form-urlencoded'].schema).toMatchObject({ required: ['SAMLResponse'] });
    expect(Object.keys(acs.responses).sort()).toEqual(['303', '400', '401', '404', '413']);
    for (const code of ['400', '401', '404', '413']) expect(Object.keys(acs.responses[code].content), code).toEqual(['text/html']);
    expect(Object.keys(doc.paths['/jwt/saml'].get.responses).sort()).toEqual(['302', '404']);
    expect(Object.keys(doc.paths['/jwt/saml/logout'].get.responses)).toEqual(['302']);
    const inbound = doc.paths['/api/message-sms-inbound'].post;
    expect(inbound.requestBody.content['application/x-www-form-urlencoded'].schema).toMatchObject({ required: ['From'] });
    expect(inbound.responses['422']).toBeUndefined();
    // The real answers, as described: a page, not a JSON:API error.
    for (const [method, path, status, body] of [
      ['GET', '/jwt/saml?auth_service=nowhere', 404, undefined],
      ['POST', '/jwt/saml/acs/nowhere', 404, 'SAMLResponse=x'],
    ] as const) {
      const res = await h.app.request(path, { method, ...(body ? { body, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } } : {}) });
      expect(res.status, path).toBe(status);
      expect(res.headers.get('content-type'), path).toMatch(/^text\/html/);
    }
  });

  it('describes CSV on every staff list, the filters by their formats, and required query parameters', () => {
    const lists = Object.values(doc.paths as Record<string, Json>).flatMap((item) =>
      item.get?.responses?.['200']?.description === 'A page of the list.' && item.get.security?.[0]?.staffBearer ? [item.get] : [],
    );
    expect(lists.length).toBeGreaterThan(25);
    for (const list of lists) expect(Object.keys(list.responses['200'].content), list.operationId).toEqual(['application/vnd.api+json', 'text/csv']);
    const sponsors = doc.paths['/api/sponsors'].get.parameters as Json[];
    expect(sponsors.find((p) => p.name === 'isActive')!.schema).toEqual({ type: 'string', enum: ['true', 'false', '1', '0'] });
    const referrals = doc.paths['/api/referrals'].get.parameters as Json[];
    expect(referrals.find((p) => p.name === 'createdFrom')!.schema).toEqual({ type: 'string', format: 'date' });
    expect(referrals.find((p) => p.name === 'engagementId')!.schema).toMatchObject({ pattern: '^[1-9][0-9]*$' });
    // Described by the filters' own parsers where a list declares them.
    const engagements = doc.paths['/api/engagements'].get.parameters as Json[];
    expect(engagements.find((p) => p.name === 'phase')!.schema).toMatchObject({ type: 'string', enum: expect.arrayContaining([expect.any(String)]) });
    expect(engagements.find((p) => p.name === 'startDateFrom')!.schema).toEqual({ type: 'string', format: 'date' });
    expect(engagements.find((p) => p.name === 'sortAssociated')!.schema).toMatchObject({ pattern: '^[1-9][0-9]*$' });
    // The filters once checked by hand in their routes state their enums and formats.
    const schemaOf = (path: string, name: string) => (doc.paths[path].get.parameters as Json[]).find((p) => p.name === name)!.schema;
    expect(schemaOf('/api/rms-providers', 'kind')).toMatchObject({ type: 'string', enum: expect.arrayContaining([expect.any(String)]) });
    expect(schemaOf('/api/generic-messages', 'messageType')).toMatchObject({ type: 'string', enum: expect.arrayContaining([expect.any(String)]) });
    expect(schemaOf('/api/rms-audits', 'status')).toMatchObject({ type: 'string', enum: expect.arrayContaining([expect.any(String)]) });
    expect(schemaOf('/api/rms-audits', 'from')).toEqual({
      anyOf: [
        { type: 'string', format: 'date' },
        { type: 'string', format: 'date-time' },
      ],
    });
    for (const path of ['/api/users', '/api/languages']) expect(schemaOf(path, 'isActive')).toEqual({ type: 'string', enum: ['true', 'false', '1', '0'] });
    expect((doc.paths['/api/o-forms/languages-o-forms'].get.parameters as Json[]).find((p) => p.name === 'oFormId')).toMatchObject({ required: true });
    expect((doc.paths['/api/o-forms/o-form-containers'].get.parameters as Json[]).find((p) => p.name === 'oFormId')).toMatchObject({ required: true });
    for (const path of ['/api/contact-fields-screeners', '/api/screeners/languages-screeners', '/api/media-channel-surveys']) {
      const names = (doc.paths[path].get.parameters as Json[]).map((p) => p.name);
      expect(names, path).toEqual(expect.arrayContaining(['page', 'limit', 'sort']));
    }
    expect(doc.servers).toHaveLength(1);
    expect(doc.info.description).toContain('JSON:API 1.0');
    const operations = Object.values(doc.paths as Record<string, Json>).flatMap((item) => Object.values(item)) as Json[];
    expect(operations.every((o) => typeof o.description === 'string' && o.tags.length === 1)).toBe(true);
    expect(new Set((doc.tags as Json[]).map((t) => t.name))).toEqual(new Set(operations.map((o) => o.tags[0])));
  });

  it("describes the funnel's query from the record its route parses with", async () => {
    const parameters = doc.paths['/api/recruitment-funnel'].get.parameters as Json[];
    expect(parameters.map((p) => p.name)).toEqual(Object.keys(FUNNEL_QUERY));
    const schemaOf = (name: string) => parameters.find((p) => p.name === name)!.schema;
    expect(schemaOf('groupBy')).toEqual({ type: 'string', enum: [...FUNNEL_GROUPINGS] });
    expect(schemaOf('from')).toEqual({ type: 'string', format: 'date' });
    expect(schemaOf('sponsorId')).toEqual({ type: 'string', pattern: '^[1-9][0-9]*$' });
    expect(schemaOf('hiddenField')).toEqual({ type: 'string', pattern: HIDDEN_FIELD_NAME.source });
    // What the document allows, the route reads; what it does not, the route refuses by name.
    const token = await h.token();
    const ok = await h.request('GET', '/api/recruitment-funnel?groupBy=week&from=2031-01-01&sponsorId=1&oFormIdentity=s-1', { token });
    expect(ok.status).toBe(200);
    for (const [query, parameter] of [
      ['groupBy=fortnight', 'groupBy'],
      ['from=01/02/2031', 'from'],
      ['sponsorId=0', 'sponsorId'],
      ['country=US', 'country'],
    ]) {
      const res = await h.request('GET', `/api/recruitment-funnel?${query}`, { token });
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as Json).errors[0].source, query).toEqual({ parameter });
    }
  });

  it('states every query parameter by a schema with a type, and what the server enforces beyond text', () => {
    const typed = (schema: Json | undefined): boolean =>
      !!schema && (typeof schema.type === 'string' || (Array.isArray(schema.anyOf) && (schema.anyOf as Json[]).every(typed)));
    // Paging, sorting, includes and sparse fields are comma lists the list's description names.
    const LIST_SYNTAX = /^(sort|include|fields\[[\w-]+\])$/;
    const untyped: string[] = [];
    const plainText: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const p of ((operation as Json).parameters ?? []) as Json[]) {
          if (p.in !== 'query') continue;
          const where = `${method.toUpperCase()} ${path} ${p.name}`;
          if (!typed(p.schema)) untyped.push(where);
          else if (!LIST_SYNTAX.test(p.name) && JSON.stringify(p.schema) === '{"type":"string"}') plainText.push(where);
        }
      }
    }
    expect(untyped).toEqual([]);
    expect(plainText, 'parameters stated as any text').toEqual([]);
    const schemaOf = (path: string, name: string) => (doc.paths[path].get.parameters as Json[]).find((p) => p.name === name);
    expect(schemaOf('/api/o-forms/participant-start', 'language')!.schema).toEqual({ type: 'string', pattern: API_ISO_CODE.source });
    expect(schemaOf('/api/o-forms/participant-start', 'oFormIdentity')!.schema).toEqual({ type: 'string', pattern: SURVEY_IDENTITY.source });
    expect(schemaOf('/api/o-forms/o-form-containers', 'include')!.schema).toEqual({ type: 'string', enum: ['oFormFields'] });
    expect(schemaOf('/api/o-forms/o-form-submission-sites/{submissionId}', 'zip')!.schema).toEqual({ type: 'string', maxLength: 100 });
    expect(schemaOf('/api/message-settings', 'engagementId')).toMatchObject({ required: true, schema: { pattern: '^[1-9][0-9]*$' } });
  });

  it('refuses a query parameter out of its stated schema, naming it', async () => {
    const token = await h.token();
    for (const [url, parameter] of [
      ['/api/o-forms/participant-start?oFormIdentity=x&language=en-US', 'language'],
      ['/api/o-forms/participant-start?screenerId=0', 'screenerId'],
      ['/api/o-forms/o-form-containers?oFormId=x&type=firstContainerPerForm', 'oFormId'],
      ['/api/o-forms/o-form-containers?oFormId=1&type=firstContainerPerForm&include=everything', 'include'],
      ['/api/o-forms/o-form-containers?oFormId=1&type=firstContainerPerForm&sort=id', 'sort'],
      ['/api/message-settings?engagementId=abc', 'engagementId'],
      ['/api/message-settings', 'engagementId'],
      ['/api/o-forms/languages-o-forms?oFormId=0', 'oFormId'],
    ] as const) {
      const res = await h.request('GET', url, { token });
      expect(res.status, url).toBe(400);
      expect(((await res.json()) as Json).errors[0].source, url).toEqual({ parameter });
    }
  });

  it('describes every JSON:API answer by more than its type', () => {
    const vague = Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, operation]) =>
        Object.entries((operation as Json).responses as Json)
          .filter(([status, response]) => /^2/.test(status) && saysOnlyItsType((response as Json).content?.['application/vnd.api+json']?.schema))
          .map(([status]) => `${method.toUpperCase()} ${path} ${status}`),
      ),
    );
    expect(vague).toEqual([]);
    // The check bites: a route described with no answer is a bare document, and is seen.
    const bare = buildOpenApi([{ method: 'POST', path: '/api/bare', handler: describeRoute({ summary: 'Bare' }) }], { version: '0' }).document as Json;
    expect(saysOnlyItsType(bare.paths['/api/bare'].post.responses['201'].content['application/vnd.api+json'].schema)).toBe(true);
    expect(saysOnlyItsType(doc.paths['/api/sponsors'].get.responses['200'].content['application/vnd.api+json'].schema)).toBe(false);
  });

  it("describes a write's list answer as a write's resource: every attribute, by its shape's component", () => {
    const lists = Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, operation]) => {
        const schema = (operation as Json).responses['200']?.content?.['application/vnd.api+json']?.schema as Json | undefined;
        const [document, own] = (schema?.allOf ?? []) as Json[];
        return method !== 'get' && document?.$ref === '#/components/schemas/ListDocument'
          ? [{ route: `${method.toUpperCase()} ${path}`, item: own!.properties.data.items }]
          : [];
      }),
    );
    expect(lists.map((l) => l.route)).toEqual(
      expect.arrayContaining(['POST /api/engagements-screeners/update/{screenerId}', 'PATCH /api/screeners/update-surveys/{id}']),
    );
    for (const { route, item } of lists) {
      const [, own] = item.allOf as Json[];
      expect(own!.required, route).toEqual(['attributes']);
      const name = String(own!.properties.attributes.$ref ?? '')
        .split('/')
        .pop()!;
      expect(doc.components.schemas[name], route).toMatchObject({ type: 'object', additionalProperties: false });
    }
  });

  it('describes the ClinicalTrials.gov bodies with the schema their routes read them with', () => {
    for (const path of ['/api/clinicaltrials-gov/preview/{engagementId}', '/api/clinicaltrials-gov/import/{engagementId}']) {
      const body = doc.paths[path].post.requestBody;
      expect(body.required, path).toBe(true);
      const schema = body.content['application/json'].schema;
      expect(body.content['application/vnd.api+json'].schema).toEqual(schema);
      const attributes = schema.properties.data.properties.attributes;
      expect(attributes.properties.nctId, path).toMatchObject({ type: 'string', pattern: NCT_ID_AS_TYPED.source });
      // What the route accepts, the pattern allows: it keeps the number upper-cased and trimmed.
      for (const typed of ['NCT06388018', 'nct06388018', ' Nct06388018 '])
        expect(new RegExp(attributes.properties.nctId.pattern).test(typed), typed).toBe(true);
      expect(new RegExp(attributes.properties.nctId.pattern).test('NCT0638801'), 'seven digits').toBe(false);
      expect(Object.keys(attributes.properties).sort()).toEqual(['nctId', 'study']);
      expect(attributes.additionalProperties).toBe(false);
    }
  });

  it("describes the participant's answers with the participant contract's schemas", () => {
    const saved = doc.paths['/api/o-forms/o-form-submission-page/{id}'].patch;
    expect(saved.responses['200'].content['application/vnd.api+json'].schema.properties.meta).toBeDefined();
    expect(saved.requestBody.content['application/vnd.api+json'].schema.properties.data.allOf[1].properties.attributes.properties.answers).toBeDefined();
  });
});

/**
 * Whether a JSON:API answer's schema says of its primary data no more than a type: the bare
 * resource or list document (an answer described as no particular resource), or a document whose
 * resource names its type but describes no attributes.
 */
function saysOnlyItsType(schema: Json | undefined): boolean {
  if (!schema) return false;
  const bare = ['#/components/schemas/ResourceDocument', '#/components/schemas/ListDocument'];
  if (bare.includes(schema.$ref)) return true;
  const [document, own] = (schema.allOf ?? []) as Json[];
  if (!document || !bare.includes(document.$ref)) return false;
  const data = own?.properties?.data as Json | undefined;
  const resource = (data?.items ?? data) as Json | undefined;
  const described = ((resource?.allOf ?? []) as Json[]).some((part) => part.properties?.attributes);
  return !described;
}

describe('GET /api/docs', () => {
  it('is a page that loads the vendored renderer from this origin, under the HTML policy', async () => {
    const res = await h.app.request('/api/docs');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<redoc spec-url="/api/openapi.json"');
    expect(html).toContain('<script src="/api/docs/redoc.standalone.js"></script>');
    expect(html).not.toMatch(/<script>|https?:\/\//);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const script = await h.app.request('/api/docs/redoc.standalone.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect((await script.text()).length).toBeGreaterThan(500_000);
  });
});
