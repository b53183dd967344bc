/**
 * Every answer the API tests receive with the JSON:API media type is checked against JSON:API
 * 1.0's official JSON Schema (tests/fixtures/jsonapi): a resource whose attributes hold `type` or
 * `id`, a relationship without data/links/meta, or an error object of the wrong shape fails the
 * test that met it, whatever that test asserts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import draft06 from 'ajv/dist/refs/json-schema-draft-06.json' with { type: 'json' };

const schema: unknown = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../fixtures/jsonapi/schema-1.0.json'), 'utf8'));

// The schema is draft-06; its `format: uri` on links is left unchecked (our links are paths).
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
ajv.addMetaSchema(draft06);
const validate = ajv.compile(schema as object);

export const JSON_API_MEDIA_TYPE = 'application/vnd.api+json';

const describe = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? [])
    .slice(0, 8)
    .map((e) => `${e.instancePath || '/'} ${e.message ?? ''}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`)
    .join('; ');

/** Throws, naming the call and the first problems, when `document` is not a valid JSON:API 1.0 document. */
export function assertJsonApiDocument(document: unknown, call: string): void {
  if (validate(document)) return;
  throw new Error(`${call} answered a document that is not valid JSON:API 1.0: ${describe(validate.errors)}`);
}

/** Answers that may not conform, each with why: only where SPEC fixes a shape the standard forbids, never a place to park a new one. */
export const NOT_YET_CONFORMING: readonly { route: RegExp; why: string }[] = [
  { route: /^POST \/api\/users\/validate-email$/, why: 'SPEC fixes its answer as data.is_valid, not a resource' },
];

const notYetConforming = (call: string) => NOT_YET_CONFORMING.some((known) => known.route.test(call.replace(/\?.*$/, '')));

/** Checks a response's body when it says it is JSON:API; the response handed back is unread. */
export async function checkedJsonApiResponse(res: Response, call: string): Promise<Response> {
  if (!(res.headers.get('content-type') ?? '').startsWith(JSON_API_MEDIA_TYPE)) return res;
  // A compressed body is checked by the tests that ask for it uncompressed.
  if (res.headers.get('content-encoding')) return res;
  if (notYetConforming(call)) return res;
  const text = await res.clone().text();
  if (text === '') return res;
  assertJsonApiDocument(JSON.parse(text), call);
  return res;
}
