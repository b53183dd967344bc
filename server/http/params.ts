/**
 * Typed query parameters: each one both reads a query value (a value it cannot read is a 400
 * naming the parameter) and says what it reads, as the OpenAPI document's parameter. A list
 * declares its filters as a record of them (server/http/query.ts ListSpec), so what the server
 * enforces and what the document states are one value.
 *
 *   const FILTERS = { isActive: booleanParam, kind: choiceParam(RMS_PROVIDER_KINDS) };
 *   q.filters.kind // RmsProviderKind | undefined
 */
import * as v from 'valibot';
import { API_ISO_CODE } from '@core/i18n';
import { isIsoDate } from '@core/validation/isoDate';
import { jsonSchemaOf } from './jsonSchema';
import { badRequest } from './errors';
import { DAY_MS } from '@core/time';

/** A JSON Schema, as the OpenAPI document states it. */
export type ParamSchema = Readonly<Record<string, unknown>>;

export interface QueryParam<T> {
  /** What a non-empty value stands for; throws a 400 naming `name` when it cannot read it. */
  readonly parse: (value: string, name: string) => T;
  readonly description: string;
  readonly schema: ParamSchema;
  /** A value must be given (the list is of one parent record). */
  readonly required?: boolean;
}

export type QueryParams = Readonly<Record<string, QueryParam<unknown>>>;

type ValueOf<Q> = Q extends QueryParam<infer T> ? T : never;
type RequiredNames<P> = { [K in keyof P]: P[K] extends { readonly required: true } ? K : never }[keyof P];

/** The values a record of parameters reads: a required one's always, any other's absent when not given (or given empty). */
export type ParamValues<P> = { -readonly [K in RequiredNames<P>]: ValueOf<P[K]> } & { -readonly [K in Exclude<keyof P, RequiredNames<P>>]?: ValueOf<P[K]> };

/** `param`, with its value mapped (to a condition, say) and its description kept. */
export const mapParam = <T, U>(param: QueryParam<T>, map: (value: T, name: string) => U, description = param.description): QueryParam<U> => ({
  ...param,
  description,
  parse: (value, name) => map(param.parse(value, name), name),
});

/** `param`, required: a list of one parent record. */
export const required = <T>(param: QueryParam<T>): QueryParam<T> & { readonly required: true } => ({ ...param, required: true });

/** `true` or `false` (also 1 and 0). */
export const booleanParam: QueryParam<boolean> = {
  description: 'true or false (also 1 or 0).',
  schema: { type: 'string', enum: ['true', 'false', '1', '0'] },
  parse: (value, name) => {
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
    throw badRequest(`'${name}' must be true or false.`, name);
  },
};

/** One of a fixed list of values, e.g. an engagement's phase. */
export const choiceParam = <C extends string>(choices: readonly C[], description = 'One of the listed values.'): QueryParam<C> => ({
  description,
  schema: { type: 'string', enum: [...choices] },
  parse: (value, name) => {
    if (!(choices as readonly string[]).includes(value)) throw badRequest(`'${name}' must be one of: ${choices.join(', ')}.`, name);
    return value as C;
  },
});

/** A record's id (a positive integer in PostgreSQL's range); `what` names the record. */
export const idParam = (what: string, description = `Only rows of this ${what} (its id).`): QueryParam<number> => ({
  description,
  schema: { type: 'string', pattern: '^[1-9][0-9]*$' },
  parse: (value, name) => {
    const id = /^\d{1,9}$/.test(value) ? Number(value) : 0;
    if (id < 1 || id > 2_147_483_647) throw badRequest(`'${name}' must be the ${what}'s id.`, name);
    return id;
  },
});

/** Free text, at most `maxLength` characters, kept as given. */
export const textParam = (description: string, maxLength = 255): QueryParam<string> => ({
  description,
  schema: { type: 'string', maxLength },
  parse: (value, name) => {
    if (value.length > maxLength) throw badRequest(`'${name}' must be at most ${maxLength} characters.`, name);
    return value;
  },
});

/**
 * Text of one form, `pattern` (anchored, no flags: the document states it as JSON Schema's
 * `pattern`); a value of another form is a 400 saying what it must be: "'name' must be `form`."
 */
export const patternParam = (pattern: RegExp, form: string, description: string): QueryParam<string> => ({
  description,
  schema: { type: 'string', pattern: pattern.source },
  parse: (value, name) => {
    if (!pattern.test(value)) throw badRequest(`'${name}' must be ${form}.`, name);
    return value;
  },
});

/** A language, by its API code (en, es_MX). */
export const languageParam = (description: string): QueryParam<string> => patternParam(API_ISO_CODE, 'an API language code such as en or es_MX', description);

/**
 * A value read by a valibot schema (the one that reads the same value in a body, say), stated as
 * its JSON Schema; a value it refuses is a 400 with the schema's message, naming the parameter.
 */
export const schemaParam = <T>(schema: v.GenericSchema<string | undefined, T>, description: string): QueryParam<Exclude<T, undefined>> => ({
  description,
  schema: jsonSchemaOf(schema),
  parse: (value, name) => {
    const read = v.safeParse(schema, value);
    if (!read.success) throw badRequest(`'${name}': ${read.issues[0].message}`, name);
    return read.output as Exclude<T, undefined>;
  },
});

/** The list's search box: text matched anywhere in the names and identifiers the list shows. */
export const searchParam: QueryParam<string> = textParam('Text to search for in the names and identifiers the list shows.');

/** A calendar day (YYYY-MM-DD), kept as its text; `bound` says which end of a range it is. */
export const dayParam = (bound: 'from' | 'to'): QueryParam<string> => ({
  description: `A day (YYYY-MM-DD), ${bound === 'from' ? 'on or after' : 'on or before'}.`,
  schema: { type: 'string', format: 'date' },
  parse: (value, name) => {
    if (!isIsoDate(value)) throw badRequest(`'${name}' must be a date such as 2026-11-22.`, name);
    return value;
  },
});

/** A day (a `to` day includes its whole UTC day) or an ISO date-time, as an instant. */
export const instantParam = (bound: 'from' | 'to'): QueryParam<Date> => ({
  description: `A day (whole UTC days) or an instant, ${bound === 'from' ? 'on or after' : 'on or before'}.`,
  schema: {
    anyOf: [
      { type: 'string', format: 'date' },
      { type: 'string', format: 'date-time' },
    ],
  },
  parse: (value, name) => {
    const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
    const at = dateOnly
      ? isIsoDate(value)
        ? Date.parse(`${value}T00:00:00Z`)
        : Number.NaN
      : /^\d{4}-\d{2}-\d{2}T/.test(value)
        ? Date.parse(value)
        : Number.NaN;
    if (Number.isNaN(at)) throw badRequest(`'${name}' must be a date (2026-01-31) or an ISO date-time.`, name);
    return new Date(dateOnly && bound === 'to' ? at + DAY_MS : at);
  },
});

/** The values of `params` that `read` gives (a name's value, or undefined), each parsed; empty values are no value. */
export function parseParams<P extends QueryParams>(params: P, read: (name: string) => string | undefined): ParamValues<P> {
  const out: Record<string, unknown> = {};
  for (const [name, param] of Object.entries(params)) {
    const value = read(name);
    if (value === undefined || value === '') {
      if (param.required) throw badRequest(`'${name}' is required.`, name);
      continue;
    }
    out[name] = param.parse(value, name);
  }
  return out as ParamValues<P>;
}

/** The filters of a list with a search box and an active switch (users, languages, lookups…). */
export const SEARCH_AND_ACTIVE = { searchQuery: searchParam, isActive: booleanParam };
