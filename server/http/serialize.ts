import type { Context } from 'hono';
import { answerText } from './responseText';
import { JSON_API_MEDIA_TYPE, type Attributes, type Relationship, type Resource } from '@core/jsonapi';

export function toResource(
  type: string,
  id: number | string,
  attributes: Attributes,
  options: { fields?: Set<string> | null; relationships?: Record<string, Relationship> } = {},
): Resource {
  const selected = options.fields ? Object.fromEntries(Object.entries(attributes).filter(([k]) => options.fields?.has(k))) : attributes;
  const resource: Resource = { type, id: String(id), attributes: selected };
  if (options.relationships) resource.relationships = options.relationships;
  return resource;
}

/** A model as a resource: its `id` apart, the rest its attributes (only those in `fields` when given). */
export function modelResource<M extends { id: number | string }>(type: string, model: M, fields: Set<string> | null = null): Resource {
  const { id, ...attributes } = model;
  return toResource(type, id, attributes, { fields });
}

/** Dates as ISO strings, everything else as is. */
export function plain(row: Record<string, unknown>): Attributes {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]));
}

type Status = 200 | 201 | 202;

export function sendDocument(c: Context, body: unknown, status: Status = 200): Response {
  return answerText(c, JSON.stringify(body), status, { 'Content-Type': JSON_API_MEDIA_TYPE });
}

export const sendResource = (c: Context, data: Resource, status: Status = 200, included?: Resource[]) =>
  sendDocument(c, included?.length ? { data, included } : { data }, status);

export const sendList = (c: Context, data: Resource[], meta: { total: number; page: number; limit: number }, included?: Resource[]) =>
  sendDocument(c, included?.length ? { data, included, meta } : { data, meta });
