/**
 * Valibot schemas as JSON Schema: how the OpenAPI document (and a query parameter read by a
 * valibot schema, server/http/params.ts) states what the server validates with.
 */
import { toJsonSchema } from '@valibot/to-json-schema';
import type { GenericSchema } from 'valibot';

type Json = Record<string, unknown>;

/** A valibot schema as JSON Schema 2020-12 (the dialect of OpenAPI 3.1): as a client sends it, or as the server answers. */
export function jsonSchemaOf(schema: GenericSchema, mode: 'input' | 'output' = 'input'): Json {
  const { $schema: _dialect, ...rest } = toJsonSchema(schema, { target: 'draft-2020-12', typeMode: mode, errorMode: 'ignore' }) as Json;
  return withoutEmptyAlternatives(rest) as Json;
}

/** An `anyOf` with an empty member (valibot's any/unknown) matches anything: said as `{}`. */
function withoutEmptyAlternatives(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutEmptyAlternatives);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'anyOf' && Array.isArray(value) && value.some((v) => v && typeof v === 'object' && Object.keys(v).length === 0)) continue;
    out[key] = withoutEmptyAlternatives(value);
  }
  return out;
}
