/**
 * The audit trail's hash chain: each event's hash covers its own content and the previous
 * event's hash, so changing or removing a row breaks every hash after it.
 */
import { createHash } from 'node:crypto';
import type { AuditEvent } from '@core/model/auditEvent';

export const GENESIS_HASH = '0'.repeat(64);

/** JSON with object keys sorted at every depth: jsonb reorders keys, so the hash must not depend on order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** What an event's hash covers: the event as the API shows it, but for its id, at its instant. */
export type ChainedContent = Omit<AuditEvent, 'id' | 'occurredAt' | 'prevHash' | 'hash'> & { occurredAt: Date };

export function eventHash(prevHash: string, content: ChainedContent): string {
  return createHash('sha256')
    .update(prevHash)
    .update('\n')
    .update(canonicalJson({ ...content, occurredAt: content.occurredAt.toISOString() }))
    .digest('hex');
}
