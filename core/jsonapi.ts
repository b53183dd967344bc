/**
 * JSON:API documents as this product uses them: the types both sides share, the codec
 * between resources and flat records, and the rule that turns an error list into one message.
 */

export const JSON_API_MEDIA_TYPE = 'application/vnd.api+json';

export type Attributes = Record<string, unknown>;

export interface ResourceIdentifier {
  type: string;
  id: string;
}

export interface Relationship {
  data: ResourceIdentifier | ResourceIdentifier[] | null;
}

export interface Resource {
  type: string;
  id: string;
  attributes?: Attributes;
  relationships?: Record<string, Relationship>;
}

export interface ListMeta {
  total: number;
  page: number;
  limit: number;
  [key: string]: unknown;
}

export interface ErrorObject {
  status: string;
  title: string;
  /** An application-specific code (JSON:API), e.g. 'missing_translations'. */
  code?: string;
  detail?: string;
  source?: { pointer?: string; parameter?: string };
  meta?: Record<string, unknown>;
}

export interface DataDocument<D extends Resource | Resource[] | null = Resource | Resource[] | null> {
  data: D;
  included?: Resource[];
  meta?: Record<string, unknown>;
}

export interface ErrorDocument {
  errors: ErrorObject[];
}

/** A resource flattened: id plus attributes plus relationships resolved from `included`. */
export type Flat = { id: string; type: string } & Record<string, unknown>;

export function isErrorDocument(value: unknown): value is ErrorDocument {
  return typeof value === 'object' && value !== null && Array.isArray((value as { errors?: unknown }).errors);
}

/**
 * The one message shown for a failed call: the details joined, or else the first title
 * (SPEC section 8).
 */
export function errorsToMessage(errors: readonly ErrorObject[], fallback = 'Could not save data'): string {
  const details = errors.map((e) => e.detail).filter((d): d is string => typeof d === 'string' && d !== '');
  if (details.length > 0) return details.join(' ');
  return errors[0]?.title ?? fallback;
}

/** Errors keyed by the attribute their pointer names, for showing beside form fields. */
export function errorsByField(errors: readonly ErrorObject[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of errors) {
    const pointer = e.source?.pointer;
    if (!pointer) continue;
    const field = pointer.replace(/^\/data\/(attributes|relationships)\//, '').split('/')[0];
    if (field && !(field in out)) out[field] = e.detail ?? e.title;
  }
  return out;
}

function flatten(resource: Resource, index: Map<string, Resource>, depth: number): Flat {
  const flat: Flat = { id: resource.id, type: resource.type, ...(resource.attributes ?? {}) };
  for (const [name, rel] of Object.entries(resource.relationships ?? {})) {
    const resolve = (ref: ResourceIdentifier): Flat | ResourceIdentifier => {
      const found = index.get(`${ref.type}:${ref.id}`);
      return found && depth < 3 ? flatten(found, index, depth + 1) : ref;
    };
    if (Array.isArray(rel.data)) flat[name] = rel.data.map(resolve);
    else flat[name] = rel.data ? resolve(rel.data) : null;
  }
  return flat;
}

/** Flattens a document's primary data, resolving relationships from `included`. */
export function decode(doc: DataDocument<Resource>): Flat;
export function decode(doc: DataDocument<Resource[]>): Flat[];
export function decode(doc: DataDocument): Flat | Flat[] | null;
export function decode(doc: DataDocument): Flat | Flat[] | null {
  const index = new Map<string, Resource>();
  for (const r of doc.included ?? []) index.set(`${r.type}:${r.id}`, r);
  if (Array.isArray(doc.data)) {
    for (const r of doc.data) index.set(`${r.type}:${r.id}`, r);
    return doc.data.map((r) => flatten(r, index, 0));
  }
  return doc.data ? flatten(doc.data, index, 0) : null;
}

/** Builds the body of a create or update. */
export function encode(
  type: string,
  attributes: Attributes,
  options: { id?: string; relationships?: Record<string, Relationship> } = {},
): DataDocument<Resource> {
  const data: Resource = { type, id: options.id ?? '', attributes };
  if (options.id === undefined) delete (data as Partial<Resource>).id;
  if (options.relationships) data.relationships = options.relationships;
  return { data };
}

/** A list query's parameters as the API takes them. */
export interface ListParams {
  page?: number;
  limit?: number;
  sort?: string;
  include?: string;
  fields?: string;
  [filter: string]: string | number | boolean | undefined;
}

export function toSearchParams(params: ListParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === '') continue;
    out.set(key, String(value));
  }
  return out;
}
